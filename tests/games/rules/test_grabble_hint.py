"""Grabble's ``hint``: the player on turn is shown the best play of their rack — only them — for a number of
hints per game set by the ``hints`` table option; a hint is a move of the log and replays the same."""

import json
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import AppError, Context, censor
from games.rules.grabble import RULES
from games.rules.grabble.moves import plays_for
from tests.games.rules.test_grabble import CTX, LEXICON, give, logos, new, play, refused
from tests.games.rules.test_grabble_moves_properties import lexicon, play_action

HINT = {"type": "hint"}
LOGOS_AT_D8 = ["D8", "E8", "F8", "G8", "H8"]


def ask(state, seat=None, ctx=CTX):
    """The player on turn (or ``seat``) asks for a hint; returns the new state and the one event."""
    seat = state["turn"] if seat is None else seat
    state, events = RULES.apply(state, seat, HINT, ctx)
    (hinted,) = events
    return state, hinted


def with_rack(letters, seed=1, **options):
    """A new game whose player on turn holds exactly ``letters``; returns the state and that seat."""
    state = new(seed=seed, **options)
    give(state, state["turn"], letters)
    return state, state["turn"]


def other(seat):
    return 1 - seat


# -- what the asker sees ------------------------------------------------------------------------------------------
def test_the_hint_is_the_best_play_of_the_askers_rack():
    before, seat = with_rack("ΛΟΓΟΣ")
    _after, hinted = ask(before)
    hint = censor(hinted, seat)["hint"]
    # ΛΟΓΟΣ from D8: Λ on the double letter, Σ on the centre's double word: (6 + 1 + 4 + 1 + 1) × 2.
    assert [t["square"] for t in hint["tiles"]] == LOGOS_AT_D8
    assert hint["words"] == [{"word": "ΛΟΓΟΣ", "squares": LOGOS_AT_D8, "score": 26}]
    assert (hint["score"], hint["bonus"]) == (26, 0)
    assert hint["score"] == max(p.score for p in plays_for(before, seat, LEXICON))


def test_the_asker_sees_the_hint_in_their_view_until_the_turn_ends():
    state, seat = with_rack("ΛΟΓΟΣ")
    state, hinted = ask(state)
    assert RULES.view(state, seat)["body"]["hint"] == censor(hinted, seat)["hint"]
    state, _ = RULES.apply(state, seat, {"type": "pass"}, CTX)
    assert state["hint"] is None
    assert RULES.view(state, seat)["body"]["hint"] is None


def test_the_hint_gives_the_words_but_never_a_parse():
    state, seat = with_rack("ΛΟΓΟΣ")
    _state, hinted = ask(state)
    hint = censor(hinted, seat)["hint"]
    assert set(hint) == {"tiles", "words", "bonus", "score"}
    assert all(set(word) == {"word", "squares", "score"} for word in hint["words"])


def test_a_hinted_blank_says_which_letter_it_stands_for():
    state, seat = with_rack(["Λ", "Ο", "Γ", "Ο", ""])
    _state, hinted = ask(state)
    last = censor(hinted, seat)["hint"]["tiles"][-1]
    assert (last["letter"], last["blank"]) == ("Σ", True)


def test_playing_the_hint_scores_what_the_hint_said():
    state, seat = with_rack("ΛΟΓΟΣ")
    state, hinted = ask(state)
    tiles = [{"tile": t["tile"], "square": t["square"]} for t in censor(hinted, seat)["hint"]["tiles"]]
    after, _ = play(state, seat, tiles, [logos()])
    assert after["plays"][0]["base"] == 26


# -- nobody else sees it -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("open_racks", [True, False])
def test_no_other_player_nor_the_teacher_ever_sees_the_hint(open_racks):
    state, seat = with_rack("ΛΟΓΟΣ", open_racks=open_racks)
    state, hinted = ask(state)
    for viewer in (other(seat), None):
        assert censor(hinted, viewer) == {"type": "hinted", "seat": seat, "left": 2}
        assert RULES.view(state, viewer)["body"]["hint"] is None
    assert "hint" in censor(hinted, seat)


def test_the_view_keeps_the_seat_that_asked_to_itself():
    state, seat = with_rack("ΛΟΓΟΣ")
    state, _ = ask(state)
    assert "seat" not in RULES.view(state, seat)["body"]["hint"]


# -- how many, when -----------------------------------------------------------------------------------------------
def test_each_hint_counts_down_the_askers_hints_only():
    state, seat = with_rack("ΛΟΓΟΣ")
    assert RULES.view(state, seat)["body"]["hints_left"] == [3, 3]
    state, hinted = ask(state)
    assert hinted["left"] == 2
    assert RULES.view(state, other(seat))["body"]["hints_left"][seat] == 2
    assert RULES.view(state, other(seat))["body"]["hints_left"][other(seat)] == 3


def test_a_hint_is_not_a_turn_and_scores_nothing():
    state, seat = with_rack("ΛΟΓΟΣ")
    after, _ = ask(state)
    assert (after["turn"], after["turn_number"], after["passes"]) == (seat, state["turn_number"], state["passes"])
    assert after["board"] == {}
    assert RULES.scores(after).total == [0, 0]
    assert sorted(after["racks"][seat]) == sorted(state["racks"][seat])


def test_one_hint_a_turn():
    state, seat = with_rack("ΛΟΓΟΣ")
    state, _ = ask(state)
    assert "hint" not in RULES.actions(state, seat)
    assert "already" in refused("not_allowed", state, seat, HINT)


def test_when_the_hints_are_used_up_the_player_is_told():
    state, seat = with_rack("ΛΟΓΟΣ", hints=1)
    state, _ = ask(state)
    for mover in (seat, other(seat)):  # exchanges move the turn on without ending the play, as passes would
        state, _ = RULES.apply(state, mover, {"type": "exchange", "tiles": state["racks"][mover][:1]}, CTX)
    assert state["turn"] == seat
    assert "hint" not in RULES.actions(state, seat)
    assert "used all 1" in refused("not_allowed", state, seat, HINT)


def test_hints_can_be_turned_off():
    state, seat = with_rack("ΛΟΓΟΣ", hints=0)
    assert "hint" not in RULES.actions(state, seat)
    assert RULES.view(state, seat)["body"]["hints_left"] == [0, 0]
    assert "turned off" in refused("not_allowed", state, seat, HINT)


def test_the_hints_option_is_checked_like_the_other_options():
    assert RULES.clean_options({})["hints"] == 3
    assert RULES.clean_options({"hints": "5"})["hints"] == 5
    for bad in (-1, 21, "many"):
        with pytest.raises(AppError) as err:
            RULES.clean_options({"hints": bad})
        assert err.value.code == "bad_option"


def test_only_the_player_on_turn_may_ask():
    state, seat = with_rack("ΛΟΓΟΣ")
    refused("not_your_turn", state, other(seat), HINT)
    assert "hint" not in RULES.actions(state, other(seat))


def test_the_teacher_cannot_ask():
    state, _seat = with_rack("ΛΟΓΟΣ")
    refused("not_allowed", state, None, HINT)  # the engine: the teacher has no seat to play from


def test_no_hint_once_the_play_is_over():
    state, seat = with_rack("ΛΟΓΟΣ")
    state, _ = RULES.apply(state, None, {"type": "end_play"}, CTX)
    refused("wrong_phase", state, seat, HINT)


def test_a_rack_with_no_play_is_told_to_exchange_or_pass_and_keeps_its_hints():
    state, seat = with_rack("ΨΞΖ")
    message = refused("no_play", state, seat, HINT)
    assert message == "No word can be placed with this rack; exchange or pass."
    assert state["hints_used"] == [0, 0]


def test_a_table_without_a_lexicon_has_no_hint():
    state, seat = with_rack("ΛΟΓΟΣ")
    assert "lexicon" in refused("not_allowed", state, seat, HINT, ctx=Context(lexicon=None))


def test_the_hint_ends_with_the_play_phase():
    state, _seat = with_rack("ΛΟΓΟΣ")
    state, _ = ask(state)
    state, _ = RULES.apply(state, None, {"type": "end_play"}, CTX)
    assert state["hint"] is None


# -- replay --------------------------------------------------------------------------------------------------------
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_replaying_a_log_with_hints_gives_the_same_state(seed):
    rnd = random.Random(seed)
    ctx = Context(lexicon=lexicon(rnd, 120))
    state, _ = RULES.new_game(2, {"unknown_words": "strict"}, seed)
    log = []
    for _step in range(12):
        seat = state["turn"]
        plays = plays_for(state, seat, ctx.lexicon)
        kind = rnd.choice(["hint", "hint", "play", "exchange"])
        if kind == "hint" or not plays:
            action = HINT if kind == "hint" else {"type": "exchange", "tiles": state["racks"][seat][:2]}
        else:
            action = play_action(rnd.choice(plays))
        try:
            state, _ = RULES.apply(state, seat, action, ctx)
        except AppError:
            continue
        log.append((seat, action))
        if state["phase"] != "play":
            break
    assume(any(action == HINT for _seat, action in log))
    replay, _ = RULES.new_game(2, {"unknown_words": "strict"}, seed)
    for seat, action in log:
        replay, _ = RULES.apply(json.loads(json.dumps(replay)), seat, json.loads(json.dumps(action)), ctx)
    assert replay == state
