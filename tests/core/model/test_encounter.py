"""The encounter's token index: per-side occupancy grids kept up to date as tokens move,
read from a second thread while the first moves tokens (the odds worker and the GUI), and
a deep copy of the encounter with an index of its own."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.io.fileio import load_encounter
from core.model.combatant import Side
from core.model.encounter import Encounter
from core.model.grid import Cell

DEMO = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"


def painted(encounter: Encounter, side: Side) -> npt.NDArray[np.int16]:
    """The occupancy worked out from scratch: every footprint of ``side`` painted."""
    grid = np.zeros((encounter.map.height, encounter.map.width), dtype=np.int16)
    for token in encounter.tokens:
        if token.combatant.side is side:
            x, y, size = token.footprint
            grid[y:y + size, x:x + size] += 1
    return grid


def test_occupancy_follows_tokens_put_and_removed() -> None:
    encounter = load_encounter(DEMO)
    encounter.occupancy(Side.PARTY)  # the grids exist before the changes
    encounter.put_token(encounter.token("ogre").at(Cell(1, 1)))
    encounter.remove_token("pip")
    for side in Side:
        assert np.array_equal(encounter.occupancy(side), painted(encounter, side))


def test_grids_painted_on_another_thread_while_tokens_move_end_up_right() -> None:
    """Whatever the interleaving, no grid is kept that misses a move or counts it twice:
    each round a fresh index paints its grids on a second thread while tokens move."""
    encounter = load_encounter(DEMO)
    for _ in range(40):
        scratch = encounter.scratch_copy()  # an index of its own, no grids yet
        reader = threading.Thread(target=scratch.occupancy, args=(Side.OPPOSITION,))
        orc = scratch.token("orc")
        reader.start()
        for step in range(20):
            scratch.put_token(orc.at(Cell(1 + step % 5, 12)))
        reader.join()
        assert np.array_equal(scratch.occupancy(Side.OPPOSITION),
                              painted(scratch, Side.OPPOSITION))


def test_a_deep_copy_has_an_index_of_its_own() -> None:
    encounter = load_encounter(DEMO)
    encounter.occupancy(Side.OPPOSITION)
    copy = encounter.model_copy(deep=True)
    copy.put_token(copy.token("ogre").at(Cell(1, 1)))
    assert encounter.token("ogre").cell == Cell(7, 8) and encounter.token_at(Cell(1, 1)) is None
    assert copy.token_at(Cell(1, 1)) is copy.token("ogre")
    assert copy.token_stamp() != encounter.token_stamp()
    for side in Side:
        assert np.array_equal(encounter.occupancy(side), painted(encounter, side))
        assert np.array_equal(copy.occupancy(side), painted(copy, side))


def test_a_scratch_copy_takes_a_copy_of_the_index_and_changes_it_alone() -> None:
    """A ruling's scratch copy starts from the encounter's index (not built again: 22 ms
    with 3,000 tokens) and its moves stay its own."""
    encounter = load_encounter(DEMO)
    encounter.occupancy(Side.OPPOSITION)
    scratch = encounter.scratch_copy()
    scratch.remove_token("pip")
    scratch.put_token(scratch.token("ogre").at(Cell(1, 1)))
    assert encounter.has_token("pip") and encounter.token_at(Cell(1, 1)) is None
    assert scratch.token_at(Cell(1, 1)) is scratch.token("ogre") and not scratch.has_token("pip")
    assert scratch.token_stamp() != encounter.token_stamp()
    assert [scratch.order_of(t.id) for t in scratch.tokens] == list(range(len(scratch.tokens)))
    for side in Side:
        assert np.array_equal(encounter.occupancy(side), painted(encounter, side))
        assert np.array_equal(scratch.occupancy(side), painted(scratch, side))
