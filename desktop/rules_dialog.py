"""Map > Rules settings: every field of the encounter's rules profile, grouped by rule, each
with its default and the seed sentence (or rules decision) it comes from. The profile model
validates what the GM enters; OK applies it as one undoable step."""

from __future__ import annotations

import html
import json
from enum import Enum
from typing import Any

from pydantic import BaseModel, ValidationError

from core.io.fileio import describe_validation_error
from core.model.profile import RulesProfile
from core.model.profile_docs import FIELD_DOCS
from desktop.dialogs import ok_cancel
from desktop.qt import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    Qt,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

SPIN_LIMIT = 1_000_000


class RulesDialog(QDialog):
    """Edits a copy of a :class:`RulesProfile`; :attr:`result_profile` is set on OK."""

    def __init__(self, profile: RulesProfile, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rules settings")
        self.resize(760, 640)
        self.result_profile: RulesProfile | None = None
        self.editors: dict[str, QWidget] = {}
        self.tabs = QTabWidget()
        forms: dict[str, QFormLayout] = {}
        for name in RulesProfile.model_fields:
            doc = FIELD_DOCS[name]
            form = forms.get(doc.section) or self._tab(doc.section, forms)
            editor = _editor(getattr(profile, name), name)
            self.editors[name] = editor
            form.addRow(_label(name), editor)
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
        """What the editors hold, as profile data (tables as parsed JSON)."""
        return {name: _get(editor) for name, editor in self.editors.items()}

    def accept_if_valid(self) -> None:
        try:
            self.result_profile = RulesProfile.model_validate(self.values())
        except ValidationError as error:
            self.error.setText(describe_validation_error(error))
            return
        except ValueError as error:  # a table that is not JSON
            self.error.setText(str(error))
            return
        self.accept()


def _label(name: str) -> QLabel:
    doc = FIELD_DOCS[name]
    default = _shown(RulesProfile.model_fields[name].get_default(call_default_factory=True))
    # Rich text said outright: Qt's guess reads a label with "<" in it ("roll < level
    # saves") as plain text and shows the markup; the texts are escaped for the same "<".
    label = QLabel(f"{html.escape(doc.label)}<br><small style='color: gray'>default "
                   f"{html.escape(default)}</small>")
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setToolTip(f"{doc.source}\n(field {name})")
    return label


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
        editor = QComboBox()
        editor.addItems([member.value for member in type(value)])
    elif isinstance(value, int):
        editor = QSpinBox()
        editor.setRange(-SPIN_LIMIT, SPIN_LIMIT)
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
            raise ValueError(f"{editor.objectName()}: not a valid table ({error.msg})") from None
    return text
