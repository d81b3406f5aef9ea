"""Weapons and shields lying on the map where a critical event made their owner drop them
(002 "Critical events" 3, 5: a dropped weapon lies on the map until its owner recovers it).
One label per item, kept per owner and redrawn when that owner changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.rules.weapons import label_of
from desktop.map.items import Z_TOKEN
from desktop.map.labels import ScreenLabel
from desktop.qt import QColor, QPointF

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.model.encounter import Encounter
    from desktop.map.renderer import MapRenderer
    from desktop.qt import QGraphicsScene

COLOUR = QColor("#6b4f1d")


class DroppedItems:
    """The labels of the items each token dropped, in ``scene``."""

    def __init__(self, scene: QGraphicsScene, renderer: MapRenderer,
                 shown: Callable[[str], bool]) -> None:
        self.scene, self.renderer, self.shown = scene, renderer, shown
        self.labels: dict[str, list[ScreenLabel]] = {}

    def sync(self, encounter: Encounter, token_id: str) -> None:
        """Redraw what ``token_id`` has dropped (nothing when it has gone, or the scene does
        not show it: the players' view of a hidden token)."""
        for label in self.labels.pop(token_id, []):
            self.scene.removeItem(label)
        if not encounter.has_token(token_id) or not self.shown(token_id):
            return
        owner = encounter.token(token_id).combatant
        labels = []
        for item in owner.out_of_hand:
            if item.cell is None:
                continue
            label = ScreenLabel(f"⚔ {label_of(item)}", COLOUR, size_px=10)
            label.setToolTip(f"{owner.name}'s {label_of(item)}, dropped (critical event): "
                             f"recovering it is {owner.name}'s action — its menu ▸ This round")
            label.setZValue(Z_TOKEN + 1)
            # Under the cell, centred: its owner may still stand on it.
            rect = self.renderer.cell_rect(item.cell)
            label.place(QPointF(rect.center().x(), rect.bottom()), QPointF(0, 1), centred=True)
            self.scene.addItem(label)
            labels.append(label)
        if labels:
            self.labels[token_id] = labels

    def rebuild(self, encounter: Encounter) -> None:
        for token_id in list(self.labels):
            self.sync(encounter, token_id)
        for token in encounter.tokens:
            if token.combatant.out_of_hand:
                self.sync(encounter, token.id)
