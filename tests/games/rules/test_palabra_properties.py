"""Palabra invariants over random games played by a random (often illegal) player: every card in exactly one place,
scores equal to the sum of score events, states that survive JSON, and replays that reproduce the game."""

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import AppError, Context, WordSet, censor, score_totals
from games.rules.palabra import RULES, card_places
from games.rules.palabra.deck import ALPHABET, VOWELS, deck_for
from games.rules.palabra.scoring import is_vowel_card

LEXICON = WordSet(["a", "o", "at", "cat", "tea", "eat", "ate", "rat", "tar", "art", "ten", "net", "to", "no", "on"])


class EveryWord(WordSet):
    """Takes any spelling, so random players' words and builds stand and a simultaneous table fills with conflicts."""

    def is_word(self, key):
        return True


def random_action(state, seat, rng):
    """Something a player in ``seat`` might send: mostly sensible, sometimes nonsense."""
    view = RULES.view(state, seat)
    actions = view["actions"] or ["pass"]
    kind = rng.choice(actions)
    hand = [c["id"] for c in view["hand"] or []]
    deck = deck_for(state["options"])

    def spelled(cards):
        out = []
        for c in cards:
            face = deck[c]
            if face["kind"] == "wild":
                out.append({"card": c, "letter": rng.choice(ALPHABET)})
            elif face["kind"] == "vowel":
                out.append({"card": c, "letter": rng.choice(VOWELS)})
            else:
                out.append(c)
        return out

    sample = rng.sample(hand, rng.randint(1, len(hand))) if hand else []
    if kind == "joker":
        jokers = [c for c in hand if deck[c]["kind"] == "joker"]
        return {
            "type": "joker",
            "targets": [{"card": j, "seat": t} for j, t in zip(jokers, view["targets"]["joker"], strict=False)],
        }
    if kind == "shave":
        victim = rng.choice(view["targets"]["shave"])
        word = state["table"][victim]
        free = [at for at in range(len(word["cards"])) if at not in word["shaved"]]
        pieces = [{"card": c, "at": at} for c in hand for at in free if deck[c]["letter"] == word["letters"][at]] or [
            {"card": c, "at": rng.randrange(len(word["cards"]))} for c in sample[:1]
        ]
        return {"type": "shave", "seat": victim, "cards": pieces[:1]}
    if kind == "build" and view["targets"]["build"]:
        split = rng.randint(0, len(sample))
        return {
            "type": "build",
            "seat": rng.choice(view["targets"]["build"]),
            "before": spelled(sample[:split]),
            "after": spelled(sample[split:]),
        }
    if kind in ("word", "straight"):
        return {"type": kind, "cards": spelled(sample)}
    if kind == "flush":
        colour = rng.choice("RBGY")
        return {"type": "flush", "cards": [c for c in hand if colour in deck[c]["colors"]]}
    if kind == "vowels":
        return {
            "type": "vowels",
            "cards": [c for c in hand if is_vowel_card(deck[c])],
        }
    if kind in ("exchange",):
        return {"type": kind, "cards": sample}
    if kind == "vote":
        return {"type": "vote", "accept": rng.random() < 0.6}
    return {"type": kind}


def check_invariants(state, events_so_far):
    places = card_places(state)
    held = sorted(c for cards in places.values() for c in cards)
    assert held == list(range(len(deck_for(state["options"]))))
    assert score_totals(events_so_far, state["players"]) == RULES.scores(state)
    assert json.loads(json.dumps(state)) == state
    assert all(len(hand) <= 7 for hand in state["hands"])


def play_random_game(players, options, seed, steps, lexicon=LEXICON):
    rng = random.Random(seed)
    state, events = RULES.new_game(players, options, seed)
    log = []
    now = 0.0
    check_invariants(state, events)
    for _ in range(steps):
        status = RULES.status(state)
        if status.finished:
            break
        now += rng.choice([1.0, 30.0, 70.0])
        roll = rng.random()
        if roll < 0.01 and players > 2:
            seat = rng.choice(status.to_act)
            state, new_events = RULES.remove_player(state, seat, Context(lexicon, now))
            log.append(("remove", seat, None, now))
        else:
            seat = None if roll < 0.03 else rng.choice(status.to_act) if roll < 0.9 else rng.randrange(players)
            action = random_action(state, seat, rng) if seat is not None else {"type": "check"}
            try:
                state, new_events = RULES.apply(state, seat, action, Context(lexicon, now))
            except AppError:
                continue
            log.append(("apply", seat, action, now))
        events += new_events
        check_invariants(state, events)
    return state, events, log


def replay(players, options, seed, log, lexicon=LEXICON):
    state, _ = RULES.new_game(players, options, seed)
    for what, seat, action, now in log:
        if what == "remove":
            state, _ = RULES.remove_player(state, seat, Context(lexicon, now))
        else:
            state, _ = RULES.apply(state, seat, action, Context(lexicon, now))
    return state


OPTIONS = st.fixed_dictionaries(
    {
        "double_deck": st.booleans(),
        "checking": st.sampled_from(["vote", "auto"]),
        "short_words": st.sampled_from(["all", "common"]),
        "final_multiplier": st.sampled_from([2, 3]),
        "shaving": st.sampled_from(["previous", "last_and_next", "anyone"]),
        "eliminate_high_score": st.booleans(),
        "impatient_timer": st.booleans(),
    }
)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 8), options=OPTIONS, seed=st.integers(0, 2**31))
def test_random_games_keep_every_invariant_and_replay_exactly(players, options, seed):
    state, _events, log = play_random_game(players, options, seed, steps=400)
    assert replay(players, options, seed, log) == state


@settings(max_examples=20, deadline=None)
@given(players=st.integers(6, 12), options=OPTIONS, seed=st.integers(0, 2**31))
def test_random_simultaneous_games_keep_every_invariant_and_replay_exactly(players, options, seed):
    options = {
        **options,
        "simultaneous": True,
        "checking": "auto",
        "double_deck": options["double_deck"] or players > 8,
    }
    state, _events, log = play_random_game(players, options, seed, steps=400, lexicon=EveryWord([]))
    assert replay(players, options, seed, log, lexicon=EveryWord([])) == state


def reshuffle_hidden(state, seat, rng):
    """The same game except for what ``seat`` cannot see: other hands and the pile dealt afresh."""
    other = copy.deepcopy(state)
    hidden_seats = [s for s in range(state["players"]) if s != seat]
    cards = other["pile"] + [c for s in hidden_seats for c in other["hands"][s]]
    rng.shuffle(cards)
    for s in hidden_seats:
        count = len(other["hands"][s])
        other["hands"][s], cards = cards[:count], cards[count:]
    other["pile"] = cards
    return other


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_views_never_show_another_players_hand(players, seed):
    state, events, _ = play_random_game(players, {}, seed, steps=150)
    for seat in [None, *range(players)]:
        view = RULES.view(state, seat)
        assert view["hand_counts"] == [len(h) for h in state["hands"]]
        if seat is None:
            assert view["hand"] is None
        else:
            assert [c["id"] for c in view["hand"]] == state["hands"][seat]
        assert RULES.view(reshuffle_hidden(state, seat, random.Random(seed)), seat) == view
        for ev in events:
            if ev["type"] == "drew":
                assert ("cards" in censor(ev, seat)) == (seat == ev["seat"])


def test_some_random_games_reach_the_end():
    finished = [play_random_game(3, {}, seed, steps=1500)[0]["finished"] for seed in range(4)]
    assert any(finished)
