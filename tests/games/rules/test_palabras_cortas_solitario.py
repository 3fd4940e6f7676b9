"""Palabras Cortas solitaire: eight piles, words from the showing cards, refills, win, stuck, give up."""

import json
import random
import zlib

import pytest

from games.engine import AppError, Context, WordSet, score_totals
from games.rules import palabras_cortas
from games.rules.palabras_cortas_solitario import DEALT, PILES, RULES
from lexicons.normalise import spanish_key

CTX = Context(WordSet(["sol", "el", "la", "oso", "sal", "mesa", "es", "de", "niño"], "spa", normalise=spanish_key))


def arrange(piles, deck="standard"):
    """Piles given bottom to top as letters; every other card goes to the box."""
    state, _ = RULES.new_game(1, {"deck": deck}, seed=5)
    cards = palabras_cortas.DECKS[deck]
    pool = list(range(len(cards)))

    def pick(letters):
        card = next(i for i in pool if cards[i]["letters"] == letters)
        pool.remove(card)
        return card

    state["piles"] = [[pick(c) for c in pile] for pile in piles]
    state["box"] = pool
    return state


def top(state, pile):
    return state["piles"][pile][-1]


def word(state, *piles, ctx=CTX):
    return RULES.apply(state, 0, {"type": "word", "cards": [top(state, p) for p in piles]}, ctx)


def refill(state, pile, source):
    return RULES.apply(state, 0, {"type": "refill", "pile": pile, "source": source}, CTX)


def places(state):
    return sorted([i for p in state["piles"] for i in p] + state["box"] + [i for w in state["words"] for i in w])


FILLER = [["K", "J"], ["W", "X"], ["Z", "Q"], ["K", "E"], ["J", "S"]]  # piles 3-7: E and S showing


# -- the deal ---------------------------------------------------------------------------------------------------
def test_eight_piles_of_five_face_down_and_one_face_up():
    state, events = RULES.new_game(1, {}, seed=1)
    assert [len(p) for p in state["piles"]] == [6] * PILES
    assert DEALT == 48
    assert len(state["box"]) == 118 - 48
    assert places(state) == list(range(118))
    view = RULES.view(state, 0)["body"]
    assert [p["count"] for p in view["piles"]] == [6] * 8
    assert [p["top"]["id"] for p in view["piles"]] == [p[-1] for p in state["piles"]]
    assert [c["id"] for c in events[0]["showing"]] == [p[-1] for p in state["piles"]]


def test_face_down_cards_never_appear_in_the_view_or_events():
    state, events = RULES.new_game(1, {"deck": "spanish"}, seed=2)
    hidden = {i for p in state["piles"] for i in p[:-1]} | set(state["box"])
    text = json.dumps([RULES.view(state, 0), RULES.view(state, None), events])
    shown = {int(part.split(",")[0].split("}")[0]) for part in text.split('"id": ')[1:]}
    assert shown.isdisjoint(hidden)
    assert len(shown) == PILES


def test_only_one_player():
    with pytest.raises(AppError) as err:
        RULES.new_game(2, {}, 1)
    assert err.value.code == "bad_players"


# -- words ------------------------------------------------------------------------------------------------------
def test_a_word_from_showing_cards_turns_up_the_cards_beneath_and_scores_its_points():
    state = arrange([["M", "S"], ["A", "O"], ["E", "L"], *FILLER])
    state, events = word(state, 0, 1, 2)
    assert events[0]["word"] == "SOL"
    assert events[0]["key"] == "SOL"
    assert {p: c["letters"] for p, c in events[0]["revealed"].items()} == {"0": "M", "1": "A", "2": "E"}
    assert events[1] == {"type": "score", "seat": 0, "points": 8, "reason": "word", "word": "SOL"}
    assert RULES.scores(state).total == [8]
    assert state["phase"] == "play"
    assert places(state) == list(range(118))


def test_only_showing_cards_make_words():
    state = arrange([["M", "S"], ["A", "O"], ["E", "L"], *FILLER])
    hidden_a = state["piles"][1][0]
    with pytest.raises(AppError) as err:
        RULES.apply(state, 0, {"type": "word", "cards": [top(state, 0), hidden_a, top(state, 2)]}, CTX)
    assert err.value.code == "not_held"


def test_a_word_missing_from_the_lexicon_is_named():
    state = arrange([["M", "S"], ["A", "O"], ["E", "L"], *FILLER])
    with pytest.raises(AppError) as err:
        word(state, 1, 0, 2)
    assert err.value.code == "not_a_word"
    assert "OSL" in err.value.message


@pytest.mark.parametrize(
    ("cards", "code"), [([], "not_a_word"), (None, "bad_action"), (["x", "y"], "bad_action"), ("SOL", "bad_action")]
)
def test_malformed_words_are_refused(cards, code):
    state = arrange([["M", "S"], ["A", "O"], ["E", "L"], *FILLER])
    with pytest.raises(AppError) as err:
        RULES.apply(state, 0, {"type": "word", "cards": cards}, CTX)
    assert err.value.code == code


def test_unknown_actions_and_fields_are_refused():
    state = arrange([["M", "S"], ["A", "O"], ["E", "L"], *FILLER])
    for action in ({"type": "shuffle"}, {"type": "give_up", "now": True}):
        with pytest.raises(AppError) as err:
            RULES.apply(state, 0, action, CTX)
        assert err.value.code == "bad_action"


def test_the_same_card_twice_is_refused():
    state = arrange([["M", "S"], ["A", "O"], ["E", "L"], *FILLER])
    with pytest.raises(AppError) as err:
        RULES.apply(state, 0, {"type": "word", "cards": [top(state, 1)] * 3}, CTX)
    assert err.value.code == "bad_action"


def test_spanish_deck_enye_is_its_own_letter():
    state = arrange([["N"], ["I"], ["Ñ"], ["O"], ["K", "J"], ["W", "X"], ["Z", "Q"], ["K", "E"]], deck="spanish")
    state, events = word(state, 0, 1, 2, 3)
    assert events[0]["key"] == "NIÑO"


# -- refills ----------------------------------------------------------------------------------------------------
def test_an_emptied_pile_waits_for_a_refill_from_a_face_down_card():
    state = arrange([["M", "S"], ["O"], ["A", "L"], *FILLER])
    state, _ = word(state, 0, 1, 2)
    assert state["phase"] == "refill"
    view = RULES.view(state, 0)
    assert [a["type"] for a in view["actions"]] == ["refill", "give_up"]
    refill_fields = {f["name"]: f["choices"] for f in view["actions"][0]["fields"]}
    assert refill_fields["pile"] == [1]
    assert refill_fields["source"] == [3, 4, 5, 6, 7]
    with pytest.raises(AppError) as err:
        word(state, 6, 7)
    assert err.value.code == "wrong_phase"
    turned = state["piles"][6][0]
    state, events = refill(state, 1, 6)
    assert state["piles"][1] == [turned]
    assert len(state["piles"][6]) == 1
    assert events[0]["card"]["letters"] == "K"
    assert state["phase"] == "play"


@pytest.mark.parametrize(
    ("pile", "source", "code"), [(0, 3, "not_allowed"), (1, 0, "not_allowed"), (1, 9, "bad_action")]
)
def test_a_refill_needs_an_empty_pile_and_a_face_down_card(pile, source, code):
    state, _ = word(arrange([["M", "S"], ["O"], ["A", "L"], *FILLER]), 0, 1, 2)
    with pytest.raises(AppError) as err:
        refill(state, pile, source)
    assert err.value.code == code


def test_refill_outside_the_refill_phase_is_refused():
    with pytest.raises(AppError) as err:
        refill(arrange([["M", "S"], ["O"], ["A", "L"], *FILLER]), 1, 3)
    assert err.value.code == "wrong_phase"


def test_several_empty_piles_are_refilled_one_at_a_time():
    state = arrange([["S"], ["O"], ["L"], *FILLER])
    state, _ = word(state, 0, 1, 2)
    state, _ = refill(state, 0, 3)
    assert state["phase"] == "refill"
    state, _ = refill(state, 2, 4)
    assert state["phase"] == "refill"
    state, _ = refill(state, 1, 7)
    assert state["phase"] == "play"
    assert all(state["piles"])


def test_without_face_down_cards_empty_piles_stay_empty():
    state = arrange([["S"], ["O"], ["L"], ["E"], ["S"], ["D"], ["E"], ["J"]])
    state, events = word(state, 0, 1, 2)
    assert state["phase"] == "play"
    assert events[-1]["type"] == "score"
    assert [len(p) for p in state["piles"]] == [0, 0, 0, 1, 1, 1, 1, 1]


# -- the end ----------------------------------------------------------------------------------------------------
def test_using_every_card_wins():
    state = arrange([["S"], ["O"], ["L"], ["E"], ["S"], ["D"], ["E"], []])
    state, _ = word(state, 0, 1, 2)
    state, _ = word(state, 3, 4)
    state, events = word(state, 5, 6)
    assert state["phase"] == "finished"
    assert state["result"] == "won"
    assert events[-1] == {"type": "game_over", "result": "won", "cards_used": 7, "total": 8 + 5 + 7}


def test_showing_cards_that_spell_nothing_end_the_game_stuck():
    state = arrange([["S"], ["O"], ["L"], ["K"], ["J"], ["W"], ["X"], ["Q"]])
    state, events = word(state, 0, 1, 2)
    assert state["result"] == "stuck"
    assert events[-1]["result"] == "stuck"
    assert RULES.status(state).finished
    assert RULES.view(state, 0)["actions"] == []
    with pytest.raises(AppError) as err:
        word(state, 3, 4)
    assert err.value.code == "game_over"


def test_a_single_card_left_showing_is_stuck():
    state = arrange([["S"], ["O"], ["L"], ["K"], [], [], [], []])
    state, _ = word(state, 0, 1, 2)
    assert state["result"] == "stuck"


def test_giving_up_ends_the_game_with_the_points_so_far():
    state, _ = word(arrange([["M", "S"], ["A", "O"], ["E", "L"], *FILLER]), 0, 1, 2)
    state, events = RULES.apply(state, 0, {"type": "give_up"}, CTX)
    assert events == [{"type": "game_over", "result": "gave_up", "cards_used": 3, "total": 8}]
    assert RULES.status(state).finished


def test_removal_abandons_the_game():
    state, _ = RULES.new_game(1, {}, 3)
    state, events = RULES.remove_player(state, 0, CTX)
    assert state["result"] == "abandoned"
    assert events[0]["type"] == "game_over"


def test_only_the_player_acts():
    state, _ = RULES.new_game(1, {}, 3)
    for seat in (None, 1):
        with pytest.raises(AppError) as err:
            RULES.apply(state, seat, {"type": "give_up"}, CTX)
        assert err.value.code == "not_allowed"
    assert RULES.view(state, None)["actions"] == []


# -- random play ------------------------------------------------------------------------------------------------
class SomeWords:
    """Accepts most spellings (by checksum), so random play both wins and gets stuck."""

    language = "spa"

    def __init__(self, keep: int) -> None:
        self.keep = keep

    def normalise(self, text: str) -> str:
        return spanish_key(text)

    def is_word(self, key: str) -> bool:
        return zlib.crc32(key.encode()) % 10 < self.keep

    def analyses(self, key: str) -> list:
        return []


def random_solitaire(seed, ctx):
    rng = random.Random(seed)
    state, log = RULES.new_game(1, {"deck": rng.choice(["standard", "spanish"])}, seed)
    moves = []
    while state["phase"] != "finished":
        if state["phase"] == "refill":
            choices = {f["name"]: f["choices"] for f in RULES.view(state, 0)["actions"][0]["fields"]}
            action = {"type": "refill", "pile": choices["pile"][0], "source": rng.choice(choices["source"])}
        elif rng.random() < 0.01:
            action = {"type": "give_up"}
        else:
            showing = [p[-1] for p in state["piles"] if p]
            action = {"type": "word", "cards": rng.sample(showing, rng.randint(2, len(showing)))}
        try:
            state, events = RULES.apply(state, 0, action, ctx)
        except AppError as err:
            assert err.code == "not_a_word"
            continue
        moves.append(action)
        log += events
        deck_size = len(palabras_cortas.DECKS[state["options"]["deck"]])
        assert places(state) == list(range(deck_size))
        assert score_totals(log, 1) == RULES.scores(state).total
        assert json.loads(json.dumps(state)) == state
    return state, log, moves


@pytest.mark.parametrize("keep", [9, 5])
def test_random_solitaires_conserve_cards_score_by_events_and_replay(keep):
    ctx = Context(SomeWords(keep))
    results = set()
    for seed in range(60):
        state, log, moves = random_solitaire(seed, ctx)
        results.add(state["result"])
        again, replay_log = RULES.new_game(1, state["options"], seed)
        for action in moves:
            again, events = RULES.apply(again, 0, action, ctx)
            replay_log += events
        assert (again, replay_log) == (state, log)
        if state["result"] == "won":
            assert sum(len(w) for w in state["words"]) == DEALT
    assert "stuck" in results
