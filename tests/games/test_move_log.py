"""The move log a page rebuilds "What happened" from: each seat sees the moves as they were sent to it live, never
another seat's hidden cards; summaries and last moves name players, never seat numbers."""

import json

import pytest

from games import selectors
from games.engine import censor_all, fill_names, seat_ref
from games.models import Table
from tests.games.test_palabras_cortas_table import pc_table, play_first_hand, spanish  # noqa: F401

pytestmark = pytest.mark.django_db


def card_ids(log: list[dict]) -> set[int]:
    """Every card id named anywhere in a log's events."""
    found: set[int] = set()

    def walk(value: object, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif key in {"id", "card", "cards"} and isinstance(value, int) and not isinstance(value, bool):
            found.add(value)

    for move in log:
        walk(move["events"])
    return found


def taken_by(table: Table, seat: int) -> set[int]:
    """The ids of the cards later dealt to ``seat`` or drawn by it from the stock (either may be the other seat's old
    cards, after a reshuffle or in the next hand's deal), as its own secret events name them."""
    found: set[int] = set()
    for move in table.moves.order_by("seq"):
        for ev in move.events:
            if move.seq > 0 and seat in ev.get("_to", []):
                found |= card_ids([{"events": [ev["_secret"]]}])
    return found


def dealt_to(table: Table, seat: int) -> set[int]:
    """The ids of the cards dealt to ``seat`` in the first hand (from the uncensored start move)."""
    start = table.moves.get(seq=0)
    return {
        c["id"]
        for ev in start.events
        if ev["type"] == "dealt" and seat in ev.get("_to", [])
        for c in ev["_secret"]["cards"]
    }


def test_each_seat_sees_its_own_cards_and_never_another_seats(pc_table):  # noqa: F811
    play_first_hand(pc_table)
    for seat in (0, 1):
        log = selectors.move_log(pc_table, seat)
        assert [m["seq"] for m in log] == list(range(pc_table.version + 1))
        assert "_secret" not in json.dumps(log)
        mine, theirs = dealt_to(pc_table, seat), dealt_to(pc_table, 1 - seat)
        assert mine
        assert mine <= card_ids(log)
        # The other seat's first hand shows up only where everyone saw it (words laid, discards), or once this seat
        # took the card into its own hand (from the discard pile: its own "drew" event names it).
        public = card_ids(selectors.move_log(pc_table, None))
        assert (theirs & card_ids(log)) <= public | taken_by(pc_table, seat)
        for move, stored in zip(log, pc_table.moves.order_by("seq"), strict=True):
            assert move["events"] == censor_all(stored.events, seat)


def test_the_log_is_bounded_to_the_last_moves(pc_table):  # noqa: F811
    play_first_hand(pc_table)
    log = selectors.move_log(pc_table, 0, limit=3)
    assert [m["seq"] for m in log] == [pc_table.version - 2, pc_table.version - 1, pc_table.version]


def test_a_snapshot_carries_the_log_only_when_asked(pc_table):  # noqa: F811
    assert "log" not in selectors.snapshot(pc_table, 0)
    assert selectors.snapshot(pc_table, 0, log=True)["log"][0]["seq"] == 0


def test_summaries_name_seats_by_placeholder_and_the_dashboard_fills_in_names(pc_table):  # noqa: F811
    turn = pc_table.state["turn"]
    view = selectors.snapshot(pc_table, 0)["view"]
    assert seat_ref(turn) in view["summary"]
    names = {p["seat"]: p["name"] for p in selectors.players(pc_table)}
    row = selectors.dashboard_row(pc_table)
    assert row["summary"] == fill_names(view["summary"], names.__getitem__)
    assert names[turn] in row["summary"]
    assert "seat" not in row["summary"].lower()
    assert row["to_act"] == [names[turn]]
