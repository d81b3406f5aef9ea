"""Map > Rules settings: every field of the encounter's rules profile, grouped by rule, each
with its default and the seed sentence (or rules decision) it comes from. The profile model
validates what the GM enters; OK applies it as one undoable step."""

from __future__ import annotations

import html
import json
import re
from enum import Enum
from typing import Any

from pydantic import BaseModel, ValidationError

from core.io.fileio import in_plain_words
from core.model.limits import number_range
from core.model.profile import RulesProfile
from core.model.profile_docs import FIELD_DOCS
from desktop.dialogs.edits import ok_cancel
from desktop.dialogs.weapons import INVALID_STYLE
from desktop.qt import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMouseEvent,
    QPushButton,
    QScrollArea,
    QSpinBox,
    Qt,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from desktop.widgets.focus import FocusComboBox, FocusSpinBox
from desktop.widgets.screen_fit import resize_within_screen

SHOWN_PROBLEMS = 3
FIELD_NAME = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")  # a model name: snake_case
Problem = tuple[str | None, str]  # the field (None: the profile as a whole), what is wrong


class TableError(ValueError):
    """A table field whose text is not JSON."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(problem)
        self.name = name


class RulesDialog(QDialog):
    """Edits a copy of a :class:`RulesProfile`; :attr:`result_profile` is set on OK."""

    def __init__(self, profile: RulesProfile, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rules settings")
        resize_within_screen(self, 760, 640)
        self.result_profile: RulesProfile | None = None
        self.editors: dict[str, QWidget] = {}
        self.tabs = QTabWidget()
        forms: dict[str, QFormLayout] = {}
        for name in RulesProfile.model_fields:
            doc = FIELD_DOCS[name]
            form = forms.get(doc.section) or self._tab(doc.section, forms)
            editor = _editor(getattr(profile, name), name)
            self.editors[name] = editor
            form.addRow(_FieldLabel(name, editor), editor)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c0392b")
        self.error.setWordWrap(True)
        reset = QPushButton("Reset to defaults")
        reset.setToolTip("Put every field back to the product's default reading")
        reset.clicked.connect(lambda: self.show_profile(RulesProfile()))
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.error)
        layout.addWidget(reset)
        buttons = ok_cancel(self)
        buttons.accepted.disconnect()
        buttons.accepted.connect(self.accept_if_valid)
        layout.addWidget(buttons)

    def _tab(self, section: str, forms: dict[str, QFormLayout]) -> QFormLayout:
        page = QWidget()
        forms[section] = QFormLayout(page)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(page)
        self.tabs.addTab(scroll, section)
        return forms[section]

    def show_profile(self, profile: RulesProfile) -> None:
        for name, editor in self.editors.items():
            _set(editor, getattr(profile, name))

    def values(self) -> dict[str, Any]:
        """What the editors hold, as profile data (tables as parsed JSON; TableError)."""
        return {name: _get(editor) for name, editor in self.editors.items()}

    def accept_if_valid(self) -> None:
        for editor in self.editors.values():
            editor.setStyleSheet("")
        try:
            self.result_profile = RulesProfile.model_validate(self.values())
        except ValidationError as error:
            self._refuse([_problem(item["loc"], in_plain_words(item))
                          for item in error.errors()])
        except TableError as error:
            self._refuse([(error.name, str(error))])
        else:
            self.accept()

    def _refuse(self, problems: list[Problem]) -> None:
        """Say what is wrong by the labels the GM reads and the tabs they are on, mark the
        fields, and open the tab of the first one (it may not be the tab in view)."""
        lines = [_described(name, message) for name, message in problems[:SHOWN_PROBLEMS]]
        if len(problems) > SHOWN_PROBLEMS:
            lines.append(f"... and {len(problems) - SHOWN_PROBLEMS} more problem(s)")
        self.error.setText("; ".join(lines))
        named = [name for name, _message in problems if name is not None]
        for name in named:
            self.editors[name].setStyleSheet(INVALID_STYLE)
        if named:
            self.tabs.setCurrentIndex(self._tab_of(named[0]))
            self.editors[named[0]].setFocus()

    def _tab_of(self, name: str) -> int:
        section = FIELD_DOCS[name].section
        return next(i for i in range(self.tabs.count()) if self.tabs.tabText(i) == section)


def _problem(loc: tuple[int | str, ...], message: str) -> Problem:
    """Which field a pydantic error is about: where it is, or for a check across fields
    ("die_chain_cap '3d7' is not in die_chain") the first field it names."""
    if loc and isinstance(loc[0], str) and loc[0] in FIELD_DOCS:
        return loc[0], message
    named = [word for word in FIELD_NAME.findall(message) if word in FIELD_DOCS]
    return (named[0], message.removeprefix(f"{named[0]} ")) if named else (None, message)


def _described(name: str | None, message: str) -> str:
    """``message`` in the GM's words: the field by its label and tab, other fields it names
    by their labels."""
    words = FIELD_NAME.sub(lambda m: _label_of(m.group()), message)
    if name is None:
        return words
    doc = FIELD_DOCS[name]
    return f"{doc.label} ({doc.section} tab): {words}"


def _label_of(word: str) -> str:
    return f"'{FIELD_DOCS[word].label}'" if word in FIELD_DOCS else word


class _FieldLabel(QLabel):
    """A field's label with its default; clicking it ticks or unticks a checkbox field."""

    def __init__(self, name: str, editor: QWidget) -> None:
        super().__init__(_label_html(name))
        # Rich text said outright: Qt's guess reads a label with "<" in it ("roll < level
        # saves") as plain text and shows the markup.
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setToolTip(f"{FIELD_DOCS[name].source}\n(field {name})")
        self.setBuddy(editor)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        editor = self.buddy()
        if isinstance(editor, QCheckBox) and event.button() == Qt.MouseButton.LeftButton:
            editor.toggle()
        super().mouseReleaseEvent(event)


def _label_html(name: str) -> str:
    """The label and its default, escaped: a "<" in either is text, not markup."""
    default = _shown(RulesProfile.model_fields[name].get_default(call_default_factory=True))
    return (f"{html.escape(FIELD_DOCS[name].label)}<br><small style='color: gray'>default "
            f"{html.escape(default)}</small>")


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return f"{len(value)} rows" if value and isinstance(value[0], BaseModel) else \
            ", ".join(map(str, value))
    return str(value)


def _editor(value: Any, name: str) -> QWidget:
    editor: QWidget
    if isinstance(value, bool):
        editor = QCheckBox()
    elif isinstance(value, Enum):
        editor = FocusComboBox()
        editor.addItems([member.value for member in type(value)])
    elif isinstance(value, int):
        editor = FocusSpinBox()
        editor.setRange(*number_range(RulesProfile, name))
    else:
        editor = QLineEdit()
    editor.setToolTip(FIELD_DOCS[name].source)
    editor.setObjectName(name)
    _set(editor, value)
    return editor


def _set(editor: QWidget, value: Any) -> None:
    if isinstance(editor, QCheckBox):
        editor.setChecked(bool(value))
    elif isinstance(editor, QComboBox):
        editor.setCurrentText(value.value)
    elif isinstance(editor, QSpinBox):
        editor.setValue(int(value))
    elif isinstance(editor, QLineEdit):
        editor.setText(_as_text(value))


def _as_text(value: Any) -> str:
    if isinstance(value, tuple):
        return json.dumps([v.model_dump() if isinstance(v, BaseModel) else v for v in value])
    return str(value)


def _get(editor: QWidget) -> Any:
    if isinstance(editor, QCheckBox):
        return editor.isChecked()
    if isinstance(editor, QComboBox):
        return editor.currentText()
    if isinstance(editor, QSpinBox):
        return editor.value()
    assert isinstance(editor, QLineEdit)
    text = editor.text().strip()
    if text.startswith("["):
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise TableError(editor.objectName(), f"not a valid table ({error.msg})") from None
    return text
