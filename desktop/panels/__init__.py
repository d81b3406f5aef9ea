"""Dockable panels of the main window: the combatant list and editor (:mod:`.tokens`).

Importing the package imports no Qt: the template library (:mod:`.library`) is read by
core-only tests and tools."""
