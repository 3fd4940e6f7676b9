"""Bench: robot players' decision time and robots-only games, for every game and level (no database).

Loads the bundled lexicons straight from ``lexicons/data/`` with the lexicon loaders (Greek with its analyses for
Grabble, Spanish for Palabras Cortas and the solitaire, English for Palabra), plays seeded robots-only games with
steady robots and keeps the views of the seats about to act (mid-game states, as a robot's page would get them);
then times ``games.robots.decide`` for each level on those views. Beside each figure, a floor measured in the same
run on the same views: building the view itself (``Game.view``, what any move of any player costs the server) —
a robot's thought is read against it. Then one robots-only game of each game and level played to its end, with its
wall time. Not a test: prints figures beside the targets (p95 ≤ 200 ms, max ≤ 1 s per decision). Usage:

    .venv/bin/python bench/robots/decide.py [--games 3] [--views 60] [--seed 1] [--only grabble,pala]
"""

import argparse
import random
import statistics
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games import robots  # noqa: E402
from games.engine import WordList, WordSet  # noqa: E402
from games.robots.common import anagrams_of  # noqa: E402
from games.robots.selfplay import play_one  # noqa: E402
from games.rules import GAMES  # noqa: E402
from games.rules.grabble.moves import trie_of  # noqa: E402
from lexicons.loaders import read_records  # noqa: E402
from lexicons.normalise import key_function  # noqa: E402

DATA = ROOT / "lexicons" / "data"
P95_MS, MAX_MS = 200.0, 1000.0
PLAYERS = {"grabble": 3, "palabra": 3, "palabras_cortas": 3, "palabras_cortas_solitario": 1, "pala": 4, "pablo": 4}


def load(language: str) -> WordList:
    """A bundled lexicon as a table's word list: keys as ``lexicons.services`` makes them; Greek with analyses."""
    started = time.perf_counter()
    key_of = key_function(language)
    name = {"grc": "grc-morphgnt", "spa": "spa-hunspell", "eng": "eng-enable"}[language]
    records = read_records("csv", [DATA / f"{name}.tsv.gz"])
    if language == "grc":
        analyses: dict[str, list[dict[str, Any]]] = {}
        for record in records:
            form = unicodedata.normalize("NFC", record.form.strip())
            key = key_of(form)
            if key.isalpha():
                analyses.setdefault(key, []).append(
                    {"form": form, "lemma": record.lemma, "pos": record.pos, "parse": record.parse, "gloss": ""}
                )
        words = WordSet([], language="grc", analyses=analyses, normalise=key_of)
    else:
        words = WordSet([key_of(r.form) for r in records], language=language, normalise=key_of)
    print(f"  {name}: {len(words.keys()):,} keys loaded in {time.perf_counter() - started:.1f} s")
    return words


def mid_game_views(slug: str, words: WordList | None, games: int, limit: int, rng: random.Random) -> list[dict]:
    """Views of seats about to act, from seeded steady robots-only games."""
    rules = GAMES[slug]
    views: list[dict] = []

    def keep(before: dict, seat: int | None, action: dict, after: dict, events: list) -> None:
        for s in rules.status(after).to_act:
            view = rules.view(after, s)
            if view["actions"] and not view["finished"]:
                views.append(view)

    for _ in range(games):
        state, _ = rules.new_game(PLAYERS[slug], {}, rng.randrange(2**31))
        play_one(rules, state, words, dict.fromkeys(range(PLAYERS[slug]), "steady"), rng, on_move=keep)
    rng.shuffle(views)
    return views[:limit]


def ms(values: list[float]) -> tuple[float, float, float]:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return statistics.median(values) * 1000, p95 * 1000, values[-1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3, help="seeded games per game to draw mid-game views from")
    parser.add_argument("--views", type=int, default=60, help="views timed per game and level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated game slugs")
    args = parser.parse_args()
    slugs = [s for s in sorted(GAMES) if not args.only or s in args.only.split(",")]
    print("Loading the bundled lexicons…")
    lexicons = {lang: load(lang) for lang in sorted({GAMES[s].language for s in slugs if GAMES[s].language})}
    for lang, words in lexicons.items():  # one-off per process, on a robot's first thought: not a decision's cost
        started = time.perf_counter()
        anagrams_of(words)
        if lang == "grc":
            trie_of(words)
        print(f"  {lang}: search index built in {time.perf_counter() - started:.2f} s (once per process)")
    print(f"\nDecision time per view (ms): p50 / p95 / max; targets p95 ≤ {P95_MS:.0f}, max ≤ {MAX_MS:.0f}")
    print(f"{'game':28} {'level':9} {'views':>5}  {'decide p50/p95/max':>22}  {'floor: view p50/p95/max':>24}  ok")
    failures = 0
    for slug in slugs:
        rules = GAMES[slug]
        words = lexicons.get(rules.language)
        rng = random.Random(f"{args.seed}-{slug}")
        views = mid_game_views(slug, words, args.games, args.views, rng)
        for level in robots.LEVELS:
            times, floor = [], []
            for view in views:
                started = time.perf_counter()
                robots.decide(view, words, level, rng)
                times.append(time.perf_counter() - started)
            # The floor: the same seats' views built again from a state (what every move costs the server anyway).
            state, _ = rules.new_game(PLAYERS[slug], {}, args.seed)
            for _ in views:
                started = time.perf_counter()
                rules.view(state, 0)
                floor.append(time.perf_counter() - started)
            p50, p95, top = ms(times)
            f50, f95, ftop = ms(floor)
            ok = p95 <= P95_MS and top <= MAX_MS
            failures += not ok
            print(
                f"{slug:28} {level:9} {len(views):5}  {p50:6.1f} / {p95:6.1f} / {top:6.1f}  "
                f"{f50:6.2f} / {f95:6.2f} / {ftop:6.2f}  {'yes' if ok else 'NO'}"
            )
    print("\nRobots-only games played to their end (one per game and level):")
    print(f"{'game':28} {'level':9} {'moves':>6} {'seconds':>8} {'ms/move':>8}  end")
    for slug in slugs:
        rules = GAMES[slug]
        words = lexicons.get(rules.language)
        for level in robots.LEVELS:
            rng = random.Random(f"{args.seed}-{slug}-{level}-game")
            state, _ = rules.new_game(PLAYERS[slug], {}, rng.randrange(2**31))
            started = time.perf_counter()
            game = play_one(rules, state, words, dict.fromkeys(range(PLAYERS[slug]), level), rng)
            took = time.perf_counter() - started
            end = "finished" if rules.status(game.state).finished else ("stalemate" if game.stalemate else "cut off")
            print(f"{slug:28} {level:9} {game.moves:6} {took:8.2f} {took * 1000 / max(1, game.moves):8.1f}  {end}")
    print(f"\n{failures if failures else 'every'} game/level {'met' if not failures else 'missed'} the target")


if __name__ == "__main__":
    main()
