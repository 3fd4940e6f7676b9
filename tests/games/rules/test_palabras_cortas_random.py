"""Palabras Cortas invariants over many random games played with random legal (and some illegal) actions."""

import json
import random
import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import AppError, Context, censor, score_totals
from games.rules.palabras_cortas import DECKS, RULES
from lexicons.normalise import spanish_key


class SomeWords:
    """Accepts a fixed two thirds of all spellings (by checksum), so random play meets words and non-words."""

    language = "spa"

    def normalise(self, text: str) -> str:
        return spanish_key(text)

    def is_word(self, key: str) -> bool:
        return zlib.crc32(key.encode()) % 3 != 0

    def analyses(self, key: str) -> list:
        return []


CTX = Context(SomeWords())
GARBAGE = [
    {"type": "discard", "card": -1},
    {"type": "discard", "card": 10_000},
    {"type": "discard", "card": "A"},
    {"type": "go_out", "words": [[1]], "card": 2},
    {"type": "go_out", "words": None},
    {"type": "lay_down", "words": [["x", "y"]], "card": 0},
    {"type": "challenge", "seat": 0, "word": 99},
    {"type": "draw_stock", "extra": True},
    {"type": "ready"},
    {"type": "advance"},
    {"type": "shuffle"},
]


def partition(rng, cards):
    """Random words (at least two cards each) from ``cards``, in random order, using all of them."""
    cards = cards[:]
    rng.shuffle(cards)
    words = []
    while len(cards) >= 2:
        size = rng.randint(2, len(cards)) if len(cards) >= 4 else len(cards)
        if len(cards) - size == 1:
            size -= 1
        words.append(cards[:size])
        cards = cards[size:]
    return words, cards


def choose(rng, state):
    """A random action by a seat (or the teacher) that may act now, mostly legal."""
    phase = state["phase"]
    if phase == "review":
        if rng.random() < 0.05:
            return None, {"type": "advance"}
        seat = rng.choice(list(RULES.status(state).to_act))
        actions = RULES.actions(state, seat)
        if "challenge" in actions and rng.random() < 0.4:
            targets = [(s, i) for s, words in enumerate(state["laid"]) if s != seat for i in range(len(words))]
            target, index = rng.choice(targets)
            return seat, {"type": "challenge", "seat": target, "word": index}
        return seat, {"type": "ready"}
    seat = state["turn"]
    actions = RULES.actions(state, seat)
    if phase == "draw":
        return seat, {"type": rng.choice(actions)}
    hand = state["hands"][seat]
    discard = rng.choice(hand)
    if "go_out" in actions and rng.random() < 0.3:
        words, _ = partition(rng, [c for c in hand if c != discard])
        return seat, {"type": "go_out", "words": words, "card": discard}
    if "lay_down" in actions:
        words, _ = partition(rng, [c for c in hand if c != discard])
        if state["options"]["checking"] == "automatic":
            words = [w for w in words if CTX.lexicon.is_word(spanish_key(spell(state, w)))]
        return seat, {"type": "lay_down", "words": words[: rng.randint(0, len(words))], "card": discard}
    return seat, {"type": "discard", "card": discard}


def spell(state, ids):
    deck = DECKS[state["options"]["deck"]]
    return "".join(deck[i]["letters"] for i in ids)


def faces(value):
    """Every card face (a dict with id, letters and points) inside a view or event."""
    if isinstance(value, dict):
        found = [value["id"]] if {"id", "letters", "points"} <= set(value) else []
        return found + [i for v in value.values() for i in faces(v)]
    if isinstance(value, list):
        return [i for v in value for i in faces(v)]
    return []


def check(state, log, step_events, views=True):
    deck_size = len(DECKS[state["options"]["deck"]])
    laid = [i for seat in state["laid"] for w in seat for i in w]
    places = [i for h in state["hands"] for i in h] + state["stock"] + state["discard"] + laid + state["out_of_play"]
    assert sorted(places) == list(range(deck_size)), "every card in exactly one place"
    assert score_totals(log, state["players"]) == RULES.scores(state)
    if not views:
        return
    assert json.loads(json.dumps(state)) == state
    table = set(state["discard"][-1:]) | set(laid)
    for seat in [None, *range(state["players"])]:
        view = RULES.view(state, seat)
        own = set(state["hands"][seat]) if seat is not None else set()
        assert set(faces({k: v for k, v in view.items() if k != "history"})) <= own | table
        assert json.loads(json.dumps(view)) == view
        for ev in step_events:
            seen = censor(ev, seat)
            if ev["type"] == "dealt" or (ev["type"] == "draw" and ev["source"] == "stock"):
                assert not faces(seen) or seat == ev["seat"]


def play(seed, players, options, steps=500, removals=True, view_every=1):
    """A random game; returns the final state, the whole event log and the moves to replay it."""
    rng = random.Random(seed)
    state, log = RULES.new_game(players, options, seed)
    check(state, log, log)
    moves = []
    for _ in range(steps):
        if state["phase"] == "finished":
            break
        active = [s for s in range(players) if s not in state["removed"]]
        roll = rng.random()
        if removals and roll < 0.004 and len(active) > 1:
            move = ("remove", rng.choice(active), None)
        elif roll < 0.06:
            move = ("apply", rng.choice([None, *range(players)]), rng.choice(GARBAGE))
        else:
            move = ("apply", *choose(rng, state))
        before = json.dumps(state)
        try:
            state, events = run(state, move)
        except AppError as err:
            assert err.code
            assert err.message
            assert json.dumps(state) == before, "a refused action changes nothing"
            continue
        moves.append(move)
        log += events
        check(state, log, events, views=len(moves) % view_every == 0)
    return state, log, moves


def run(state, move):
    kind, seat, action = move
    if kind == "remove":
        return RULES.remove_player(state, seat, CTX)
    return RULES.apply(state, seat, action, CTX)


def replay(seed, players, options, moves):
    state, log = RULES.new_game(players, options, seed)
    for move in moves:
        state, events = run(state, move)
        log += events
    return state, log


OPTIONS = st.fixed_dictionaries(
    {
        "checking": st.sampled_from(["automatic", "challenge"]),
        "deck": st.sampled_from(["standard", "spanish"]),
        "floor_zero": st.booleans(),
        "two_player_bonus": st.sampled_from(["longest", "most"]),
        "refused_word": st.sampled_from(["void", "against"]),
    }
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 8), options=OPTIONS)
def test_random_games_keep_every_invariant_and_replay_exactly(seed, players, options):
    state, log, moves = play(seed, players, options, view_every=3)
    assert replay(seed, players, options, moves) == (state, log)


def test_hundreds_of_seeded_games_conserve_cards_and_scores():
    finished = 0
    for seed in range(150):
        players = 2 + seed % 7
        options = {"checking": ("automatic", "challenge")[seed % 2], "deck": ("standard", "spanish")[seed // 2 % 2]}
        state, _, _ = play(seed, players, options, steps=700, removals=seed % 5 == 0, view_every=10)
        finished += state["phase"] == "finished"
    assert finished > 100  # random play does reach the end of the eighth hand


def test_every_random_game_scores_each_finished_hand_once_per_active_player():
    for seed in range(20):
        _state, log, _ = play(seed, 4, {}, steps=700, removals=False, view_every=50)
        hands = [e for e in log if e["type"] == "hand_scored"]
        assert [e["hand_number"] for e in hands] == list(range(1, len(hands) + 1))
        assert all(set(e["scores"]) == {"0", "1", "2", "3"} for e in hands)
