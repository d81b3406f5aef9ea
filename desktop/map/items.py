"""Graphics items of the map: tokens, hazards, the focus ring, the movement path preview
(the walls are one item of their own, desktop.map.wall_layer)."""

from __future__ import annotations

import functools
import itertools
import math
from typing import TYPE_CHECKING

from core.model.combatant import Combatant, Condition, Side
from core.rules.conditions import incapacity
from core.rules.weapons import gear_notes
from desktop.map import style
from desktop.map.labels import ScreenLabel
from desktop.map.renderer import MapRenderer
from desktop.map.token_faces import FACE_STEP, FaceBook
from desktop.qt import (
    QBrush,
    QColor,
    QFont,
    QGraphicsItem,
    QGraphicsObject,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPixmapCache,
    QPointF,
    QRectF,
    QStyleOptionGraphicsItem,
    Qt,
    QWidget,
    isValid,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.model.encounter import Token
    from core.model.grid import Footprint
    from core.model.mapmodel import Hazard

Z_HAZARD, Z_WALL, Z_PREVIEW, Z_TOKEN, Z_OVERLAY = 10, 20, 30, 40, 50
GM_ONLY_OPACITY = 0.55
DETAIL_PX = 14  # a token drawn smaller than this on screen is a plain disc
DISC_INSET = 0.06  # of a token's side, all round: the disc; the selection ring fills it
# Of a token's side, all round: the face drawn smaller when selected, so the ring behind
# it shows (a face covers nearly all its square: the ring was a hairline, hard to see).
SELECTED_INSET = 0.08
MIN_BADGE_PX = 14  # a condition badge's least size on screen
DOWN_GREY = QColor("#9a948a")
BADGE_PEN = 1.5  # a badge's white outline, kept inside the token's bounds
_FACE_KEYS = itertools.count()  # a token's looks, numbered anew at each sync


class TokenItem(QGraphicsObject):
    """A round token: side ring, initials, HP bar, condition badges, selection highlight.
    The GM sees a token hidden from the players faded; the players' copy (``for_players``)
    cannot be selected, has no tooltip and shows only the party's HP."""

    def __init__(self, token: Token, renderer: MapRenderer, faces: FaceBook, *,
                 for_players: bool = False, portrait: QPixmap | None = None,
                 moved: Callable[[TokenItem], None] | None = None) -> None:
        super().__init__()
        self.token_id = token.id
        self.renderer = renderer
        self.faces = faces  # the scene's pictures of its tokens, per zoom step
        self.for_players = for_players
        self.moved = moved  # told when the picture moves (the scene's dots follow it)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, not for_players)
        self.setZValue(Z_TOKEN)
        self.setAcceptHoverEvents(True)
        # decoded by the scene (desktop.document.portraits), kept across syncs
        self.portrait = portrait
        self._looks = 0  # see face_key
        self.sync(token)

    def sync(self, token: Token) -> None:
        """Take position and looks from the model."""
        scene = self.scene()  # none yet when the item is made
        old_area = self.sceneBoundingRect() if scene is not None else QRectF()
        self.prepareGeometryChange()
        self.token = token
        self.initials = token_initials(token.combatant.name)
        self.cells = token.footprint.size  # a side, asked for every token on a zoom step
        self.side_px = self.renderer.length(self.cells)
        self._looks = next(_FACE_KEYS)  # they may have changed: pictures drawn anew
        self._bounds = QRectF(0, 0, self.side_px, self.side_px)  # asked for many times a frame
        inset = self.side_px * DISC_INSET
        self.disc = self._bounds.adjusted(inset, inset, -inset, -inset)
        self.setOpacity(GM_ONLY_OPACITY if token.gm_only else 1.0)
        if not self.for_players:
            self.setToolTip(_token_tip(token))
        self.show_at(self.home())
        self.update()
        if scene is not None:
            # Qt does not repaint where an item now drawn as a dot was (a Huge token
            # shrunk to Medium zoomed out left its ring on screen).
            scene.update(old_area)

    def home(self) -> QPointF:
        """Where the model has the token."""
        return self.renderer.footprint_rect(self.token.footprint).topLeft()

    def at_rest(self) -> bool:
        return self.pos() == self.home()

    def show_at(self, point: QPointF) -> None:
        """Draw the token at ``point`` (its home, or on the way somewhere: a drag, a
        slide)."""
        self.setPos(point)
        if self.moved is not None:
            self.moved(self)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        scale = scale_of(painter)
        if self.side_px * scale < DETAIL_PX:
            self._paint_dot(painter)
            return
        where = self._bounds
        if self.isSelected():
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.SELECTION)
            painter.drawEllipse(self._bounds)
            inset = self.side_px * SELECTED_INSET
            where = self._bounds.adjusted(inset, inset, -inset, -inset)
        face = self.faces.face(self, scale * painter.device().devicePixelRatioF())
        if face is None:  # zooming, and no picture near this size yet
            self._paint_dot(painter)
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawPixmap(where, face, QRectF(face.rect()))
        self._paint_badges(painter)

    def shows_face(self) -> bool:
        """Drawn with its face: in a scene and not as a dot (a face owed to a token since
        removed, or since zoomed out to a dot, is not drawn)."""
        return (isValid(self) and self.scene() is not None
                and not self.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)

    def face_key(self, step: int) -> str:
        """The pixmap cache's key for this token's face at a zoom step (its looks are
        numbered anew at each sync, so an old picture is never found again)."""
        return f"token-face:{self._looks}:{step}"

    def draw_face(self, step: int) -> QPixmap:
        """Draw the token without its selection and badges at the resolution of a zoom
        step, and keep it (desktop.map.token_faces). Badges are drawn live: their least size is
        in screen pixels."""
        side = max(1, math.ceil(self.side_px * FACE_STEP ** step))
        face = QPixmap(side, side)
        face.fill(Qt.GlobalColor.transparent)
        painter = QPainter(face)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.scale(side / self.side_px, side / self.side_px)
        self._paint_face(painter, self.disc)
        painter.end()
        QPixmapCache.insert(self.face_key(step), face)
        return face

    def _paint_face(self, painter: QPainter, disc: QRectF) -> None:
        combatant = self.token.combatant
        ring = style.SIDE_COLOURS[combatant.side]
        # Rings as filled discs one over another: stroking a wide pen costs twice as much.
        painter.setPen(Qt.PenStyle.NoPen)
        ring_half = self.side_px * 0.04
        painter.setBrush(ring)
        painter.drawEllipse(disc.adjusted(-ring_half, -ring_half, ring_half, ring_half))
        painter.setBrush(style.TOKEN_FILL if combatant.hp > 0 else DOWN_GREY)
        painter.drawEllipse(disc.adjusted(ring_half, ring_half, -ring_half, -ring_half))
        portrait = self.portrait
        if portrait is None:
            self._paint_initials(painter, disc, ring)
        else:
            inset = self.side_px * DISC_INSET
            clip = QPainterPath()
            clip.addEllipse(disc.adjusted(inset, inset, -inset, -inset))
            painter.save()
            painter.setClipPath(clip)
            painter.drawPixmap(disc.toRect(), portrait)
            painter.restore()
        if not self.for_players or combatant.side is Side.PARTY:
            self._paint_hp(painter, disc)
        if self.token.gm_only:
            self._paint_hidden_mark(painter, disc)

    def _paint_dot(self, painter: QPainter) -> None:
        """The token as a few screen pixels (a large map zoomed out): a disc in its side's
        colour, ringed when selected; its initials, HP and badges would not be legible,
        and drawing them for thousands of tokens made every zoom step slow."""
        painter.setPen(QPen(style.SELECTION, self.side_px * 2 * DISC_INSET) if self.isSelected()
                       else Qt.PenStyle.NoPen)
        painter.setBrush(dot_colour(self.token))
        painter.drawEllipse(self.disc)

    def _badge_side(self, painter: QPainter, count: int) -> float:
        """A badge a third of a cell per cell of the token (up to two), never under
        :data:`MIN_BADGE_PX` on screen (readable at fit on a table screen), and small
        enough for ``count`` of them, overlapping a little, to fit across the token."""
        wanted = max(self.renderer.length(0.3 * min(self.token.footprint.size, 2)),
                     MIN_BADGE_PX / scale_of(painter))
        room = self.side_px - BADGE_PEN
        return min(wanted, room * 0.45, room / (1 + 0.9 * (count - 1)))

    def _paint_hidden_mark(self, painter: QPainter, disc: QRectF) -> None:
        """A dashed outer ring: the players do not see this token."""
        pen = QPen(style.GM_ONLY, self.side_px * 0.05, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        inset = self.side_px * 0.03
        painter.drawEllipse(disc.adjusted(-inset, -inset, inset, inset))

    def _paint_initials(self, painter: QPainter, disc: QRectF, colour: QColor) -> None:
        initials = self.initials
        fit = 2 / max(2, len(initials))  # three characters or more: smaller, still inside
        painter.setFont(bold_font(max(6, int(disc.height() * 0.36 * fit))))
        painter.setPen(colour.darker(130))
        painter.drawText(disc.adjusted(0, -disc.height() * 0.08, 0, 0),
                         Qt.AlignmentFlag.AlignCenter, initials)

    def _paint_hp(self, painter: QPainter, disc: QRectF) -> None:
        combatant = self.token.combatant
        fraction = max(0.0, min(1.0, combatant.hp / combatant.max_hp))
        bar = QRectF(disc.left() + disc.width() * 0.18, disc.bottom() - disc.height() * 0.26,
                     disc.width() * 0.64, max(3.0, disc.height() * 0.09))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#3b3b3b"))
        painter.drawRect(bar)
        colour = QColor("#2ea043") if fraction > 0.5 else (
            QColor("#e3a008") if fraction > 0.25 else QColor("#d7263d"))
        painter.setBrush(colour)
        painter.drawRect(QRectF(bar.left(), bar.top(), bar.width() * fraction, bar.height()))

    def _paint_badges(self, painter: QPainter) -> None:
        conditions = sorted(self.token.combatant.conditions)
        if not conditions:
            return
        badge = self._badge_side(painter, len(conditions))
        painter.setFont(bold_font(max(6, int(badge * 0.55))))
        # Inside the bounds, outline included: nothing clips a token's paint (a sliver of
        # outline left behind would stay on screen when the token moves).
        edge = BADGE_PEN / 2
        x = self.side_px - edge - badge
        for condition in conditions:
            text, colour = style.CONDITION_BADGES[Condition(condition)]
            rect = QRectF(x, edge, badge, badge)
            painter.setPen(QPen(QColor("white"), BADGE_PEN))
            painter.setBrush(colour)
            painter.drawEllipse(rect)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
            x -= badge * 0.9


def dot_colour(token: Token) -> QColor:
    """A token's colour as a plain disc: its side's, grey once down."""
    return style.SIDE_COLOURS[token.combatant.side] if token.combatant.hp > 0 else DOWN_GREY


@functools.cache
def bold_font(pixel_size: int) -> QFont:
    """A bold font of ``pixel_size`` pixels (made once: a token paints many times)."""
    font = QFont()
    font.setBold(True)
    font.setPixelSize(pixel_size)
    return font


def scale_of(painter: QPainter) -> float:
    """Screen pixels per scene unit (the view's zoom, whatever the table's turn)."""
    return max(MapRenderer.zoom_of(painter.worldTransform()), 1e-6)


def _token_tip(token: Token) -> str:
    c = token.combatant
    hidden = "<br><i>Hidden from the players</i>" if token.gm_only else ""
    return (f"<b>{c.name}</b> ({c.side.value}, {c.size.value})<br>HP {c.hp}/{c.max_hp}<br>"
            f"Conditions: {', '.join(x.value for x in c.conditions) or 'none'}{why_idle(c)}"
            + "".join(f"<br>{note[0].upper()}{note[1:]}" for note in gear_notes(c))
            + hidden)


def why_idle(combatant: Combatant) -> str:
    """A tip's line saying why the combatant takes no action ("Down (-3 HP): no action"),
    or nothing: a walk-through saw a creature at -3 HP with "Conditions: none"."""
    reason = incapacity(combatant)
    return f"<br>{reason[0].upper()}{reason[1:]}" if reason else ""


def token_initials(name: str) -> str:
    """What a token shows without art: the initials of its first two words and its number,
    so "Orc Warrior 2" reads "OW2" and "Skeleton 1" "S1"."""
    words = name.split()
    number = words.pop() if len(words) > 1 and words[-1].isdigit() else ""
    return "".join(w[0] for w in words[:2]).upper() + number


class HazardItem(QGraphicsItem):
    """A hazard region: tinted cells, an outline, an icon and its name. One hidden from the
    players is paler and says so; the players' copy (``for_players``) has no tooltip (the
    GM's notes are in it)."""

    def __init__(self, hazard: Hazard, renderer: MapRenderer, for_players: bool = False
                 ) -> None:
        super().__init__()
        self.hazard, self.renderer = hazard, renderer
        self.setZValue(Z_HAZARD)
        # Painted once per zoom level, not on every repaint (a map may hold a thousand).
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._shape = QPainterPath()
        for cell in hazard.cells:
            self._shape.addRect(renderer.cell_rect(cell))
        self._shape = self._shape.simplified()
        self._bounds = self._shape.boundingRect().adjusted(-2, -2, 2, 2)  # asked often
        effect = hazard.effect
        details = [f"damage {effect.damage} {effect.damage_type}".strip() if effect.damage
                   else "", f"fall {effect.fall_ft} ft" if effect.fall_ft else "",
                   f"own save {effect.save_target}" if effect.save_target else "",
                   f"gives light {hazard.light_cells:g} cells" if hazard.light_cells else "",
                   effect.notes]
        if hazard.gm_only:
            details.append("<i>Hidden from the players</i>")
            self.setOpacity(GM_ONLY_OPACITY)
        if not for_players:
            self.setToolTip(f"<b>{hazard.name}</b> ({hazard.kind.value})<br>"
                            + "<br>".join(d for d in details if d))
        # A separate item (the scene adds it), hanging just above the hazard's first cell,
        # over the walls and under the previews and the tokens: a map zoomed out to fit a
        # small screen made the name wider than its cells, and it covered a token beside it.
        hidden = " (hidden)" if hazard.gm_only else ""
        self.label = ScreenLabel(f"{style.HAZARD_ICONS[hazard.kind]} {hazard.name}{hidden}",
                                 style.HAZARD_COLOURS[hazard.kind].darker(220), size_px=12)
        self.label.setZValue(Z_WALL + 1)
        self.label.place(renderer.cell_rect(min(hazard.cells)).topLeft(), QPointF(0, -9))

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._shape

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        colour = style.HAZARD_COLOURS[self.hazard.kind]
        painter.setPen(QPen(colour.darker(150), 2, Qt.PenStyle.DashLine))
        painter.setBrush(QBrush(colour, Qt.BrushStyle.SolidPattern))
        painter.drawPath(self._shape)


class FocusRing(QGraphicsItem):
    """A dashed ring around the token a tool has chosen (the shover, the attacker)."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__()
        self.renderer = renderer
        self.setZValue(Z_TOKEN + 0.5)
        self._rect = QRectF()
        self.hide()

    def show_on(self, footprint: Footprint) -> None:
        self.prepareGeometryChange()
        pad = self.renderer.length(0.12)
        self._rect = self.renderer.footprint_rect(footprint).adjusted(-pad, -pad, pad, pad)
        self.show()

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-4, -4, 4, 4)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(style.CHOSEN, 3 * style.ui_scale())
        pen.setCosmetic(True)
        pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(self._rect)


class PathPreview(QGraphicsItem):
    """The path a dragged token would take, its cost, green or red."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__()
        self.renderer = renderer
        self.setZValue(Z_PREVIEW)
        self._path = QPainterPath()
        self._legal = True
        # Its own item (the scene adds it), above tokens and hazard names: the cost and
        # "through Spiked pit" were hidden under the Ogre and the pit's name tag.
        self.label = ScreenLabel()
        self.label.setZValue(Z_OVERLAY)
        self.hide()

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: object) -> object:
        if change == QGraphicsItem.GraphicsItemChange.ItemVisibleHasChanged:
            self.label.setVisible(bool(value))  # the label shows and hides with the path
        return super().itemChange(change, value)

    def show_path(self, points: list[QPointF], label: str, legal: bool) -> None:
        self.prepareGeometryChange()
        self._path = QPainterPath()
        if points:
            self._path.moveTo(points[0])
            for point in points[1:]:
                self._path.lineTo(point)
            self.label.place(points[-1], QPointF(14, -18))
        self._legal = legal
        self.label.colour = (style.PATH_OK if legal else style.PATH_BAD).darker(130)
        self.label.set_text(label)
        self.show()
        self.update()

    def boundingRect(self) -> QRectF:
        pad = self.renderer.length(2)
        return self._path.boundingRect().adjusted(-pad, -pad, pad, pad)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = style.PATH_OK if self._legal else style.PATH_BAD
        pen = QPen(colour, self.renderer.length(0.1))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
