"""Small Qt building blocks every window uses: menus and shortcuts declared as data, and
choice and number boxes the mouse wheel changes only once focused."""
