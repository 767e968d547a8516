"""Terminal front ends (Rich): render a seat's view, describe actions and events."""
