"""Palabra over whole random games played from the views (the contract suite checks every game's invariants; these
are Palabra's own): games reach their end, hands never exceed seven cards, and a view does not change when only
what its viewer cannot see is dealt differently."""

import copy
import random

from games.engine import AppError, Context, WordSet, censor
from games.rules.palabra import RULES
from tests.games.contract.cases import PALABRA_WORDS, _palabra_choose, case_for

CASE = case_for("palabra")


class EveryWord(WordSet):
    """Takes any spelling, so random players' words and builds stand and a simultaneous table fills with conflicts."""

    def is_word(self, key):
        return True


def play_random_game(players, options, seed, steps, lexicon=PALABRA_WORDS):
    """A game played only from what each view offers, filled by the contract case's chooser; returns the state,
    every event and the log of accepted moves."""
    rng = random.Random(seed)
    state, events = RULES.new_game(players, options, seed)
    log = []
    now = 0.0
    for _ in range(steps):
        status = RULES.status(state)
        if status.finished:
            break
        now += rng.choice([1.0, 30.0, 70.0])
        ctx = Context(lexicon, now)
        seat = None if rng.random() < 0.03 else rng.choice(status.to_act or [None])
        view = RULES.view(state, seat)
        if not view["actions"]:
            continue
        spec = rng.choice(view["actions"])
        action = _palabra_choose(RULES, view, spec, rng) or {"type": spec["type"]}
        for field in spec["fields"]:
            if field["name"] not in action and field.get("choices"):
                action[field["name"]] = rng.choice(field["choices"])
        try:
            state, new_events = RULES.apply(state, seat, action, ctx)
        except AppError:
            continue
        log.append((seat, action, now))
        events += new_events
        assert all(len(hand) <= 7 for hand in state["hands"])
    return state, events, log


def test_some_random_games_reach_the_end():
    finished = [play_random_game(3, {}, seed, steps=1500)[0]["finished"] for seed in range(4)]
    assert any(finished)


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


def test_views_never_show_another_players_hand():
    for players, seed in [(2, 1), (3, 2), (4, 3), (6, 4)]:
        state, events, _ = play_random_game(players, {}, seed, steps=150)
        for seat in [None, *range(players)]:
            view = RULES.view(state, seat)
            body = view["body"]
            assert body["hand_counts"] == [len(h) for h in state["hands"]]
            if seat is None:
                assert body["hand"] is None
            else:
                assert [c["id"] for c in body["hand"]] == state["hands"][seat]
            assert RULES.view(reshuffle_hidden(state, seat, random.Random(seed)), seat) == view
            for ev in events:
                if ev["type"] == "drew":
                    assert ("cards" in censor(ev, seat)) == (seat == ev["seat"])
