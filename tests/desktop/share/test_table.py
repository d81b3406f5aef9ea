"""The table of sharing without the network: players join and come back, claim tokens,
move them through core's MoveAction and the history (undoable), wait for the GM's OK, and
are removed; no page can move a token it does not play."""

from __future__ import annotations

from typing import Any

from core.actions.commands import MoveToken
from core.model.encounter import Encounter
from core.model.fog import FogState
from core.model.grid import Cell
from desktop.share.headless import HistoryHost
from desktop.share.protocol import Claim, Hello, Measure, Move, Preview, RateLimit, Release
from desktop.share.publisher import SharedFiles
from desktop.share.table import MAX_PAGES, ShareSettings, ShareTable
from tests.desktop.share.pages import secret_encounter


class Recorder:
    """An outbox that keeps what the table sent, by connection."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, dict[str, Any]]] = []
        self.closed: list[int] = []
        self.files: SharedFiles | None = None
        self.sessions: frozenset[str] = frozenset()

    def send(self, connections: Any, message: dict[str, Any]) -> None:
        self.sent.extend((c, message) for c in connections)

    def close(self, connection: int, message: dict[str, Any]) -> None:
        self.sent.append((connection, message))
        self.closed.append(connection)

    def share_files(self, files: SharedFiles) -> None:
        self.files = files

    def set_sessions(self, sessions: frozenset[str]) -> None:
        self.sessions = sessions

    def last(self, connection: int, kind: str) -> dict[str, Any]:
        return [m for c, m in self.sent if c == connection and m["type"] == kind][-1]

    def kinds(self, connection: int) -> list[str]:
        return [m["type"] for c, m in self.sent if c == connection]


def make_table(encounter: Encounter | None = None, **settings: Any
               ) -> tuple[ShareTable, HistoryHost, Recorder]:
    from core.actions.history import History

    history = History(encounter or secret_encounter())
    host, outbox = HistoryHost(history), Recorder()
    table = ShareTable(host, outbox, ShareSettings(**settings))
    history.subscribe(lambda _changes: table.refresh())
    table.refresh()
    return table, host, outbox


def seat(table: ShareTable, connection: int, name: str = "Ann") -> None:
    table.connected(connection)
    table.handle(connection, Hello(type="hello", name=name))


def test_a_player_joins_and_gets_the_view_then_comes_back_with_the_session() -> None:
    table, _host, outbox = make_table()
    seat(table, 1)
    welcome = outbox.last(1, "welcome")
    assert outbox.kinds(1)[:3] == ["welcome", "state", "players"]
    assert welcome["player"]["name"] == "Ann" and len(welcome["session"]) == 32
    assert welcome["session"] in outbox.sessions
    table.disconnected(1)
    table.connected(2)
    table.handle(2, Hello(type="hello", session=welcome["session"]))
    assert outbox.last(2, "welcome")["player"] == welcome["player"]
    assert len(table.players) == 1


def test_an_unknown_session_is_told_to_join_again_and_nothing_else() -> None:
    table, _host, outbox = make_table()
    table.connected(1)
    table.handle(1, Hello(type="hello", session="x" * 32))
    assert outbox.kinds(1) == ["ended"]
    table.handle(1, Move(type="move", token="A", to=(1, 1)))
    assert outbox.kinds(1) == ["ended", "error"]
    assert not table.players


def test_two_players_of_the_same_name_are_told_apart() -> None:
    table, _host, _outbox = make_table()
    seat(table, 1, "Ann")
    seat(table, 2, " Ann ")
    assert sorted(p.name for p in table.players.values()) == ["Ann", "Ann (2)"]


def test_an_open_claim_is_granted_and_a_move_goes_through_the_history() -> None:
    table, host, outbox = make_table(claims="open")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    assert outbox.last(1, "claim")["status"] == "granted"
    table.handle(1, Move(type="move", token="A", to=(1, 0), seq=4))
    answer = outbox.last(1, "move")
    assert answer == {"type": "move", "seq": 4, "token": "A", "status": "applied",
                      "text": "5 ft · 1 seg"}
    assert host.encounter.token("A").cell == Cell(1, 0)
    assert host.history.labels()[-1] == "Move Hero"
    delta = outbox.last(1, "delta")
    assert delta["changes"]["tokens"]["put"]["A"]["x"] == 1
    assert delta["walks"]["A"] == [[0, 1], [1, 0]]
    host.history.undo()  # the GM's undo takes the player's move back
    assert host.encounter.token("A").cell == Cell(0, 1)


def test_a_player_cannot_move_or_preview_a_token_they_do_not_play() -> None:
    table, host, outbox = make_table(claims="open")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    table.handle(1, Move(type="move", token="B", to=(1, 3), seq=1))
    refused = outbox.last(1, "move")
    assert refused["status"] == "refused" and "not your token" in refused["text"]
    table.handle(1, Preview(type="preview", token="O", to=(3, 1)))
    assert not outbox.last(1, "preview")["legal"]
    assert host.encounter.token("B").cell == Cell(0, 3)
    assert host.history.index == 0


def test_an_enemy_or_a_hidden_or_an_unseen_token_cannot_be_claimed() -> None:
    table, _host, outbox = make_table(claims="open")
    seat(table, 1)
    for token, words in (("O", "not one of the party"), ("S", "no such token"),
                         ("G", "no such token"), ("nobody", "no such token")):
        table.handle(1, Claim(type="claim", token=token))
        answer = outbox.last(1, "claim")
        assert answer["status"] == "refused" and words in answer["text"]
    assert not table.players["p1"].tokens


def test_a_claim_waits_for_the_gm_and_another_player_cannot_take_a_played_token() -> None:
    table, _host, outbox = make_table()
    seat(table, 1)
    seat(table, 2, "Bo")
    table.handle(1, Claim(type="claim", token="A"))
    assert outbox.last(1, "claim")["status"] == "asked"
    assert table.roster()[0]["asking"] == "A"
    assert table.assign("p1", "A") is None
    assert outbox.last(1, "claim")["status"] == "granted"
    table.handle(2, Claim(type="claim", token="A"))
    assert outbox.last(2, "claim")["text"] == "Ann plays Hero"
    table.handle(1, Release(type="release", token="A"))
    assert not table.players["p1"].tokens


def test_a_move_waits_for_the_gms_ok_then_is_ruled_again_and_applied() -> None:
    table, host, outbox = make_table(claims="open", moves="approve")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    table.handle(1, Move(type="move", token="A", to=(0, 0), seq=2))
    assert outbox.last(1, "move")["status"] == "queued"
    assert host.encounter.token("A").cell == Cell(0, 1)
    [pending] = table.pending_moves
    assert table.approve_move(pending) is None
    assert host.encounter.token("A").cell == Cell(0, 0)
    assert outbox.last(1, "move")["status"] == "applied"
    table.handle(1, Move(type="move", token="A", to=(1, 0), seq=3))
    table.refuse_move(table.pending_moves[0])
    assert outbox.last(1, "move")["text"] == "the GM said no"
    assert host.encounter.token("A").cell == Cell(0, 0)


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    table, host, outbox = make_table(claims="open")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    table.handle(1, Move(type="move", token="A", to=(0, 3), seq=1))  # onto the bard
    assert outbox.last(1, "move")["status"] == "refused"
    table.handle(1, Move(type="move", token="A", to=(2, 1), seq=2))  # onto the orc
    assert "Orc Brute is in the way" in outbox.last(1, "move")["text"]
    assert host.history.index == 0


def test_a_move_into_the_fog_waits_for_the_gm_whatever_is_there() -> None:
    table, host, outbox = make_table(claims="open")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    answers = []
    for seq, goal in enumerate([(5, 1), (6, 1), (7, 3)]):  # walled off; Gloomfang; empty
        table.handle(1, Move(type="move", token="A", to=goal, seq=seq))
        answers.append({k: v for k, v in outbox.last(1, "move").items() if k != "seq"})
    assert answers == [{"type": "move", "token": "A", "status": "queued",
                        "text": "unexplored ground: the GM rules it"}] * 3
    assert [m.goal for m in table.pending_moves] == [Cell(7, 3)]  # the latest waits
    assert table.approve_move(table.pending_moves[0]) is not None  # walled off
    assert outbox.last(1, "move")["status"] == "refused"
    assert host.history.index == 0 and table.pending_moves == []


def test_a_preview_into_the_fog_has_one_answer_whatever_is_there() -> None:
    table, _host, outbox = make_table(claims="open")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    answers = []
    for goal in [(5, 1), (6, 1), (7, 3), (5, 3)]:  # walled off; Gloomfang; empty; ghoul
        table.handle(1, Preview(type="preview", token="A", to=goal))
        answers.append({k: v for k, v in outbox.last(1, "preview").items() if k != "to"})
    assert answers == [answers[0]] * 4
    assert answers[0]["path"] == [] and answers[0]["cost_ft"] == 0
    assert answers[0]["label"] == "unexplored ground"


def test_a_preview_does_not_know_of_a_creature_the_players_cannot_see() -> None:
    table, host, outbox = make_table(claims="open")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    table.handle(1, Preview(type="preview", token="A", to=(1, 2)))  # the hidden spy's cell
    preview = outbox.last(1, "preview")
    assert preview["legal"] and preview["needs_gm"] == ""
    table.handle(1, Move(type="move", token="A", to=(1, 2), seq=1))  # the spy is there
    refused = outbox.last(1, "move")
    assert refused["status"] == "refused"
    assert refused["text"] == "something unseen is in the way"
    assert host.history.index == 0


def test_a_preview_walks_only_explored_ground() -> None:
    hidden = FogState(hidden=((2, 0, 1), (2, 1, 1)))  # the GM hid two cells
    table, _host, outbox = make_table(secret_encounter().model_copy(update={"fog": hidden}),
                                      claims="open")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    table.handle(1, Preview(type="preview", token="A", to=(3, 1)))
    preview = outbox.last(1, "preview")
    assert preview["legal"] and [2, 0] not in preview["path"] and [2, 1] not in preview["path"]
    assert [2, 2] in preview["path"]


def test_the_gm_removes_a_player_whose_pages_close_and_whose_session_ends() -> None:
    table, _host, outbox = make_table(claims="open")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    session = outbox.last(1, "welcome")["session"]
    table.kick("p1")
    assert outbox.closed == [1] and outbox.last(1, "kicked")
    assert session not in outbox.sessions and not table.players
    table.connected(2)
    table.handle(2, Hello(type="hello", session=session))
    assert outbox.kinds(2) == ["ended"]


def test_the_ruler_is_measured_by_the_rules_profile() -> None:
    table, _host, outbox = make_table()
    seat(table, 1)
    table.handle(1, Measure(type="measure", points=((0, 0), (3, 3))))
    assert outbox.last(1, "measure")["label"] == "20 ft · 4 seg"


def test_a_gm_move_reaches_the_pages_as_a_delta_and_a_token_gone_out_of_sight_goes() -> None:
    table, host, outbox = make_table()
    seat(table, 1)
    host.history.push(MoveToken("O", Cell(3, 2)))
    assert outbox.last(1, "delta")["changes"]["tokens"]["put"]["O"]["y"] == 2
    host.history.push(MoveToken("O", Cell(5, 2)))  # beyond the wall
    assert outbox.last(1, "delta")["changes"]["tokens"]["gone"] == ["O"]


def test_a_claim_ends_when_its_token_leaves_the_map() -> None:
    from core.actions.commands import RemoveToken

    table, host, _outbox = make_table(claims="open")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    host.history.push(RemoveToken("A"))
    assert not table.players["p1"].tokens


def test_the_cells_seen_now_arrive_as_the_cells_that_flipped() -> None:
    import numpy as np

    from desktop.share.view import Seen

    table, host, outbox = make_table()
    seat(table, 1)
    first = outbox.last(1, "state")["view"]["visible"]
    mask = np.repeat(np.arange(len(first)) % 2 == 1, first)
    host.history.push(MoveToken("B", Cell(6, 0)))  # beyond the wall: it sees the east
    changes = outbox.last(1, "delta")["changes"]
    assert "visible" not in changes
    flipped = np.repeat(np.arange(len(changes["visible_flip"])) % 2 == 1,
                        changes["visible_flip"])
    now = Seen.of(host.encounter).view.visible.ravel()
    assert ((mask ^ flipped) == now).all() and flipped.any()


def test_the_gms_pushed_view_goes_to_every_seated_page() -> None:
    table, _host, outbox = make_table()
    seat(table, 1)
    table.connected(2)  # not joined yet: nothing
    table.push_view(2.0, 1.5, 6.0, 3.0)
    assert outbox.last(1, "view") == {"type": "view", "x": 2.0, "y": 1.5, "width": 6.0,
                                      "height": 3.0}
    assert "view" not in outbox.kinds(2)


def test_a_page_joining_after_a_push_is_shown_the_pushed_area_until_the_map_is_replaced(
        ) -> None:
    table, _host, outbox = make_table()
    table.push_view(2.0, 1.5, 6.0, 3.0)
    seat(table, 1, "Ann")
    assert outbox.kinds(1).index("view") > outbox.kinds(1).index("state")
    assert outbox.last(1, "view")["width"] == 6.0
    table.replaced()
    seat(table, 2, "Bob")
    assert "view" not in outbox.kinds(2)


def test_a_player_cannot_let_go_of_a_token_someone_else_plays() -> None:
    table, _host, outbox = make_table(claims="open")
    seat(table, 1, "Ann")
    seat(table, 2, "Bob")
    table.handle(1, Claim(type="claim", token="A"))
    table.handle(2, Release(type="release", token="A"))
    assert outbox.last(2, "error")["text"] == "you do not play that token"
    assert table.owner_of("A") is table.players["p1"]
    table.handle(1, Release(type="release", token="A"))
    assert table.owner_of("A") is None


def test_only_whole_names_of_the_unseen_are_redacted_and_not_where_they_stand() -> None:
    from desktop.share.rulings import Redactor
    from desktop.share.view import Seen

    encounter = secret_encounter()
    redact = Redactor(encounter, Seen.of(encounter))
    assert redact("Bard overlaps Zanzibar Spy at (1, 2)") == "Bard overlaps something unseen"
    assert redact("the Zanzibar Spyglass is gone") == "the Zanzibar Spyglass is gone"
    gloomfang = encounter.token("G")  # in the fog, and named as the start of a shown name
    renamed = gloomfang.model_copy(update={"combatant": gloomfang.combatant.model_copy(
        update={"name": "Orc"})})
    encounter = encounter.model_copy(update={"tokens": [
        renamed if t.id == "G" else t for t in encounter.tokens]})
    redact = Redactor(encounter, Seen.of(encounter))
    assert redact("Orc Brute at (2, 1); Orc at (6, 1)") == "Orc Brute at (2, 1); something unseen"


def test_a_later_move_of_a_token_replaces_the_one_waiting() -> None:
    table, _host, outbox = make_table(claims="open", moves="approve")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    for seq in range(5):
        table.handle(1, Move(type="move", token="A", to=(1, seq % 2), seq=seq))
    assert [m.goal for m in table.pending_moves] == [Cell(1, 0)]
    assert outbox.last(1, "move")["status"] == "queued"
    assert [m["text"] for c, m in outbox.sent if m.get("status") == "refused"] == [
        "replaced by a later move"] * 4


def test_a_claim_asked_for_ends_when_its_token_leaves_the_map() -> None:
    from core.actions.commands import RemoveToken

    table, host, _outbox = make_table()
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="B"))
    assert [c.token for c in table.pending_claims] == ["B"]
    host.history.push(RemoveToken("B"))
    assert table.pending_claims == []


def test_a_player_flooding_moves_is_told_to_wait_and_nothing_is_ruled() -> None:
    table, host, outbox = make_table(claims="open", moves="approve")
    seat(table, 1)
    table.handle(1, Claim(type="claim", token="A"))
    table.players["p1"].moves = RateLimit(per_second=4, burst=8, clock=lambda: 0.0)
    for seq in range(20):
        table.handle(1, Move(type="move", token="A", to=(1, 0), seq=seq))
    answers = [m for c, m in outbox.sent if m["type"] == "move" and m["seq"] is not None]
    assert [m["status"] for m in answers] == ["queued"] * 8 + ["refused"] * 12
    assert answers[-1]["text"] == "too many moves at once: wait a moment"
    assert host.history.index == 0


def test_a_player_may_have_only_so_many_pages_open() -> None:
    table, _host, outbox = make_table()
    seat(table, 1)
    session = outbox.last(1, "welcome")["session"]
    for connection in range(2, 2 + MAX_PAGES):
        table.connected(connection)
        table.handle(connection, Hello(type="hello", session=session))
    assert len(table.players["p1"].connections) == MAX_PAGES
    assert "pages open" in outbox.last(1 + MAX_PAGES, "error")["text"]


def test_opening_claims_grants_those_asked_for_and_a_forged_move_says_who_plays() -> None:
    table, _host, outbox = make_table()
    seat(table, 1, "Ann")
    seat(table, 2, "Bob")
    table.handle(1, Claim(type="claim", token="A"))
    assert outbox.last(1, "claim")["status"] == "asked"
    table.set_settings(ShareSettings(claims="open"))
    assert outbox.last(1, "claim")["status"] == "granted" and table.pending_claims == []
    table.handle(2, Move(type="move", token="A", to=(1, 1), seq=1))
    assert outbox.last(2, "move")["text"] == "Ann plays it"
