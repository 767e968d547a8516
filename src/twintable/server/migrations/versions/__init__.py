"""One module per schema revision, in order."""
