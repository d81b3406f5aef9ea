"""Table mode: the window on a screen laid on the table, played by touch.

The UI scale (100–250 %) enlarges every panel's text (the application font), the tool bars'
icons, the labels on the map (desktop.map.labels) and the marks the tools draw; every button,
field, tick box, menu entry and scroll bar is at least ``TOUCH_TARGET_MM`` tall on the
screen the window is on, whatever the scale (:func:`touch_target_px`, from the screen's
physical dots per inch). The settings are remembered (QSettings ``table/...``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from desktop.map import style
from desktop.qt import (
    QApplication,
    QDockWidget,
    QFont,
    QHeaderView,
    QObject,
    QSettings,
    QSize,
    QToolBar,
    QWidget,
    Signal,
)
from desktop.widgets.icons import TOOL_ICON_PX

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from desktop.map.scene import MapScene

SCALES = (100, 125, 150, 175, 200, 250)  # per cent
DEFAULT_SCALE = 200
TOUCH_TARGET_MM = 9.0
MM_PER_INCH = 25.4
NORMAL_TARGET_PX = 24  # a tool button at 100 % (the smallest a mouse user gets)


def touch_target_px(physical_dpi: float, scale: float) -> int:
    """The least height (and a tool button's width) of anything touched, in pixels: 9 mm
    on a screen of ``physical_dpi``, or the normal size scaled up, whichever is larger."""
    return math.ceil(max(TOUCH_TARGET_MM * physical_dpi / MM_PER_INCH,
                         NORMAL_TARGET_PX * scale))


def touch_style(target_px: int, font_pt: float, dpi: float) -> str:
    """An application style sheet giving every control at least ``target_px`` and text of
    ``font_pt`` points (a style sheet's controls would keep their old font otherwise); list
    rows are padded up to ``target_px`` (a minimum height would misalign their columns)."""
    tick = round(target_px * 0.6)
    row_pad = max(2, math.ceil((target_px - font_pt * dpi / 72) / 2))
    return f"""
        QWidget {{ font-size: {font_pt:.1f}pt; }}
        QToolButton {{ min-width: {target_px}px; min-height: {target_px}px; }}
        QPushButton, QComboBox, QSpinBox, QDoubleSpinBox, QLineEdit, QCheckBox,
        QRadioButton, QTabBar::tab {{ min-height: {target_px}px; }}
        QCheckBox::indicator, QRadioButton::indicator {{ width: {tick}px; height: {tick}px; }}
        QScrollBar:vertical {{ width: {target_px}px; }}
        QScrollBar:horizontal {{ height: {target_px}px; }}
        QMenu::item {{ min-height: {target_px}px; padding: 2px {target_px // 2}px; }}
        QTreeView::item, QListView::item, QTableView::item {{ padding: {row_pad}px 2px; }}
    """


class TableMode(QObject):
    """Table mode on or off and its UI scale, applied to the application and ``window``
    (its map scenes come from ``scenes``)."""

    changed = Signal()

    def __init__(self, window: QWidget, settings: QSettings,
                 scenes: Callable[[], Iterable[MapScene]]) -> None:
        super().__init__(window)
        self.window, self.settings, self.scenes = window, settings, scenes
        self.enabled = as_bool(settings.value("table/enabled", False))
        self.percent = _scale_setting(settings.value("table/scale_percent", DEFAULT_SCALE))
        self._base_font = QFont(QApplication.font())
        self._applied = 1.0  # the scale the window's pixel sizes are set for
        self.ceiling = SCALES[-1]  # the most this screen holds (:meth:`fit_screen`)

    @property
    def scale(self) -> float:
        """The UI scale in force (1.0 when table mode is off)."""
        return min(self.percent, self.ceiling) / 100 if self.enabled else 1.0

    def fit_screen(self, fits: Callable[[], bool]) -> None:
        """Step the scale in force down the menu's scales until the window ``fits`` its
        screen (200 % on a 1280 x 800 laptop put the round's buttons below it); the GM's
        chosen scale is kept for a larger screen."""
        self.ceiling = SCALES[-1]
        self.apply()
        smaller = [p for p in SCALES if p < min(self.percent, self.ceiling)]
        while self.enabled and smaller and not fits():
            self.ceiling = smaller.pop()
            self.apply()

    def target_px(self) -> int:
        """The touch target size on the window's screen at the scale in force."""
        return touch_target_px(self.window.screen().physicalDotsPerInch(), self.scale)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        self.settings.setValue("table/enabled", on)
        self.apply()

    def set_percent(self, percent: int) -> None:
        """Use this scale (table mode comes on: the scale is what it is for)."""
        self.percent = _scale_setting(percent)
        self.settings.setValue("table/scale_percent", self.percent)
        self.set_enabled(True)

    def apply(self) -> None:
        """Put the settings in force everywhere."""
        scale = self.scale
        style.set_ui_scale(scale)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        font = QFont(self._base_font)
        font.setPointSizeF(self._base_font.pointSizeF() * scale)
        app.setFont(font)
        dpi = self.window.screen().physicalDotsPerInch()
        app.setStyleSheet(touch_style(self.target_px(), font.pointSizeF(), dpi)
                          if self.enabled else "")
        for bar in self.window.findChildren(QToolBar):
            bar.setIconSize(QSize(round(TOOL_ICON_PX * scale), round(TOOL_ICON_PX * scale)))
        rescale_pixels(self.window, scale / self._applied)
        self._applied = scale
        for scene in self.scenes():
            scene.restyle_labels()
        self.changed.emit()

    def restore(self) -> None:
        """Give the application back its normal look (the window is closing)."""
        enabled, self.enabled = self.enabled, False
        self.apply()
        self.enabled = enabled


def rescale_pixels(window: QWidget, ratio: float) -> None:
    """Scale the pixel sizes the panels set when they were built (fixed and least widths
    measured from the font, table columns) by ``ratio``, so larger text fits."""
    if ratio == 1.0:
        return
    for widget in window.findChildren(QWidget):
        if isinstance(widget, QDockWidget):
            continue  # as wide as its panel allows: a scaled minimum outlived table mode
        least, most = widget.minimumWidth(), widget.maximumWidth()
        if 0 < least == most:
            widget.setFixedWidth(round(least * ratio))
        elif least > 0:
            widget.setMinimumWidth(round(least * ratio))
    for header in window.findChildren(QHeaderView):
        for section in range(header.count()):
            if header.sectionResizeMode(section) != QHeaderView.ResizeMode.Stretch:
                header.resizeSection(section, round(header.sectionSize(section) * ratio))


def as_bool(value: object) -> bool:
    return value in (True, "true", "1", 1)


def _scale_setting(value: object) -> int:
    """A remembered or chosen scale, kept within 100–250 % (a bad value: the default)."""
    try:
        percent = int(str(value))
    except ValueError:
        return DEFAULT_SCALE
    return max(SCALES[0], min(SCALES[-1], percent))
