"""Bench: the Grabble move finder (every legal play of a 10-tile rack on a mid-game board), target ≤ 100 ms.

Loads the bundled Koine Greek lexicon straight from ``lexicons/data/`` with the lexicon loaders (no database),
plays seeded games through the rules (``Grabble.apply``, every word parsed with its lexicon analysis), each turn a
play picked at random among the finder's ten best, until the board is mid-game; then times
``games.rules.grabble.moves.plays_for`` for many random 10-tile racks drawn from the tiles not on the board. The
finder is timed with a word list of keys only, as a table's (``lexicons.services.LexiconWordList``) holds; the analyses,
needed to play the games, are dropped first. Usage:

    .venv/bin/python bench/grabble/hint.py [--games 20] [--turns 8] [--racks 25] [--seed 1]

Prints the trie's one-off build time, then the finder's p50/p95/max per rack beside the target, overall and by
the number of blanks in the rack, and how many plays it found; and the ``hint`` action end to end (state copy,
finder, best play).
"""

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.engine import Context, WordSet  # noqa: E402
from games.rules.grabble import RULES  # noqa: E402
from games.rules.grabble import moves as grabble_moves  # noqa: E402
from games.rules.grabble.board import tile_bag  # noqa: E402
from lexicons.loaders import read_records  # noqa: E402
from lexicons.normalise import key_function  # noqa: E402

LEXICON = ROOT / "lexicons" / "data" / "grc-morphgnt.tsv.gz"
TARGET_MS = 100.0


def load_lexicon() -> WordSet:
    """The bundled Greek lexicon as the games see it: keys as ``lexicons.services`` makes them (NFC form, Greek key,
    letters only), each with its analyses."""
    key_of = key_function("grc")
    analyses: dict[str, list[dict]] = {}
    for record in read_records("csv", [LEXICON]):
        form = unicodedata.normalize("NFC", record.form.strip())
        key = key_of(form)
        if key.isalpha():
            analyses.setdefault(key, []).append(
                {"form": form, "lemma": record.lemma, "pos": record.pos, "parse": record.parse, "gloss": record.gloss}
            )
    return WordSet([], language="grc", analyses=analyses, normalise=key_of)


def mid_game(seed: int, turns: int, words: WordSet) -> dict:
    """A seeded game of 2–4 players after ``turns`` turns, each a play among the finder's ten best (an exchange
    when the rack has none), applied by the rules with a correct parse of every word."""
    rnd = random.Random(seed)
    state, _ = RULES.new_game(rnd.randint(2, 4), {"unknown_words": "strict"}, seed)
    ctx = Context(lexicon=words)
    for _turn in range(turns):
        seat = state["turn"]
        plays = sorted(grabble_moves.plays_for(state, seat, words), key=grabble_moves.Play.order)
        if plays:
            play = rnd.choice(plays[:10])
            keys = dict.fromkeys(w.word for w in play.words)
            parses = [{"word": key, **_parse(words.analyses(key)[0])} for key in keys]
            action = {"type": "play", "tiles": play.action_tiles(), "parses": parses}
        else:
            action = {"type": "exchange", "tiles": state["racks"][seat][: min(5, len(state["bag"]))]}
        state, _ = RULES.apply(state, seat, action, ctx)
        if state["phase"] != "play":
            break
    return state


def _parse(analysis: dict) -> dict:
    return {"lemma": analysis["lemma"], "pos": analysis["pos"], "parse": analysis["parse"]}


def random_racks(state: dict, count: int, rnd: random.Random) -> list[list[int]]:
    """``count`` racks of ten tiles drawn from the tiles not on the board (the bag and every rack)."""
    unseen = state["bag"] + [t for rack in state["racks"] for t in rack]
    return [rnd.sample(unseen, 10) for _ in range(count)]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="mid-game boards (one seeded game each)")
    parser.add_argument("--turns", type=int, default=8, help="turns played before timing")
    parser.add_argument("--racks", type=int, default=25, help="10-tile racks timed on each board")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    start = time.perf_counter()
    analysed = load_lexicon()
    words = WordSet(analysed.keys(), language="grc", normalise=key_function("grc"))
    print(f"lexicon: {len(words.keys()):,} keys from {LEXICON.name} in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    grabble_moves.trie_of(words)
    print(f"trie (built once per lexicon version and process): {(time.perf_counter() - start) * 1000:.0f} ms")

    rnd = random.Random(args.seed)
    boards = [mid_game(args.seed * 1000 + game, args.turns, analysed) for game in range(args.games)]
    del analysed
    gc.collect()
    tiles = [len(state["board"]) for state in boards]
    print(f"boards: {len(boards)} seeded games, {args.turns} turns each, {min(tiles)}–{max(tiles)} tiles on the board")

    timings: list[tuple[float, int, int]] = []  # (ms, plays, blanks)
    hint_ms: list[float] = []
    for state in boards:
        bag = tile_bag(state["bag_size"])
        seat = state["turn"]
        for rack in random_racks(state, args.racks, rnd):
            trial = json.loads(json.dumps(state))
            trial["bag"] = [t for t in trial["bag"] + trial["racks"][seat] if t not in rack]
            trial["racks"] = [[t for t in r if t not in rack] for r in trial["racks"]]
            trial["racks"][seat] = rack
            begin = time.perf_counter()
            plays = grabble_moves.plays_for(trial, seat, words)
            elapsed = (time.perf_counter() - begin) * 1000
            timings.append((elapsed, len(plays), sum(bag[t]["letter"] == "" for t in rack)))
            if plays:
                begin = time.perf_counter()
                RULES.apply(trial, seat, {"type": "hint"}, Context(lexicon=words))
                hint_ms.append((time.perf_counter() - begin) * 1000)

    print(f"\nGrabble move finder: {len(timings)} racks of 10 tiles, {os.cpu_count()} cores")
    print(f"{'measure':<44}{'p50':>9}{'p95':>9}{'max':>9}{'target':>10}")
    row("all legal plays, every rack (ms)", [t[0] for t in timings])
    for blanks, label in ((0, "no blank"), (1, "one blank"), (2, "both blanks")):
        chosen = [t[0] for t in timings if t[2] == blanks]
        if chosen:
            row(f"  racks with {label} ({len(chosen)})", chosen)
    row("hint action end to end (ms)", hint_ms)
    counts = [t[1] for t in timings]
    print(
        f"plays found per rack: median {statistics.median(counts):.0f}, max {max(counts):,}; "
        f"racks with no play: {sum(1 for c in counts if not c)}"
    )


def row(label: str, values: list[float]) -> None:
    p50, p95, top = percentile(values, 0.5), percentile(values, 0.95), max(values)
    verdict = "ok" if top <= TARGET_MS else ("p95 ok" if p95 <= TARGET_MS else "MISSED")
    print(f"{label:<44}{p50:>9.1f}{p95:>9.1f}{top:>9.1f}{'≤ 100':>10}  {verdict}")


if __name__ == "__main__":
    main()
