"""Dockable panels of the main window: the combatant list and editor (:mod:`.tokens`)."""
