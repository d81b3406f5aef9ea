"""Laying out a panel now rather than on a later turn of the event loop."""

from __future__ import annotations

from desktop.qt import QApplication, QEvent


def lay_out_now() -> None:
    """Lay out what new texts or widgets changed before the next paint (or before asking
    where a widget now is): a layout request queued behind the map's repaint moved the
    form's widgets after the first paint, and the form was painted twice per click. Each
    round delivers the requests the last one posted (a widget's, its form's, the scroll
    area's)."""
    for _ in range(3):
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
