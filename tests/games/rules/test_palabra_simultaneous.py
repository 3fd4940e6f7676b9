"""Palabra's simultaneous play (6+ players): rounds laid face down, revealed together, conflicts all allowed.

Most tests put seat 0's DOG (D green 2, O red 1, G blue 5: 8 points, no lock) on the table in round 1, then lay
round 2's pre-plays and plays and check the reveal by hand.
"""

import json

import pytest

from games.engine import AppError, Context, WordSet, censor, score_totals
from games.rules.palabra import RULES, card_places
from games.rules.palabra.deck import deck_for
from tests.games.rules.test_palabra import offered, pick
from tests.games.rules.test_palabra_random import EveryWord, play_random_game

WORDS = WordSet(["a", "o", "at", "cat", "act", "dog", "dogs", "dot", "cats", "ox", "tea"])
CTX = Context(WORDS)
DOG = ["DG", "OR", "GB"]


# -- helpers ----------------------------------------------------------------------------------------------------
def new(players=6, **options):
    state, events = RULES.new_game(players, {"simultaneous": True, **options}, seed=11)
    return state, events


def give(state, hands):
    """Every hand goes back into the pile, then each named seat takes the named cards (see ``pick``) from it;
    seats not named hold nothing. Returns the seats' card ids."""
    deck = deck_for(state["options"])
    for seat in range(state["players"]):
        state["pile"] += state["hands"][seat]
        state["hands"][seat] = []
    ids = {seat: [pick(deck, state["pile"], spec) for spec in specs] for seat, specs in hands.items()}
    for seat, cards in ids.items():
        state["hands"][seat] = cards
    return ids


def play_round(state, laid, ctx=CTX):
    """Every seat in seat order lays its actions from ``laid`` (pre-play and/or play) and passes if not yet ready.
    Returns the state after the reveal and the round's events."""
    events = []
    number = state["round"]["no"]
    for seat in range(state["players"]):
        for action in [*laid.get(seat, []), {"type": "pass"}]:
            if state["finished"] or state["round"]["no"] != number or seat not in RULES.status(state).to_act:
                break
            state, new_events = RULES.apply(state, seat, action, ctx)
            events += new_events
    return state, events


def with_dog(players=6, **options):
    """Seat 0's DOG is on the table (round 1 played); returns the state at the start of round 2."""
    state, _ = new(players, **options)
    ids = give(state, {0: DOG})
    state, _ = play_round(state, {0: [{"type": "word", "cards": ids[0]}]})
    assert state["table"][0]["letters"] == list("DOG")
    assert state["table"][0]["value"] == 8
    assert RULES.scores(state).total[0] == 8
    return state


def gained(events, seat, reason=None):
    return sum(
        e["points"] for e in events if e["type"] == "score" and e["seat"] == seat and reason in (None, e["reason"])
    )


def error_code(state, seat, action, ctx=CTX):
    with pytest.raises(AppError) as caught:
        RULES.apply(state, seat, action, ctx)
    return caught.value.code


def assert_every_card_in_one_place(state):
    held = sorted(c for cards in card_places(state).values() for c in cards)
    assert held == list(range(len(deck_for(state["options"]))))


def shave(victim, card, at):
    return {"type": "shave", "seat": victim, "cards": [{"card": card, "at": at}]}


def joker(victim, card):
    return {"type": "joker", "targets": [{"card": card, "seat": victim}]}


# -- the option --------------------------------------------------------------------------------------------------
def test_simultaneous_play_is_refused_for_fewer_than_six_players():
    with pytest.raises(AppError) as caught:
        RULES.new_game(5, {"simultaneous": True}, seed=1)
    assert caught.value.code == "bad_option"
    assert "6 or more" in caught.value.message


def test_simultaneous_play_checks_words_automatically_and_refuses_votes():
    state, _ = new(6)
    assert state["options"]["checking"] == "auto"
    with pytest.raises(AppError) as caught:
        RULES.new_game(6, {"simultaneous": True, "checking": "vote"}, seed=1)
    assert caught.value.code == "bad_option"


def test_turn_based_play_is_still_the_default():
    state, _ = RULES.new_game(6, {}, seed=1)
    assert state["phase"] == "preplay"
    assert state["round"] is None


def test_twelve_players_can_play_simultaneously_with_a_double_deck():
    state, _ = new(12, double_deck=True)
    assert state["phase"] == "round"
    assert RULES.status(state).to_act == tuple(range(12))
    assert_every_card_in_one_place(state)


# -- laying face down --------------------------------------------------------------------------------------------
def test_everyone_is_waited_for_until_they_lay_a_play_or_pass():
    state, _ = new(6)
    give(state, {0: DOG})
    state, _ = RULES.apply(state, 2, {"type": "pass"}, CTX)
    assert RULES.status(state).to_act == (0, 1, 3, 4, 5)
    assert error_code(state, 2, {"type": "pass"}) == "not_your_turn"  # the engine: seat 2 is no longer awaited
    assert offered(state, 2) == []


def test_pre_play_comes_first_and_once_and_draws_replacements_at_once():
    state = with_dog()
    ids = give(state, {1: ["GY", "OB", "joker"]})
    state, events = RULES.apply(state, 1, shave(0, ids[1][0], 2), CTX)
    assert len(state["hands"][1]) == 7
    assert any(e["type"] == "drew" and e["seat"] == 1 for e in events)
    assert state["table"][0]["value"] == 8  # nothing happens before the reveal
    assert RULES.scores(state).total[1] == 0
    assert error_code(state, 1, joker(0, ids[1][2])) == "wrong_phase"
    assert "shave" not in offered(state, 1)
    assert "word" in offered(state, 1)
    state, _ = RULES.apply(state, 1, {"type": "pass"}, CTX)
    assert error_code(state, 1, shave(0, ids[1][1], 1)) == "not_your_turn"  # the engine: ready, no longer awaited


def test_the_teacher_lays_nothing():
    state, _ = new(6)
    assert error_code(state, None, {"type": "pass"}) == "not_allowed"  # the engine: the teacher has no seat
    assert error_code(state, None, {"type": "check"}) == "wrong_phase"


@pytest.mark.parametrize("kind", ["vote", "withdraw", "insist", "challenge", "concede"])
def test_there_are_no_votes_or_challenges_in_a_round(kind):
    state, _ = new(6)
    action = {"type": kind, "accept": True} if kind == "vote" else {"type": kind}
    assert error_code(state, 1, action) == "wrong_phase"


def test_nobody_is_on_turn_in_a_round():
    state, _ = new(6)
    assert RULES.view(state, 2)["body"]["turn"] is None
    assert RULES.status(state).extra["turn"] is None
    assert RULES.status(state).summary == "Round 1: everyone lays a play face down"


def test_a_word_not_in_the_lexicon_is_refused_when_laid_and_the_player_may_lay_another():
    state, _ = new(6)
    ids = give(state, {0: ["GB", "OR", "DG"]})
    assert error_code(state, 0, {"type": "word", "cards": ids[0]}) == "not_a_word"
    assert error_code(state, 0, {"type": "word", "cards": ids[0]}, Context()) == "no_lexicon"
    state, events = RULES.apply(state, 0, {"type": "word", "cards": ids[0][::-1]}, CTX)
    assert censor(events[0], 0)["play"]["lookup"]["key"] == "DOG"


def test_laid_cards_leave_the_hand_and_stay_face_down_until_the_reveal():
    state = with_dog()
    ids = give(state, {1: ["GY", "CRB", "AR", "TG"]})
    state, _ = RULES.apply(state, 1, shave(0, ids[1][0], 2), CTX)
    state, _ = RULES.apply(state, 1, {"type": "word", "cards": ids[1][1:]}, CTX)
    assert not set(ids[1]) & set(state["hands"][1])
    assert sorted(card_places(state)["face down 1"]) == sorted(ids[1])
    assert_every_card_in_one_place(state)


# -- hidden until the reveal ---------------------------------------------------------------------------------------
def test_others_see_who_is_ready_and_how_many_cards_lie_where_but_not_what():
    state = with_dog()
    ids = give(state, {1: ["joker", "CRB", "AR", "TG"], 2: ["GY"]})
    cat = [ids[1][1], ids[1][2], ids[1][3]]
    state, _ = RULES.apply(state, 1, joker(0, ids[1][0]), CTX)
    laid_cat, _ = RULES.apply(state, 1, {"type": "word", "cards": cat}, CTX)
    laid_act, _ = RULES.apply(state, 1, {"type": "word", "cards": [cat[1], cat[0], cat[2]]}, CTX)
    for seat in (None, 0, 2, 3):
        assert RULES.view(laid_cat, seat) == RULES.view(laid_act, seat)
    seen = RULES.view(laid_cat, 2)["body"]["round"]
    assert seen["seats"][1] == {"ready": True, "preplay_cards": 1, "preplay_words": [0], "play_cards": 3}
    assert seen["mine"] == {"preplay": None, "play": None}
    mine = RULES.view(laid_cat, 1)["body"]["round"]["mine"]
    assert mine["play"]["letters"] == "CAT"
    assert mine["preplay"][0]["kind"] == "joker"
    assert RULES.view(laid_act, 1)["body"]["round"]["mine"]["play"]["letters"] == "ACT"
    assert "joker" not in json.dumps(RULES.view(laid_cat, 2)["body"]["round"])


def test_a_joker_and_a_shave_look_alike_to_the_others():
    state = with_dog()
    ids = give(state, {1: ["joker", "GY"]})
    jokered, _ = RULES.apply(state, 1, joker(0, ids[1][0]), CTX)
    shaved, _ = RULES.apply(state, 1, shave(0, ids[1][1], 2), CTX)
    for seat in (None, 0, 2):
        before = RULES.view(jokered, seat)
        assert before == RULES.view(shaved, seat)
    assert RULES.view(jokered, 1) != RULES.view(shaved, 1)


def test_laying_events_keep_their_secrets_from_the_other_seats():
    state = with_dog()
    ids = give(state, {1: ["GY", "CRB", "AR", "TG"]})
    state, preplay_events = RULES.apply(state, 1, shave(0, ids[1][0], 2), CTX)
    state, play_events = RULES.apply(state, 1, {"type": "word", "cards": ids[1][1:]}, CTX)
    laid = [e for e in preplay_events + play_events if e["type"] in ("preplay_laid", "play_laid")]
    assert [e["type"] for e in laid] == ["preplay_laid", "play_laid"]
    for ev in laid:
        for seat in (None, 0, 2, 5):
            shown = censor(ev, seat)
            assert "pieces" not in shown
            assert "play" not in shown
            assert str(ids[1][0]) not in json.dumps(shown)
        assert ("pieces" in censor(ev, 1)) or ("play" in censor(ev, 1))
    assert censor(laid[0], 2)["words"] == [0]
    assert censor(laid[1], 2)["count"] == 3


# -- the reveal ----------------------------------------------------------------------------------------------------
def test_reveal_waits_for_the_last_player_then_resolves_pre_plays_before_plays():
    state = with_dog()
    ids = give(state, {0: ["CRB", "AR", "TG"], 1: ["GY"], 2: ["SG"]})
    state, events = play_round(
        state,
        {
            0: [{"type": "word", "cards": ids[0]}],
            1: [shave(0, ids[1][0], 2)],
            2: [{"type": "build", "seat": 0, "after": [ids[2][0]]}],
        },
    )
    kinds = [e["type"] for e in events]
    reveal = kinds.index("revealed")
    assert kinds.index("round") == len(kinds) - 1
    assert reveal < kinds.index("shaved") < kinds.index("placed")
    assert kinds[:reveal].count("play_laid") == 6  # nobody is revealed before everyone is ready
    # the shave hit the old DOG; the build took the shaved DOG for its face values; seat 0's CAT is new
    assert gained(events, 1) == 5
    assert gained(events, 0) == -5 + 5
    assert gained(events, 2) == (2 + 1 + 5) + 1
    assert state["table"][2]["letters"] == list("DOGS")
    assert state["table"][0]["letters"] == list("CAT")
    assert ids[1][0] in state["discard"]
    assert_every_card_in_one_place(state)


def test_pre_plays_hit_last_rounds_words_not_the_new_ones():
    state = with_dog()
    ids = give(state, {0: ["CRB", "AR", "TG"], 3: ["joker"]})
    state, events = play_round(state, {0: [{"type": "word", "cards": ids[0]}], 3: [joker(0, ids[3][0])]})
    assert gained(events, 0, "jokered") == -8
    assert gained(events, 0, "word") == 5
    assert state["table"][0]["letters"] == list("CAT")
    assert state["table"][0]["value"] == 5
    assert ids[3][0] in state["discard"]


def test_every_old_word_leaves_the_table_at_the_reveal():
    state = with_dog()
    state, events = play_round(state, {})
    assert state["table"] == [None] * 6
    assert any(e["type"] == "word_discarded" and e["seat"] == 0 for e in events)
    assert_every_card_in_one_place(state)


def test_everyone_draws_back_to_seven_after_the_reveal_and_a_new_round_starts():
    state = with_dog()
    assert [len(h) for h in state["hands"]] == [7] * 6
    assert state["round"]["no"] == 2
    assert RULES.status(state).to_act == tuple(range(6))


def test_vowel_play_and_exchange_resolve_at_the_reveal():
    state, _ = new(6)
    ids = give(state, {1: ["AR", "EB", "IG", "OY", "UR", "YR"], 2: ["QRB", "ZRB"]})
    pile = len(state["pile"])
    state, _ = RULES.apply(state, 1, {"type": "vowels", "cards": ids[1]}, CTX)
    state, _ = RULES.apply(state, 2, {"type": "exchange", "cards": ids[2]}, CTX)
    assert RULES.scores(state).total[1] == 0
    assert len(state["pile"]) == pile
    state, events = play_round(state, {})
    assert gained(events, 1, "vowels") == 20
    assert [len(h) for h in state["hands"]] == [7] * 6
    assert len(state["pile"]) == pile + 8 - 6 * 7
    assert_every_card_in_one_place(state)


def test_exchanged_cards_stay_secret_at_the_reveal():
    state, _ = new(6)
    ids = give(state, {2: ["QRB", "ZRB"]})
    state, _ = RULES.apply(state, 2, {"type": "exchange", "cards": ids[2]}, CTX)
    assert RULES.view(state, 2)["body"]["round"]["mine"]["play"]["cards"] == ids[2]
    state, events = play_round(state, {})
    revealed = next(e for e in events if e["type"] == "revealed")
    assert revealed["plays"][2] == {"type": "exchange", "count": 2, "cards": []}
    assert all(ids[2][0] not in e.get("cards", []) for e in events if e["type"] != "drew")


# -- conflicts: all allowed as though there were only one play -------------------------------------------------------
def test_two_shaves_of_the_same_card_each_gain_it_and_the_owner_loses_it_once():
    state = with_dog(shaving="last_and_next")
    ids = give(state, {1: ["GY"], 5: ["GR*3"]})
    state, events = play_round(state, {1: [shave(0, ids[1][0], 2)], 5: [shave(0, ids[5][0], 2)]})
    assert gained(events, 1) == 5
    assert gained(events, 5) == 5
    assert gained(events, 0) == -5
    assert RULES.scores(state).total == [3, 5, 0, 0, 0, 5]
    assert set(ids[1] + ids[5]) <= set(state["discard"])


def test_two_shaves_of_different_cards_both_come_off_the_word():
    state = with_dog(shaving="anyone")
    ids = give(state, {1: ["OB"], 3: ["GY"]})
    state, events = play_round(state, {1: [shave(0, ids[1][0], 1)], 3: [shave(0, ids[3][0], 2)]})
    assert gained(events, 1) == 1
    assert gained(events, 3) == 5
    assert gained(events, 0) == -6
    assert RULES.scores(state).total == [2, 1, 0, 5, 0, 0]


def test_two_jokers_on_one_word_cost_its_owner_the_word_once():
    state = with_dog()
    ids = give(state, {2: ["joker"], 4: ["joker"]})
    state, events = play_round(state, {2: [joker(0, ids[2][0])], 4: [joker(0, ids[4][0])]})
    assert [e["removed"] for e in events if e["type"] == "jokered"] == [8, 8]
    assert gained(events, 0) == -8
    assert RULES.scores(state).total == [0] * 6
    assert {ids[2][0], ids[4][0]} <= set(state["discard"])


def test_a_shave_and_a_joker_on_one_word_credit_the_shaver_and_cost_the_owner_the_word():
    state = with_dog()
    ids = give(state, {1: ["GY"], 3: ["joker"]})
    state, events = play_round(state, {1: [shave(0, ids[1][0], 2)], 3: [joker(0, ids[3][0])]})
    assert gained(events, 1, "shave") == 5
    assert gained(events, 0) == -8
    assert RULES.scores(state).total == [0, 5, 0, 0, 0, 0]


def test_two_builds_on_one_word_both_score_and_the_first_after_the_owner_gets_the_cards():
    state = with_dog()
    ids = give(state, {2: ["SG"], 4: ["SY*2"]})
    state, events = play_round(
        state,
        {
            4: [{"type": "build", "seat": 0, "after": [ids[4][0]]}],
            2: [{"type": "build", "seat": 0, "after": [ids[2][0]]}],
        },
    )
    assert gained(events, 2) == 8 + 1  # D O G at face value, S green
    assert gained(events, 4) == 8 + 1 * 2  # the yellow S has two stars
    assert state["table"][2]["letters"] == list("DOGS")
    assert state["table"][4] is None
    assert ids[4][0] in state["discard"]
    loser = next(e for e in events if e["type"] == "placed" and e["seat"] == 4)
    assert loser["on_table"] is False
    assert RULES.scores(state).total == [8, 0, 9, 0, 10, 0]
    assert_every_card_in_one_place(state)


def test_seat_order_for_builds_runs_round_the_table_from_the_owner():
    state, _ = new(6)
    ids = give(state, {4: DOG})
    state, _ = play_round(state, {4: [{"type": "word", "cards": ids[4]}]})
    ids = give(state, {1: ["SG"], 5: ["SR"]})
    state, _ = play_round(
        state,
        {
            1: [{"type": "build", "seat": 4, "after": [ids[1][0]]}],
            5: [{"type": "build", "seat": 4, "after": [ids[5][0]]}],
        },
    )
    assert state["table"][5]["letters"] == list("DOGS")
    assert state["table"][1] is None
    assert ids[1][0] in state["discard"]


# -- the end ---------------------------------------------------------------------------------------------------------
def fillers(seats):
    """Seven one-point cards without stars for each seat: each hand's penalty is 7."""
    letters = iter("E" * 12 + "I" * 10 + "A" * 9 + "T" * 5 + "O" * 6)
    return {seat: [next(letters) for _ in range(7)] for seat in seats}


def test_the_game_ends_at_once_when_the_pile_cannot_refill_every_hand():
    state, _ = new(6)
    ids = give(state, {0: [*DOG, "OB", "OG", "OY", "AB"], **fillers(range(1, 6))})
    spare = state["pile"][:2]
    state["discard"] += state["pile"][2:]
    state["pile"] = spare
    state, events = play_round(state, {0: [{"type": "word", "cards": ids[0][:3]}]})
    assert state["finished"]
    assert state["end_reason"] == "pile_short"
    assert state["pile"] == spare
    assert len(state["hands"][0]) == 4
    assert gained(events, 0) == 8 - 4
    assert [gained(events, s, "penalty") for s in range(1, 6)] == [-7] * 5
    assert not any(e["type"] == "score" and e["reason"] == "final_play" for e in events)
    assert offered(state, 0) == []
    assert RULES.status(state).finished


def test_the_game_goes_on_while_the_pile_can_refill_every_hand():
    state, _ = new(6)
    ids = give(state, {0: [*DOG, "OB", "OG", "OY", "AB"], **fillers(range(1, 6))})
    state["discard"] += state["pile"][3:]
    del state["pile"][3:]
    state, _ = play_round(state, {0: [{"type": "word", "cards": ids[0][:3]}]})
    assert not state["finished"]
    assert state["pile"] == []
    assert len(state["hands"][0]) == 7


@pytest.mark.parametrize("multiplier", [2, 3])
def test_a_player_who_uses_their_last_cards_in_the_last_round_gets_the_final_multiplier(multiplier):
    state, _ = new(6, final_multiplier=multiplier)
    ids = give(state, {0: DOG, **fillers(range(1, 6))})
    state["discard"] += state["pile"]
    state["pile"] = []
    state, events = play_round(state, {0: [{"type": "word", "cards": ids[0]}]})
    assert state["finished"]
    assert gained(events, 0, "final_play") == 8 * (multiplier - 1)
    assert RULES.scores(state).total[0] == 8 * multiplier


def test_a_round_of_passes_with_an_empty_pile_and_full_hands_ends_the_game():
    state, _ = new(6)
    give(state, fillers(range(6)))
    state["discard"] += state["pile"]
    state["pile"] = []
    state, events = play_round(state, {})
    assert state["finished"]
    assert state["end_reason"] == "no_plays"
    assert score_totals(events, 6) == [-7] * 6


# -- the impatient timer and removal ---------------------------------------------------------------------------------
def test_when_the_timer_runs_out_everyone_not_ready_passes():
    state, _ = new(6, impatient_timer=True)
    ids = give(state, {0: DOG, 1: ["joker"]})
    state, _ = RULES.apply(state, 0, {"type": "word", "cards": ids[0]}, CTX)
    assert "start_timer" in offered(state, 0)
    state, events = RULES.apply(state, 0, {"type": "start_timer"}, Context(WORDS, now=10.0))
    assert events[0]["waiting_for"] == [1, 2, 3, 4, 5]
    assert error_code(state, 3, {"type": "timer_expired"}, Context(WORDS, now=69.0)) == "not_allowed"
    state, events = RULES.apply(state, 3, {"type": "timer_expired"}, Context(WORDS, now=70.0))
    assert [e["seat"] for e in events if e["type"] == "timed_out"] == [1, 2, 3, 4, 5]
    assert state["table"][0]["letters"] == list("DOG")
    assert state["round"]["no"] == 2
    assert state["timer"] is None


def test_a_removed_player_gives_back_hand_and_face_down_cards_and_the_round_goes_on_without_them():
    state = with_dog()
    ids = give(state, {0: ["CRB", "AR", "TG"], 1: ["joker"]})
    state, _ = RULES.apply(state, 1, joker(0, ids[1][0]), CTX)
    state, _ = RULES.apply(state, 0, {"type": "word", "cards": ids[0]}, CTX)
    pile = len(state["pile"])
    state, events = RULES.remove_player(state, 0, CTX)
    assert state["hands"][0] == []
    assert card_places(state)["face down 0"] == []
    assert len(state["pile"]) == pile + 3
    assert state["table"][0]["letters"] == list("DOG")  # it stays until the reveal: seat 1 jokered it
    assert RULES.status(state).to_act == (1, 2, 3, 4, 5)
    state, events = play_round(state, {})
    assert gained(events, 0, "jokered") == -8
    assert state["table"][0] is None
    assert RULES.status(state).to_act == (1, 2, 3, 4, 5)
    assert_every_card_in_one_place(state)


def test_removing_the_last_player_not_ready_reveals_the_round():
    state, _ = new(6)
    ids = give(state, {0: DOG})
    state, _ = RULES.apply(state, 0, {"type": "word", "cards": ids[0]}, CTX)
    for seat in (1, 2, 3, 4):
        state, _ = RULES.apply(state, seat, {"type": "pass"}, CTX)
    state, events = RULES.remove_player(state, 5, CTX)
    assert any(e["type"] == "revealed" for e in events)
    assert state["table"][0]["letters"] == list("DOG")


# -- whole random games (the invariants and replay are checked by the contract suite) -------------------------
def test_random_simultaneous_games_reach_the_end_through_conflicts():
    games = [play_random_game(6, {"simultaneous": True}, seed, 1500, lexicon=EveryWord([])) for seed in range(3)]
    assert any(state["end_reason"] == "pile_short" for state, _, _ in games)
    events = [e for _, game_events, _ in games for e in game_events]
    assert any(e["type"] == "placed" and e.get("on_table") is False for e in events)
    assert any(e["type"] == "score" and e["reason"] == "shave" for e in events)
