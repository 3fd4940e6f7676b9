"""Grabble invariants over random games: tiles conserved, board = the plays, scores = score events, JSON-ready."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import AppError, Context, censor, score_totals
from games.engine.board import coords, square, words_formed
from games.rules.grabble import CENTRE, RULES, SIZE, tile_bag

NOUN = {"case": "N", "number": "S", "gender": "M"}


class AnyWord:
    """A lexicon where every key is a noun λόγος, except keys whose length is 4, which it does not know
    (so strict tables refuse them and teacher tables ask for approval)."""

    language = "grc"

    def normalise(self, text):
        return text.upper()

    def is_word(self, key):
        return len(key) != 4

    def analyses(self, key):
        if not self.is_word(key):
            return []
        return [{"form": key.lower(), "lemma": "λόγος", "pos": "N", "parse": NOUN, "gloss": "word"}]


CTX = Context(lexicon=AnyWord())
RIGHT = {"lemma": "λόγος", "pos": "N", "parse": NOUN}
WRONG = {"lemma": "λόγος", "pos": "N", "parse": NOUN | {"case": "G"}}


def random_placement(state, seat, rnd):
    """Tiles from ``seat``'s rack laid in a line from a square next to the board (H8 on an empty board)."""
    bag = tile_bag(state["bag_size"])
    board = state["board"]
    rack = list(state["racks"][seat])
    if not rack:
        return None
    if board:
        starts = []
        for name in board:
            row, col = coords(name, SIZE)
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= r < SIZE and 0 <= c < SIZE and square(r, c) not in board:
                    starts.append((r, c))
        row, col = rnd.choice(starts)
    else:
        row, col = coords(CENTRE, SIZE)
    dr, dc = rnd.choice([(0, 1), (1, 0)])
    count = rnd.randint(1 if board else 2, min(len(rack), 6))
    rnd.shuffle(rack)
    tiles = []
    while len(tiles) < count and row < SIZE and col < SIZE:
        if square(row, col) not in board:
            tile = rack[len(tiles)]
            item = {"tile": tile, "square": square(row, col)}
            if bag[tile]["letter"] == "":
                item["letter"] = rnd.choice("ΑΕΟ")
            tiles.append(item)
        row, col = row + dr, col + dc
    return tiles


def parses_for(state, tiles, rnd):
    new = {t["square"]: t for t in tiles}
    bag = tile_bag(state["bag_size"])
    keys = []
    for run in words_formed(state["board"], new, SIZE):
        letters = []
        for name in run:
            if name in new:
                letters.append(new[name].get("letter") or bag[new[name]["tile"]]["letter"])
            else:
                letters.append(state["board"][name]["letter"])
        keys.append("".join(letters))
    return [{"word": key, **(RIGHT if rnd.random() < 0.9 else WRONG)} for key in dict.fromkeys(keys)]


def play_action(state, seat, rnd):
    kind = rnd.choices(["play", "pass", "exchange", "suggest"], [8, 1, 1, 1])[0]
    if kind == "play":
        tiles = random_placement(state, seat, rnd)
        try:
            parses = parses_for(state, tiles, rnd) if tiles else []
        except AppError:
            parses = []
        return {"type": "play", "tiles": tiles, "parses": parses}
    if kind == "exchange":
        rack = state["racks"][seat]
        return {"type": "exchange", "tiles": rnd.sample(rack, rnd.randint(1, max(1, len(rack))))}
    if kind == "suggest":
        return {"type": "suggest", "text": "λόγος"}
    return {"type": "pass"}


def next_move(state, rnd):
    """(seat, action) for a random but mostly sensible move in the current phase."""
    phase = state["phase"]
    if phase == "play":
        if rnd.random() < 0.02:
            return None, {"type": "end_play"}
        action = play_action(state, state["turn"], rnd)
        if action["type"] == "suggest":  # helpers are the other players
            return rnd.choice([s for s in range(state["players"]) if s != state["turn"]]), action
        return state["turn"], action
    if phase == "approval":
        return None, {"type": rnd.choice(["approve", "reject"])}
    if phase == "quiz":
        if rnd.random() < 0.1:
            return None, {"type": "close"}
        if rnd.random() < 0.1:
            play = rnd.randrange(state["quiz"]["play"] + 1)
            points = rnd.randint(0, state["plays"][play]["base"])
            return None, {"type": "credit", "play": play, "seat": rnd.randrange(state["players"]), "points": points}
        waiting = RULES.status(state).to_act
        seat = rnd.choice(waiting)
        words = dict.fromkeys(w["word"] for w in state["plays"][state["quiz"]["play"]]["words"])
        return seat, {"type": "answer", "parses": [{"word": w, **rnd.choice([RIGHT, RIGHT, WRONG])} for w in words]}
    return None, {"type": "finish"}


def check_invariants(state, events):
    bag = tile_bag(state["bag_size"])
    board_tiles = [sq["tile"] for sq in state["board"].values()]
    everywhere = state["bag"] + [t for rack in state["racks"] for t in rack] + board_tiles
    assert sorted(everywhere) == list(range(len(bag)))
    from_log = {t["square"]: {"tile": t["tile"], "letter": t["letter"]} for p in state["plays"] for t in p["tiles"]}
    assert from_log == state["board"]
    assert all(len(rack) <= 10 for rack in state["racks"])
    assert RULES.scores(state) == score_totals(events, state["players"])
    assert json.loads(json.dumps(state)) == state
    for seat in [None, *range(state["players"])]:
        view = RULES.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        if not state["options"]["open_racks"]:
            assert set(view["racks"]) <= ({str(seat)} if seat is not None else set())
            for ev in events:
                shown = censor(ev, seat)
                if ev["type"] in ("drew", "exchanged") and ev["seat"] != seat:
                    assert "tiles" not in shown


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 5),
    open_racks=st.booleans(),
    unknown=st.sampled_from(["strict", "teacher"]),
)
def test_random_games_keep_every_invariant(seed, players, open_racks, unknown):
    rnd = random.Random(seed)
    state, events = RULES.new_game(players, {"open_racks": open_racks, "unknown_words": unknown}, seed)
    check_invariants(state, events)
    for _step in range(150):
        if RULES.status(state).finished:
            break
        if rnd.random() < 0.01 and len(state["removed"]) < players - 1:
            state, new_events = RULES.remove_player(state, rnd.randrange(players), CTX)
        else:
            seat, action = next_move(state, rnd)
            before = json.dumps(state, sort_keys=True)
            try:
                state, new_events = RULES.apply(state, seat, action, CTX)
            except AppError as err:
                assert err.code
                assert err.message
                assert json.dumps(state, sort_keys=True) == before
                continue
        events += new_events
        check_invariants(state, events)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_replaying_the_actions_gives_the_same_state(seed):
    rnd = random.Random(seed)
    state, _ = RULES.new_game(3, {}, seed)
    log = []
    for _step in range(60):
        seat, action = next_move(state, rnd)
        try:
            state, _ = RULES.apply(state, seat, action, CTX)
        except AppError:
            continue
        log.append((seat, action))
    replay, _ = RULES.new_game(3, {}, seed)
    for seat, action in log:
        replay, _ = RULES.apply(json.loads(json.dumps(replay)), seat, json.loads(json.dumps(action)), CTX)
    assert replay == state
