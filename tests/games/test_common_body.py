"""``Game.common_body``: the part of the body every viewer sees alike, made once for all of a move's viewers."""

from typing import Any

from games.engine import State
from games.rules import GAMES
from tests.games.toygame import Toy


class CountingToy(Toy):
    """The toy game with a common part: the public pile, and a ``turn`` that each viewer's own body overrides."""

    def __init__(self) -> None:
        super().__init__()
        self.common_calls = 0

    def common_body(self, state: State) -> dict[str, Any]:
        self.common_calls += 1
        return {"pile": list(state["played"]), "turn": "common"}


def test_the_common_part_is_made_once_for_every_viewer_and_a_viewers_own_key_wins() -> None:
    rules = CountingToy()
    state, _ = rules.new_game(3, {}, 7)
    views = rules.views(state, [0, 1, 2, None])
    assert rules.common_calls == 1
    for seat, view in views.items():
        assert view["body"]["pile"] == []
        assert view["body"]["turn"] == state["turn"]  # the viewer's own body, not the common "common"
        assert ("hand" in view["body"]) is (seat is not None)
    assert views[0]["body"]["hand"] != views[1]["body"]["hand"]


def test_grabble_views_are_its_common_part_and_each_viewers_own() -> None:
    rules = GAMES["grabble"]
    state, _ = rules.new_game(3, {"open_racks": False}, 11)
    common = rules.common_body(state)
    for seat in (0, 1, 2, None):
        body = rules.view(state, seat)["body"]
        assert {k: body[k] for k in common} == common
        own = rules.body(state, seat)
        assert {k: body[k] for k in own} == own
        # Racks are each viewer's own: the common part never shows one.
        assert "racks" not in common
        assert set(body["racks"]) == (set() if seat is None else {str(seat)})


def test_palabras_cortas_views_share_the_table_and_each_viewer_sees_only_their_own_hand() -> None:
    rules = GAMES["palabras_cortas"]
    state, _ = rules.new_game(3, {}, 5)
    common = rules.common_body(state)
    assert "hand" not in common  # a hand is hidden from the other seats: it is never common
    views = rules.views(state, [0, 1, 2, None])
    for seat, view in views.items():
        body = view["body"]
        assert {k: body[k] for k in common} == common
        if seat is None:
            assert "hand" not in body
        else:
            assert [card["id"] for card in body["hand"]] == state["hands"][seat]
