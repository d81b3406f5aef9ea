"""Core actions, reversible commands and the history (the single undo authority)."""
