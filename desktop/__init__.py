"""Battlemap desktop application (PySide6). Qt is imported lazily by the CLI."""
