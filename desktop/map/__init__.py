"""The map view and everything drawn on it: the renderer (every cell ↔ map ↔ screen
conversion), the scene and its items and layers (tokens, walls, ledges, fog, the zoomed-out
overview), the previews tools show (shove, missile, melee, morale), animations and touch. It
imports no tool or panel: the view drives a tool through the interface
:class:`desktop.map.tool_events.ViewTool`."""
