"""Table play: the players' window, table mode (UI scale, touch sizes) and the controller
that puts both, the players' fog and the turned maps in the GM's View and Map menus."""
