"""Pablo's rules, with the rulebook's worked examples: the deal, a turn, special cards, matching, calling Pablo."""

import pytest

from games.engine import AppError, censor_all
from games.rules.pablo import RULES
from games.rules.pablo.deck import value
from tests.games.rules.pablo_helpers import act, card, offered, playing, slot_view


# -- the deck and the deal ----------------------------------------------------------------------------------------
def test_card_values():
    assert [value(card(n)) for n in ("AS", "2C", "9D", "10H", "JS", "QH", "KS", "KC")] == [-1, 2, 9, 10, 10, 10, 10, 10]
    assert value(card("KH")) == value(card("KD")) == 0
    assert sum(value(c) for c in range(52)) == 4 * (-1 + 54 + 30) - 20


def test_the_deal_gives_four_face_down_cards_each_and_keeps_52_cards():
    state, events = RULES.new_game(3, {}, 5)
    assert [len(f) for f in state["fields"]] == [4, 4, 4]
    assert sorted(c for cards in RULES.places(state).values() for c in cards) == list(range(52))
    assert state["phase"] == "peek"
    assert events[0]["type"] == "rolled"
    rolls = [{r["seat"]: r["roll"] for r in ev["rolls"]} for ev in events if ev["type"] == "rolled"]
    assert max(rolls[-1], key=rolls[-1].get) == state["starter"]
    for seat in (0, 1, 2, None):
        assert all(
            slot == {"slot": i} for f in RULES.view(state, seat)["body"]["fields"] for i, slot in enumerate(f["slots"])
        )


def test_the_die_roll_is_seeded():
    assert RULES.new_game(4, {}, 9)[0] == RULES.new_game(4, {}, 9)[0]


def test_each_player_looks_at_two_of_their_cards_once_then_play_starts():
    state, _ = RULES.new_game(2, {}, 3)
    state, events = act(state, 0, type="first_look", slot=1)
    seen = state["fields"][0][1]
    assert censor_all(events, 0)[0]["card"] == seen
    assert "card" not in censor_all(events, 1)[0]
    assert slot_view(state, 0, 0, 1)["card"] == seen
    assert "card" not in slot_view(state, 1, 0, 1)
    assert "card" not in slot_view(state, None, 0, 1)
    with pytest.raises(AppError):
        act(state, 0, type="first_look", slot=1)
    state, _ = act(state, 0, type="first_look", slot=2)
    assert "first_look" not in offered(state, 0)
    state, _ = act(state, 0, type="ready")
    assert "card" not in slot_view(state, 0, 0, 1), "once ready, the cards are face down again"
    assert state["phase"] == "peek"
    state, _ = act(state, 1, type="ready")
    assert state["phase"] == "draw"
    assert RULES.status(state).to_act == (state["starter"],)


def test_with_reminders_a_seen_card_stays_shown_to_its_viewer_only():
    state, _ = RULES.new_game(2, {"reminders": True}, 3)
    state, _ = act(state, 0, type="first_look", slot=0)
    state, _ = act(state, 0, type="ready")
    assert slot_view(state, 0, 0, 0)["seen"] == "memory"
    assert "card" not in slot_view(state, 1, 0, 0)


# -- a turn ---------------------------------------------------------------------------------------------------
def test_keep_replaces_a_field_card_which_is_discarded_face_up():
    state = playing([["2H", "3H", "4H", "5H"], ["2S", "3S", "4S", "5S"]], draw=["AC"])
    state, events = act(state, 0, type="draw")
    assert RULES.view(state, 0)["body"]["held"]["card"] == card("AC")
    assert RULES.view(state, 1)["body"]["held"] is None
    assert "card" not in censor_all(events, 1)[0]
    state, _ = act(state, 0, type="keep", slot=3)
    assert state["fields"][0] == [card("2H"), card("3H"), card("4H"), card("AC")]
    assert RULES.view(state, 1)["body"]["discard"]["top"]["card"] == card("5H")
    assert state["phase"] == "end"
    state, _ = act(state, 0, type="end_turn")
    assert (state["phase"], state["turn"]) == ("draw", 1)


def test_discarding_a_plain_card_has_no_action():
    state = playing([["2H", "3H", "4H", "5H"], ["2S", "3S", "4S", "5S"]], draw=["9C"])
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    assert state["discard"][-1] == card("9C")
    assert state["phase"] == "end"


def test_example_one_a_drawn_card_matching_a_field_card_discards_both():
    state = playing([["2H", "5H", "4H", "6H"], ["2S", "3S", "4S", "5S"]], draw=["5C"])
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="pair", slot=1)
    assert state["fields"][0] == [card("2H"), None, card("4H"), card("6H")]
    assert state["discard"][-2:] == [card("5H"), card("5C")]
    assert "match" not in offered(state, 1), "the pair was the match: the 5 cannot be matched again"
    assert state["phase"] == "end"


def test_a_matched_special_card_has_no_action():
    state = playing([["JH", "5H", "4H", "6H"], ["2S", "3S", "4S", "5S"]], draw=["JC"])
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="pair", slot=0)
    assert state["phase"] == "end"
    assert state["special"] is None


def test_a_wrong_pair_shows_the_card_returns_it_and_costs_a_penalty_card():
    state = playing([["2H", "5H", "4H", "6H"], ["2S", "3S", "4S", "5S"]], draw=["9D", "5C"])
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="pair", slot=0)
    assert slot_view(state, 1, 0, 0)["card"] == card("2H"), "shown to everyone"
    assert state["fields"][0][:4] == [card("2H"), card("5H"), card("4H"), card("6H")]
    assert state["fields"][0][4] == card("9D")
    assert slot_view(state, 0, 0, 4)["card"] == card("9D")
    assert "card" not in slot_view(state, 1, 0, 4)
    assert state["phase"] == "decide"
    assert state["held"] == card("5C")
    state, _ = act(state, 0, type="discard")
    assert "card" not in slot_view(state, 1, 0, 0), "put back face down"


# -- special cards ---------------------------------------------------------------------------------------------
def fields3():
    return [["2H", "3H", "4H", "5H"], ["2S", "3S", "4S", "5S"], ["2C", "3C", "4C", "5C"]]


def test_ten_peeks_at_one_of_your_cards():
    state = playing(fields3(), draw=["10D"])
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    assert state["phase"] == "ten"
    assert offered(state, 0) >= {"peek", "skip"}
    state, events = act(state, 0, type="peek", slot=2)
    assert censor_all(events, 0)[0]["card"] == card("4H")
    assert all("card" not in ev for ev in censor_all(events, 1))
    assert slot_view(state, 0, 0, 2)["seen"] == "now"
    state, _ = act(state, 0, type="end_turn")
    assert "card" not in slot_view(state, 0, 0, 2), "you may not look at it again"


def test_jack_spies_on_another_players_card_seen_by_the_spy_alone():
    state = playing(fields3(), draw=["JD"])
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    state, _ = act(state, 0, type="spy", owner=2, slot=3)
    assert slot_view(state, 0, 2, 3)["card"] == card("5C")
    assert "card" not in slot_view(state, 2, 2, 3)
    assert "card" not in slot_view(state, 1, 2, 3)
    with pytest.raises(AppError):
        act(playing(fields3(), draw=["JD"]), 0, type="spy", owner=2, slot=3)


def test_queen_swaps_blind_and_the_swap_is_compulsory():
    state = playing(fields3(), draw=["QD"])
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    assert state["phase"] == "queen"
    assert "skip" not in offered(state, 0)
    with pytest.raises(AppError):
        act(state, 0, type="skip")
    state, events = act(state, 0, type="swap", mine=0, owner=1, slot=2)
    assert state["fields"][0][0] == card("4S")
    assert state["fields"][1][2] == card("2H")
    assert not any("card" in ev for ev in censor_all(events, 0)), "no peeking"
    assert "card" not in slot_view(state, 0, 0, 0)


def test_king_looks_then_swaps_the_card_looked_at_or_not():
    state = playing(fields3(), draw=["KS"])
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    looked, _ = act(state, 0, type="look", owner=1, slot=1)
    assert slot_view(looked, 0, 1, 1)["card"] == card("3S")
    assert "look" not in offered(looked, 0)
    with pytest.raises(AppError):
        act(looked, 0, type="swap", mine=0, owner=2, slot=1)
    swapped, _ = act(looked, 0, type="swap", mine=0, owner=1, slot=1)
    assert swapped["fields"][0][0] == card("3S")
    kept, _ = act(looked, 0, type="skip")
    assert kept["fields"] == state["fields"]
    assert kept["phase"] == "end"


# -- matching out of turn ---------------------------------------------------------------------------------------
def test_any_player_may_match_the_top_card_with_their_own_card():
    state = playing(fields3(), discard=["5D"], turn=1)
    assert "match" in offered(state, 2)
    state, _ = act(state, 2, type="match", owner=2, slot=3, top=card("5D"))
    assert state["fields"][2][3] is None
    assert state["discard"][-1] == card("5C")
    assert RULES.view(state, 0)["body"]["match"] == {"open": False, "matched_by": 2}


def test_example_one_matching_an_opponents_card_gives_them_one_of_yours():
    state = playing(fields3(), discard=["5D"], turn=1)
    state, events = act(state, 0, type="match", owner=2, slot=3, top=card("5D"), give=1)
    assert state["fields"][2][3] == card("3H")
    assert state["fields"][0][1] is None
    assert [ev["type"] for ev in events] == ["matched", "gave"]
    with pytest.raises(AppError):
        act(playing(fields3(), discard=["5D"]), 0, type="match", owner=2, slot=3, top=card("5D"))


def test_example_two_a_wrong_match_is_shown_returned_and_costs_a_card_and_the_5_stays_open():
    state = playing(fields3(), draw=["8D"], discard=["5D"], turn=1)
    state, events = act(state, 0, type="match", owner=0, slot=0, top=card("5D"))
    assert [ev["type"] for ev in events] == ["wrong_match", "penalty"]
    assert events[0]["card"] == card("2H")
    assert slot_view(state, 2, 0, 0)["card"] == card("2H")
    assert state["fields"][0] == cards_of("2H", "3H", "4H", "5H", "8D")
    assert "card" not in censor_all(events, 1)[1]
    state, _ = act(state, 2, type="match", owner=2, slot=3, top=card("5D"))
    assert state["discard"][-1] == card("5C")
    assert "card" not in slot_view(state, 2, 0, 0), "returned face down at the next action"


def cards_of(*names):
    return [card(n) for n in names]


def test_only_the_first_match_of_a_discard_applies():
    state = playing(fields3(), discard=["5D"], turn=0)
    first, _ = act(state, 1, type="match", owner=1, slot=3, top=card("5D"))
    with pytest.raises(AppError) as late:
        act(first, 2, type="match", owner=2, slot=3, top=card("5D"))
    assert late.value.code == "too_late"
    assert "match" not in offered(first, 2)
    assert RULES.view(first, 2)["body"]["match"]["matched_by"] == 1


def test_a_match_against_a_card_no_longer_on_top_is_refused():
    state = playing(fields3(), draw=["9D"], discard=["5D"], turn=0)
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    with pytest.raises(AppError) as late:
        act(state, 2, type="match", owner=2, slot=3, top=card("5D"))
    assert late.value.code == "too_late"


def test_the_draw_pile_is_refilled_from_the_shuffled_discard_pile():
    state = playing([["2H", "3H", "4H", "5H"], ["2S", "3S", "4S", "5S"]], draw=["9C"], discard=["9D"])
    state["discard"] = state["draw"][:-1] + state["discard"]
    state["draw"] = state["draw"][-1:]
    state, _ = act(state, 0, type="draw")
    state, _ = act(state, 0, type="discard")
    state, _ = act(state, 0, type="end_turn")
    state, events = act(state, 1, type="draw")
    assert events[0]["type"] == "reshuffled"
    assert state["discard"] == []
    assert len(state["draw"]) == 52 - 8 - 1
    assert sorted(c for cards in RULES.places(state).values() for c in cards) == list(range(52))
