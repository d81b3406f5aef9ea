"""The schema of what a page may send, and the rate limit."""

from __future__ import annotations

import pytest

from desktop.share.protocol import (
    MAX_MESSAGE_BYTES,
    Hello,
    Measure,
    MessageError,
    RateLimit,
    parse_message,
)


def test_each_kind_of_message_parses() -> None:
    assert parse_message('{"type": "hello", "name": "Ann"}') == Hello(type="hello", name="Ann")
    ruler = parse_message('{"type": "measure", "points": [[0, 0], [3, 4]]}')
    assert ruler == Measure(type="measure", points=((0, 0), (3, 4)))


@pytest.mark.parametrize(("text", "problem"), [
    ('{"type": "hello", "session": "short"}', "hello.session: String should match pattern"),
    ('{"type": "claim", "token": "a b"}', "claim.token: String should match pattern"),
    ('{"type": "move", "token": "a", "to": [1, 2], "seq": "1"}', "move.seq: Input should be"),
    ('{"type": "move", "token": "a", "to": [1.5, 2]}', "move.to.0: Input should be"),
    ('{"type": "measure", "points": [[0, 0]]}', "measure.points: Tuple should have at least 2"),
    ('{"type": 3}', "unknown message type '3'"),
    ('{"name": "Ann"}', "unknown message type 'None'"),
    ("null", "not a JSON object"),
])
def test_a_message_outside_the_schema_is_refused_with_its_reason(text: str,
                                                                 problem: str) -> None:
    with pytest.raises(MessageError) as refused:
        parse_message(text)
    assert str(refused.value).startswith(problem)


def test_a_message_over_the_bound_is_refused_before_it_is_parsed() -> None:
    padded = '{"type": "ping", "pad": "' + "x" * MAX_MESSAGE_BYTES + '"}'
    with pytest.raises(MessageError, match="message too long"):
        parse_message(padded)
    wide = '{"type": "hello", "name": "' + "\u4e00" * (MAX_MESSAGE_BYTES // 2) + '"}'
    with pytest.raises(MessageError, match=f"message too long \\({len(wide.encode())} bytes"):
        parse_message(wide)  # fewer characters than the bound, three bytes each


def test_the_rate_limit_allows_a_burst_then_its_rate() -> None:
    now = [0.0]
    limit = RateLimit(per_second=2, burst=3, clock=lambda: now[0])
    assert [limit.allow() for _ in range(4)] == [True, True, True, False]
    now[0] = 0.5
    assert [limit.allow() for _ in range(2)] == [True, False]
    now[0] = 100.0
    assert sum(limit.allow() for _ in range(10)) == 3
