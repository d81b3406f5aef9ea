"""Spatial queries on the map: wall geometry, line of sight, movement paths."""
