"""Replay the fight: a scrubber over the history. The map shows the encounter as it was at
the chosen step (a copy: :class:`core.actions.replay.Replay`; the open encounter and its
undo stack are not touched, nothing here can be edited), with that step's log lines
highlighted. *Export frames…* writes every step as a numbered PNG and the whole fight as an
animated GIF (with Pillow: Qt writes no animations)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from core.actions.replay import Frame, Replay
from core.io.fileio import write_atomic
from desktop.document.document import EncounterDocument
from desktop.document.portraits import png_bytes
from desktop.map.picture import render_scene
from desktop.map.scene import MapScene
from desktop.map.view import MapView
from desktop.qt import (
    QBrush,
    QColor,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QImage,
    QLabel,
    QListWidget,
    QPainter,
    QPushButton,
    QSlider,
    QSplitter,
    Qt,
    QVBoxLayout,
    QWidget,
)
from desktop.widgets.screen_fit import resize_within_screen

if TYPE_CHECKING:
    from core.actions.history import History
    from core.model.encounter import LogEntry

HIGHLIGHT = QColor("#ffe08a")
FRAME_WIDTH_PX = 1200
FRAME_MS = 800  # per step in the animated image


class ReplayDialog(QDialog):
    """The scrubber, the map at that step, the log with the step's lines marked."""

    def __init__(self, history: History, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Replay the fight (read-only)")
        self.replay = Replay(history)
        # The replay's copy, shown by a scene of its own: it hears the replay's steps.
        self.document = EncounterDocument(self.replay.encounter)
        self.replay.subscribe(self.document.changed.emit)
        self.scene = MapScene(self.document)
        self.view = MapView(self.scene)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, len(self.replay) - 1)
        self.slider.setToolTip("Drag to any step of the fight (PgUp/PgDn, Home/End)")
        self.step = QLabel()
        self.log = QListWidget()
        # One line each: a row added or taken away does not lay out the thousands above it.
        self.log.setUniformItemSizes(True)
        self._rows: list[LogEntry] = []  # the entries the log's rows show
        self._marked = range(0)  # the rows highlighted
        self.message = QLabel()
        self._build()
        self.slider.valueChanged.connect(self.show_step)
        self.slider.setValue(self.replay.current)
        self.show_step(self.replay.current)
        resize_within_screen(self, 1100, 720)
        self.view.fit_map()  # and kept fitted as the dialog is laid out and resized
        self.slider.setFocus()  # the arrow keys step through the fight

    def _build(self) -> None:
        back, forward = QPushButton("◀"), QPushButton("▶")
        back.setToolTip("One step back")
        forward.setToolTip("One step on")
        back.clicked.connect(lambda: self.slider.setValue(self.slider.value() - 1))
        forward.clicked.connect(lambda: self.slider.setValue(self.slider.value() + 1))
        export = QPushButton("Export frames…")
        export.setToolTip("Every step as a numbered PNG, and the fight as an animated GIF")
        export.clicked.connect(self.export_dialog)
        scrub = QHBoxLayout()
        for widget in (back, self.slider, forward, export):
            scrub.addWidget(widget)
        scrub.setStretch(1, 1)
        split = QSplitter()
        split.addWidget(self.view)
        split.addWidget(self.log)
        split.setSizes([780, 300])
        layout = QVBoxLayout(self)
        layout.addWidget(self.step)
        layout.addWidget(split, 1)
        layout.addLayout(scrub)
        layout.addWidget(self.message)

    def show_step(self, index: int) -> Frame:
        frame = self.replay.seek(index)
        self.step.setText(f"<b>Step {frame.index} of {len(self.replay) - 1}</b>: "
                          f"{frame.label}" + ("  (now)" if index == self.replay.current
                                               else ""))
        self._show_log(frame)
        return frame

    def _show_log(self, frame: Frame) -> None:
        """The rows follow the frame's log: those past what both logs share go, the
        frame's newer entries come (a step is a row or a few, not a refill of thousands)."""
        log = frame.encounter.log
        keep = _shared_start(self._rows, log)
        for row in range(self.log.count() - 1, keep - 1, -1):
            self.log.takeItem(row)
        self.log.addItems([entry.summary for entry in log[keep:]])
        self._rows[keep:] = log[keep:]
        self._mark(frame.log_lines)

    def _mark(self, lines: range) -> None:
        for row in self._marked:
            if row < self.log.count():
                self.log.item(row).setBackground(QBrush())
        self.log.clearSelection()
        self._marked = lines
        for row in lines:
            item = self.log.item(row)
            item.setBackground(QBrush(HIGHLIGHT))
            item.setSelected(True)
        if lines:
            self.log.scrollToItem(self.log.item(lines[-1]))

    def highlighted(self) -> list[str]:
        """The log lines marked for the shown step (what a test reads)."""
        return [self.log.item(i).text() for i in range(self.log.count())
                if self.log.item(i).background().color() == HIGHLIGHT]

    def export_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export the replay's frames to")
        if folder:
            self.export_to(Path(folder))

    def export_to(self, folder: Path) -> list[Path]:
        """replay-000.png … one per step, and replay.gif; the files written."""
        shown = self.slider.value()
        battle_map = self.replay.encounter.map
        height = max(64, round(FRAME_WIDTH_PX * battle_map.height / battle_map.width))
        frames: list[bytes] = []
        written: list[Path] = []
        try:
            for index in range(len(self.replay)):
                frame = self.replay.seek(index)
                data = png_bytes(_captioned(render_scene(self.scene, FRAME_WIDTH_PX, height),
                                            frame))
                if data is None:
                    raise OSError("Qt could not encode a frame as PNG")
                frames.append(data)
                path = folder / f"replay-{index:03d}.png"
                write_atomic(path, data)
                written.append(path)
            gif = folder / "replay.gif"
            write_atomic(gif, animated_gif(frames, FRAME_MS))
            written.append(gif)
        except OSError as error:
            self.message.setText(f"Export stopped: {error.strerror or error}")
            return written
        finally:
            self.show_step(shown)
        self.message.setText(f"Wrote {len(frames)} frames and replay.gif to {folder}")
        return written


def _shared_start(shown: list[LogEntry], log: list[LogEntry]) -> int:
    """How many entries the two logs begin with alike (entries are immutable: by
    identity)."""
    pairs = enumerate(zip(shown, log, strict=False))
    return next((row for row, (a, b) in pairs if a is not b), min(len(shown), len(log)))


def _captioned(image: QImage, frame: Frame) -> QImage:
    """The frame with its step and what happened written in its top margin."""
    lines = [frame.encounter.log[i].summary for i in frame.log_lines] or [frame.label]
    painter = QPainter(image)
    painter.setPen(QColor("#f4f1ea"))
    font = painter.font()
    font.setPixelSize(14)
    painter.setFont(font)
    painter.drawText(8, 15, f"{frame.index}. {' / '.join(lines)}"[:160])
    painter.end()
    return image


def animated_gif(frames: list[bytes], frame_ms: int) -> bytes:
    """The PNG frames as one looping animated GIF (Pillow; the last frame held longer)."""
    from PIL import Image

    images = [Image.open(io.BytesIO(data)).convert("RGB") for data in frames]
    out = io.BytesIO()
    durations = [frame_ms] * (len(images) - 1) + [frame_ms * 3]
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:],
                   duration=durations, loop=0, optimize=True)
    return out.getvalue()
