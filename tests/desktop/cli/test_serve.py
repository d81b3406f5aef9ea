"""``battlemap serve FILE``: the player view served with no window, a player's move made
through core, saved on Ctrl+C; bad arguments get one line and exit 2."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from core.io.fileio import load_encounter, save_encounter
from core.model.grid import Cell
from desktop.cli.main import main
from tests.desktop.share.pages import Page, secret_encounter

REPO = Path(__file__).resolve().parents[3]


#: ``python -m desktop`` started with SIGINT ignored, as a shell's background job is.
IGNORING_CTRL_C = ("import runpy, signal; signal.signal(signal.SIGINT, signal.SIG_IGN); "
                   "runpy.run_module('desktop', run_name='__main__')")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_serve_shares_the_file_and_saves_the_players_moves(tmp_path: Path,
                                                           stop: signal.Signals) -> None:
    source, saved = tmp_path / "fight.json", tmp_path / "after.json"
    save_encounter(secret_encounter(), source)
    server = subprocess.Popen(
        [sys.executable, "-c", IGNORING_CTRL_C, "serve", str(source), "--port", "0", "--out",
         str(saved)], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("Sharing fight.json at http://127.0.0.1:")
        url = line.split(" at ", 1)[1].strip()

        async def play() -> str:
            async with Page(url) as page:
                await page.join()
                await page.claim("A")
                await page.send(type="move", token="A", to=[1, 0], seq=1)
                return str((await page.expect("move", seq=1))["status"])

        assert asyncio.run(play()) == "applied"
    finally:
        server.send_signal(stop)
        try:
            out, _ = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()  # no server left behind for the next test
            server.wait()
            raise
    assert server.returncode == 0 and f"Saved to {saved}" in out
    assert load_encounter(saved).token("A").cell == Cell(1, 0)


def test_serve_refuses_a_missing_file_and_a_bad_port(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", str(tmp_path / "nothing.json")]) == 2
    assert "nothing.json" in capsys.readouterr().err
    save_encounter(secret_encounter(), tmp_path / "a.json")
    assert main(["serve", str(tmp_path / "a.json"), "--port", "70000"]) == 2
    assert "--port 70000 is not a port" in capsys.readouterr().err
