"""Simulation: play many games between bots on a virtual clock, and report on them."""
