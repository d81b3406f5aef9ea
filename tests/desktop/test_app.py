"""How the app starts on a file from the command line or the file manager, and its icon."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import desktop.app
from desktop.app import open_window
from desktop.qt import QApplication, QSettings, QSize
from desktop.system.application import app_icon
from desktop.system.resources import ICON_SIZES, bundled

REPO = Path(__file__).resolve().parents[2]
DEMO = bundled("demo_encounter.json")
SAMPLE = (Path(__file__).resolve().parents[1] / "fixtures" / "uvtt"
          / "dd02_cropped_window_sampleMap.dd2vtt")


@pytest.fixture(autouse=True)
def own_storage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window keeps its settings and recovery file in tmp_path, not the user's."""
    ini = str(tmp_path / "settings.ini")
    monkeypatch.setattr(desktop.app, "QSettings",
                        lambda: QSettings(ini, QSettings.Format.IniFormat))
    monkeypatch.setattr(desktop.app, "data_dir", lambda: tmp_path / "data")


def python_prints(code: str, home: Path, **env: str) -> list[str]:
    """The words ``code`` prints, run in a fresh interpreter on the offscreen platform."""
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True, timeout=60,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen",
                               "HOME": str(home), **env})
    return done.stdout.split()


def prints_with(code: str, variable: str, given: str | None) -> list[str]:
    """The words ``code`` prints in a fresh interpreter where the environment variable
    ``variable`` is ``given`` (None: not set)."""
    env = {key: value for key, value in os.environ.items() if key != variable}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True, timeout=60,
                          env=env if given is None else {**env, variable: given})
    return done.stdout.split()


def test_the_icon_has_every_rendered_size(qapp: QApplication) -> None:
    icon = app_icon()
    assert not icon.isNull()
    assert sorted(size.width() for size in icon.availableSizes()) == list(ICON_SIZES)
    assert icon.pixmap(QSize(48, 48)).size() == QSize(48, 48)


def test_the_demo_opens_untitled(qtbot: QtBot) -> None:
    window = open_window(DEMO, DEMO)
    qtbot.addWidget(window)
    assert window.document.path is None
    assert window.document.encounter.name == "The Ogre's Larder (demo)"


def test_a_universal_vtt_map_on_the_command_line_is_imported(qtbot: QtBot,
                                                             answer_dialogs: list[str]) -> None:
    window = open_window(SAMPLE, DEMO)
    qtbot.addWidget(window)
    encounter = window.document.encounter
    assert (encounter.map.width, encounter.map.height) == (10, 10)
    assert len(encounter.map.walls) > 0 and encounter.map.background is not None
    assert window.document.path is None
    assert answer_dialogs == []


@pytest.mark.parametrize("content", ['{"schema": "battlemap.encounter", "version": 1, "tokens": [',
                                     "[" * 100_000, None])
def test_a_bad_file_on_the_command_line_says_why_and_opens_the_demo(
        qtbot: QtBot, tmp_path: Path, answer_dialogs: list[str], content: str | None) -> None:
    """Cut short, nested 100,000 deep, or a FIFO (a blocking open would hang start-up)."""
    bad = tmp_path / "bad.json"
    if content is None:
        os.mkfifo(bad)
    else:
        bad.write_text(content, "utf-8")
    window = open_window(bad, DEMO)
    qtbot.addWidget(window)
    assert len(answer_dialogs) == 1 and answer_dialogs[0].startswith("Cannot open encounter")
    assert answer_dialogs[0].endswith("Opened the demo.")
    assert window.document.encounter.name == "The Ogre's Larder (demo)"
    assert window.document.path is None


def test_each_session_rolls_with_a_new_seed(qtbot: QtBot) -> None:
    """'Roll for me' must not give the same initiative every evening (the reviewer's three
    sessions all rolled opposition 2, Brannoc 3, Mira 10 from seed 1)."""
    seeds = set()
    for _ in range(3):
        window = open_window(DEMO, DEMO)
        qtbot.addWidget(window)
        seeds.add(window.resolve_panel.seed.value())
    assert len(seeds) == 3


# What the first window is built and painted without (each was part of its start): tcod
# (the app no longer uses it: paths and floods are core.spatial._search); numpy.ma, 8 ms,
# imported by the first call of ``np.unique`` (indexing the demo's walls); subprocess, 3 ms,
# for the autosave's check process (desktop.document.load_check); tomllib, 3 ms, for the version of
# a bare checkout; sharing's table and protocol (their pydantic models), aiohttp and segno, until
# the GM shares; the bestiary and Universal VTT maps (their models and readers, 3.5 ms), until
# the GM opens the library, imports or exports a map; the searches and the party's sight
# (paths, retreats, the sight sweep's vision: 9 ms), until the first drag, retreat preview
# or edit that may change what the party sees, or the warm-up; importlib.metadata (8 ms with
# the email package), which only pydantic's plugin search imported (the test starts as
# ``battlemap`` does, with desktop.system.pydantic_plugins), until the version is asked for;
# socket, 1.5 ms, for the share's address, until the GM shares.
NOT_AT_START = ("tcod", "numpy.ma", "subprocess", "tomllib", "importlib.metadata", "email",
                "socket", "desktop.share.address", "desktop.share.table",
                "desktop.share.protocol", "aiohttp", "segno", "core.model.bestiary",
                "core.io.bestiary", "core.io.uvtt", "core.io.uvtt_export",
                "core.spatial.pathing", "core.spatial.retreat", "core.spatial.footprints",
                "core.spatial.playerview", "core.spatial.vision")
DEFERRED_SPATIAL = [name for name in NOT_AT_START if name.startswith("core.spatial.")]
# The only modules of core.rules and core.actions the first window imports: what its docks
# show (the timeline, ratings, holds, morale triggers) and the commands its tools push. The
# resolvers, their odds and their actions (37 ms) wait for the warm-up (desktop/__init__).
FIRST_WINDOW_RULES = frozenset(
    {f"core.rules.{name}" for name in ("conditions", "damage", "holds", "measure",
                                       "melee", "morale", "ratings", "sleep", "timeline",
                                       "turns", "value", "weapons")}
    | {f"core.actions.{name}" for name in ("base", "bounds", "commands", "fog", "gm_edits",
                                           "history", "portraits", "round", "waking")})
RULES_MODULES = ("import pkgutil, core.rules, core.actions\n"
                 "rules = [m.name for p in (core.rules, core.actions)\n"
                 "         for m in pkgutil.iter_modules(p.__path__, p.__name__ + '.')]\n")


def test_the_first_window_imports_only_what_it_needs_and_the_rest_after(
        tmp_path: Path) -> None:
    code = ("import os, sys\n"
            "from pathlib import Path\n"
            "from desktop.system.pydantic_plugins import turn_off_plugins\n"
            "turn_off_plugins(os.environ)\n"
            "from desktop.app import open_window, warm_up\n"
            "from desktop.system.application import application\n"
            + RULES_MODULES +
            "app = application()\n"
            f"window = open_window(Path({str(DEMO)!r}), Path({str(DEMO)!r}))\n"
            "window.show()\n"
            "while not window.options_bar.minimumHeight():  # sized after the first frame\n"
            "    app.processEvents()\n"
            "print(len(rules) > 40 and 'core.rules.attack' in rules)\n"
            f"print('imported:' + ','.join(n for n in {NOT_AT_START!r} if n in sys.modules))\n"
            f"print('rules:' + ','.join(n for n in rules if n in sys.modules\n"
            f"                          and n not in {sorted(FIRST_WINDOW_RULES)!r}))\n"
            "warm_up().join()\n"
            "print('tcod' not in sys.modules, all(n in sys.modules for n in rules\n"
            f"                                     + {DEFERRED_SPATIAL!r}))\n"
            "window.document.history.mark_clean()\n")
    assert python_prints(code, tmp_path)[-5:] == ["True", "imported:", "rules:", "True", "True"]


def test_the_app_starts_without_the_cyclic_collector_then_freezes_and_turns_it_on(
        tmp_path: Path) -> None:
    """``battlemap`` builds its first window with the collector off, and runs the quiet
    collector (desktop.document.collector) on it: its first full collection freezes the open
    encounter and turns the collector on."""
    code = ("import gc, sys\n"
            "import desktop.app as app_module\n"
            "from desktop.cli.main import main\n"
            "from desktop.qt import QTimer\n"
            "make = app_module.application\n"
            "def application():\n"
            "    app = make()\n"
            "    print(gc.isenabled())\n"
            "    QTimer.singleShot(1500, lambda: (\n"
            "        print(gc.get_freeze_count() > 0, gc.isenabled()), app.quit()))\n"
            "    return app\n"
            "app_module.application = application\n"
            "sys.exit(main([]))\n")
    assert python_prints(code, tmp_path, XDG_DATA_HOME=str(tmp_path / "data"),
                         XDG_CONFIG_HOME=str(tmp_path / "config"))[-3:] == [
        "False", "True", "True"]


def test_what_sharing_made_is_frozen_once_the_gm_pauses(qtbot: QtBot) -> None:
    """Starting a share imports its server and keeps its pages' state outside the history;
    a second after it started, with no edit, that is collected and frozen, as an edit's
    leftovers are (a full collection walked it in the middle of a zoom)."""
    window = open_window(DEMO, DEMO)
    qtbot.addWidget(window)
    collector = desktop.app.keep_collections_quiet(window)
    with qtbot.waitSignal(collector.collected, timeout=3000):
        pass  # the open encounter frozen
    assert window.share.start("127.0.0.1", 0) is None
    try:
        server = window.share.server
        assert any(o is server for o in gc.get_objects())
        with qtbot.waitSignal(collector.collected, timeout=3000):
            pass
        assert not any(o is server for o in gc.get_objects())
    finally:
        window.share.stop()
        gc.unfreeze()  # other tests meet an ordinary heap


def test_the_gui_thread_gets_the_interpreter_back_within_a_millisecond(tmp_path: Path
                                                                      ) -> None:
    """Other threads (the autosave's check, the shove odds) run in slices of the GIL: the
    app's are 1 ms, not 5, so a frame does not wait 5 ms at each Qt call that let it go."""
    code = ("import sys\n"
            "from desktop.system.application import application\n"
            "application()\n"
            "print(sys.getswitchinterval())\n")
    assert float(python_prints(code, tmp_path)[-1]) <= 0.001


@pytest.mark.skipif(not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2,
                    reason="counts the process's threads in /proc; one core starts none")
@pytest.mark.parametrize(("given", "kept"), [(None, "1"), ("2", "2")])
def test_numpy_starts_no_blas_threads_unless_asked_to(tmp_path: Path, given: str | None,
                                                       kept: str) -> None:
    """``battlemap`` sets OpenBLAS to one thread before anything imports numpy (its spinning
    threads cost the start 120-150 ms of CPU); a value the user set is kept."""
    code = ("import os, sys\n"
            "from desktop.cli.main import main\n"
            "print('numpy' in sys.modules)\n"
            f"main(['check', {str(DEMO)!r}])\n"
            "print('numpy' in sys.modules, os.environ['OPENBLAS_NUM_THREADS'],\n"
            "      len(os.listdir('/proc/self/task')))\n")
    # The check's report comes between the first line and the last.
    words = prints_with(code, "OPENBLAS_NUM_THREADS", given)
    assert [words[0], *words[-3:]] == ["False", "True", kept, kept]


@pytest.mark.parametrize(("given", "scanned"), [(None, False), ("", True)])
def test_pydantic_looks_for_no_plugins_unless_asked_to(given: str | None,
                                                        scanned: bool) -> None:
    """``battlemap`` turns pydantic's plugins off before its first model (their search reads
    every installed distribution's entry points), and its loader, which would import
    ``importlib.metadata`` for that search, is not imported (desktop.system.pydantic_plugins);
    a value the user set is kept (empty: every plugin), and pydantic's own loader searches,
    keeping what it found in ``_plugins`` (None until it has looked)."""
    code = ("import os, sys\n"
            "from desktop.cli.main import main\n"
            f"main(['morale', {str(DEMO)!r}])\n"
            "from pydantic.plugin import _loader\n"
            "print(repr(os.environ['PYDANTIC_DISABLE_PLUGINS']),\n"
            "      getattr(_loader, '_plugins', None) is not None,\n"
            "      'importlib.metadata' in sys.modules)\n")
    assert prints_with(code, "PYDANTIC_DISABLE_PLUGINS", given)[-3:] == [
        repr("__all__" if given is None else given), str(scanned), str(scanned)]


def test_a_shortcut_pressed_at_once_and_what_the_first_frame_left_out_work(
        tmp_path: Path) -> None:
    """The first window is built without the bestiary and the Attack tool's cover (see
    NOT_AT_START, FIRST_WINDOW_RULES): a GM who presses K as soon as the window is active
    (before the warm-up thread is done), aims at once, and opens the library gets them, in
    a fresh interpreter where nothing imported them before."""
    code = ("import sys\n"
            "from pathlib import Path\n"
            "from PySide6.QtTest import QTest\n"
            "from desktop.app import open_window\n"
            "from desktop.qt import Qt\n"
            "from desktop.system.application import application\n"
            "app = application()\n"
            f"window = open_window(Path({str(DEMO)!r}), Path({str(DEMO)!r}))\n"
            "window.show_on_screen()\n"
            "print('core.rules.cover' in sys.modules, 'core.model.bestiary' in sys.modules)\n"
            "window.activateWindow()\n"
            "print(QTest.qWaitForWindowActive(window))\n"
            "QTest.keyClick(window.view, Qt.Key.Key_K)\n"
            "print(window.view.tool.name)\n"
            "encounter = window.document.encounter\n"
            "def click(name):\n"
            "    cell = next(t.cell for t in encounter.tokens if t.name == name)\n"
            "    centre = window.scene.renderer.cell_rect(cell).center()\n"
            "    QTest.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton,\n"
            "                     Qt.KeyboardModifier.NoModifier,\n"
            "                     window.view.mapFromScene(centre))\n"
            "click('Pip')\n"
            "click('Kobold')\n"
            "print(window.resolve_panel.card.text().startswith('Cover from here:'))\n"
            "window.token_panel.add_button.click()\n"
            "library = window.evening.library\n"
            "print(library is not None and library.isVisible(),\n"
            "     len(window.evening.store.bundled.templates))\n"
            "window.document.history.mark_clean()\n")
    assert python_prints(code, tmp_path) == ["False", "False", "True", "attack", "True", "True",
                                             "16"]
