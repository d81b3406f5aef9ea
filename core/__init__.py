"""Battlemap rules engine: pure Python, no Qt."""
