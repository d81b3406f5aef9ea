"""Sharing the players' view with the players' own devices (docs/sharing.md): a web server
on its own thread (:mod:`desktop.share.server`), the table's state of sharing — players,
claims, the moves waiting for the GM — and the rulings it asks core for
(:mod:`desktop.share.table`), and the player view as JSON (:mod:`desktop.share.view`).

No Qt here: ``battlemap serve`` runs it headless; the window's bridge is
:mod:`desktop.table.share`."""
