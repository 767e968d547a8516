"""Twin Table: four card games to play online and to simulate and study."""

__version__ = "0.1.0"
