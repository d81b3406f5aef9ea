"""Files: encounter JSON and Universal VTT import."""
