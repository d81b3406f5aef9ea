"""Bundled data: the demo encounter, the combatant library, icons."""
