"""Pablo: calling Pablo, the reveal, the scores, the next round's starter and dealer, the end of the game, number
words, the advanced rule and removals."""

import pytest

from games.engine import AppError
from games.rules.pablo import RULES
from games.rules.pablo.words import number_word
from tests.games.rules.pablo_helpers import act, card, offered, playing


def plain_turn(state, seat):
    state, _ = act(state, seat, type="draw")
    state, _ = act(state, seat, type="discard")
    if state["phase"] == "end":
        state, _ = act(state, seat, type="end_turn")
    return state


def test_pablo_gives_everyone_else_one_more_turn_then_the_reveal():
    state = playing(
        [["AH", "2H", "KH", "AS"], ["9S", "9C", "8S", "7S"], ["5C", "6C", "4C", "3C"]],
        draw=["2D", "3D", "4D", "5D", "6D"][::-1],
    )
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    assert offered(state, 0) >= {"call", "end_turn"}
    state, events = act(state, 0, type="call")
    assert state["pablo"] == 0
    assert state["turn"] == 1
    state = plain_turn(state, 1)
    assert state["turn"] == 2, "no end-of-turn call once Pablo is called"
    assert state["phase"] == "draw"
    state, _ = act(state, 2, type="draw")
    state, events = act(state, 2, type="discard")
    assert state["phase"] == "reveal"
    assert [ev for ev in events if ev["type"] == "revealed"]
    assert RULES.view(state, 1)["body"]["fields"][0]["slots"][0]["card"] == card("AH")
    # caller's field: -1 + 2 + 0 - 1 = 0, the lowest: no penalty.
    assert RULES.scores(state).total == [0, 33, 18]
    assert state["dealer"] == 1
    assert state["next_starter"] == 0
    assert RULES.status(state).to_act == (1,)
    state, _ = act(state, 1, type="deal")
    assert (state["round"], state["phase"], state["starter"], state["dealer"]) == (2, "peek", 0, 1)
    assert sorted(c for cards in RULES.places(state).values() for c in cards) == list(range(52))


def called_by_0(fields, totals=None):
    state = playing(fields, draw=["2D", "3D", "4D"][::-1])
    if totals:
        state["parts"]["cards"] = list(totals)
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    state, _ = act(state, 0, type="call")
    state, _ = act(state, 1, type="draw")
    state, _ = act(state, 1, type="discard")
    return state


def test_the_caller_scores_ten_more_when_not_lowest():
    state = called_by_0([["9H", "9C", "2H", "3H"], ["AS", "AC", "2S", "3S"]])
    assert state["results"][-1]["points"] == [23, 3]
    assert state["results"][-1]["penalty"] == [10, 0]
    assert RULES.scores(state).total == [33, 3]
    assert RULES.scores(state).parts["penalty"] == [10, 0]


def test_the_caller_scores_five_more_on_a_tie():
    state = called_by_0([["2H", "3H", "4H", "5H"], ["2S", "3S", "4S", "5S"]])
    assert RULES.scores(state).total == [19, 14]
    assert state["next_starter"] == 1, "with the penalty the caller is no longer a winner"


def test_exactly_fifty_resets_to_zero_and_over_fifty_ends_the_game_lowest_wins():
    state = called_by_0([["AH", "2H", "KH", "AS"], ["9S", "9C", "8S", "7S"]], totals=[50, 40])
    # 0 for the caller (50 stays 50 → reset), 33 for seat 1 (73 → over).
    assert RULES.scores(state).total == [0, 73]
    assert RULES.status(state).finished
    view = RULES.view(state, 0)
    assert view["winners"] == [0]
    assert RULES.high_score_wins is False


def test_the_round_winner_starts_and_the_loser_deals_ties_by_overall_score():
    # Seats 1 and 2 tie for lowest; seat 2 has the lower overall score and starts.
    state = playing(
        [["9H", "9C", "8H", "7H"], ["2S", "3S", "AS", "AC"], ["2C", "3C", "AD", "AH"]], draw=["6D", "5D", "4D", "3D"]
    )
    state["parts"]["cards"] = [0, 20, 10]
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    state, _ = act(state, 0, type="end_turn")
    state, _ = act(state, 1, type="draw")
    state, _ = act(state, 1, type="discard")
    state, _ = act(state, 1, type="call")
    state = plain_turn(state, 2)
    state = plain_turn(state, 0)
    assert state["phase"] == "reveal"
    assert state["next_starter"] == 2
    assert state["dealer"] == 0


def test_the_caller_is_protected_from_swaps_and_others_matches_but_may_match():
    state = playing([["2H", "3H", "4H", "QH"], ["2S", "3S", "4S", "5S"], ["2C", "3C", "4C", "5C"]], draw=["QD", "9D"])
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    state, _ = act(state, 0, type="call")
    state, _ = act(state, 1, type="draw")
    state, _ = act(state, 1, type="discard")
    assert "match" in offered(state, 0), "the caller may still match"
    swap = next(a for a in RULES.view(state, 1)["actions"] if a["type"] == "swap")
    assert next(f for f in swap["fields"] if f["name"] == "owner")["choices"] == [2]
    with pytest.raises(AppError):
        act(state, 1, type="swap", mine=0, owner=0, slot=0)
    state, _ = act(state, 1, type="swap", mine=0, owner=2, slot=0)
    with pytest.raises(AppError):
        act(state, 2, type="match", owner=0, slot=3, top=card("QD"), give=0)
    state, _ = act(state, 0, type="match", owner=0, slot=3, top=card("QD"))
    assert state["fields"][0][3] is None


def test_number_words_for_values_and_scores():
    assert [number_word(n, "spa") for n in (-1, 0, 10, 16, 21, 33, 50)] == [
        "menos uno",
        "cero",
        "diez",
        "dieciséis",
        "veintiuno",
        "treinta y tres",
        "cincuenta",
    ]
    assert [number_word(n, "eng") for n in (-1, 12, 47, 100)] == ["minus one", "twelve", "forty-seven", "one hundred"]
    assert [number_word(n, "grc") for n in (1, 10, 12, 24, 50)] == [
        "εἷς",
        "δέκα",
        "δώδεκα",
        "εἴκοσι τέσσαρες",
        "πεντήκοντα",
    ]
    state = playing([["AH", "2H", "KH", "AS"], ["9S", "9C", "8S", "7S"]], draw=["JD"], number_words="spa")
    state, _ = act(state, 0, type="draw")
    assert RULES.view(state, 0)["body"]["held"]["word"] == "diez"


def test_advanced_rule_a_player_with_no_cards_who_discards_a_queen_takes_a_card():
    state = playing([["2H", "3H"], ["2S", "3S", "4S", "5S"]], draw=["7D", "QD"], empty_field_queen=True)
    state["fields"][0] = [None, None]
    state, _ = act(state, 0, type="draw")
    assert "keep" not in offered(state, 0)
    assert "pair" not in offered(state, 0)
    state, events = act(state, 0, type="discard")
    assert [ev["type"] for ev in events] == ["discarded", "queen_penalty", "penalty"]
    assert state["fields"][0] == [None, None, card("7D")]


def test_a_removed_player_s_cards_go_under_the_draw_pile_and_the_turn_passes():
    state = playing([["2H", "3H", "4H", "5H"], ["2S", "3S", "4S", "5S"], ["2C", "3C", "4C", "5C"]])
    state, _ = act(state, 0, type="draw")
    state, _ = RULES.remove_player(state, 0, None)
    assert state["turn"] == 1
    assert state["phase"] == "draw"
    assert state["fields"][0] == []
    assert sorted(c for cards in RULES.places(state).values() for c in cards) == list(range(52))
    state, _ = RULES.remove_player(state, 1, None)
    assert RULES.status(state).finished
