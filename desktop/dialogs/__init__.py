"""The window's dialogs: the small editors (hazard, map size, background, surprise), the
rules profile, the weapon table and the help and shortcut sheet."""
