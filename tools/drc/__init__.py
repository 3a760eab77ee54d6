"""KLayout DRC execution: one klayout process evaluates decks over many layouts, report parsing, rendering."""
