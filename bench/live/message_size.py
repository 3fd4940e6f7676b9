"""The size of a view in a move's message, per game, beside the whole view (no server, no database).

    .venv/bin/python bench/live/message_size.py [--games 3] [--moves 150] [--seed 7]

Random games of every game are played as the contract suite plays them (its cases' small lexicons and choices). After
each move, the view of seat 0 and the teacher's are made as a move's message carries them (``Game.views`` with
``move``: without the game's fixed parts, and with only the record's rows the move changed) and whole but for the
record, as a move's message carried them before the fixed parts were left out. Printed: the median of each, in
UTF-8 bytes of JSON, and the share saved; then the message as sent at the start and at the end of the games (the
median over the first and the last tenth of each game's moves), which a game whose message grows with its length
tells apart. The games are the same in every run.
"""

import argparse
import json
import os
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
if os.environ.get("PYTHONHASHSEED") != "0":  # the same random games in every run (random play iterates sets)
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from games.engine import Context  # noqa: E402
from games.rules import GAMES  # noqa: E402
from tests.games.contract.cases import case_for  # noqa: E402
from tests.games.contract.harness import new_played, step  # noqa: E402


def size(view: dict) -> int:
    return len(json.dumps(view, ensure_ascii=False).encode())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="random games of each game")
    parser.add_argument("--moves", type=int, default=150, help="moves of each game at most")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(
        f"{'a view, median':<30} {'moves':>6} {'with fixed parts':>17} {'as sent':>9} {'saved':>7}"
        f" {'first tenth':>12} {'last tenth':>11}"
    )
    for slug, rules in GAMES.items():
        case, rng = case_for(slug), random.Random(args.seed)
        ctx = Context(case.lexicon, 1_000_000.0)
        with_fixed, sent, first, last = [], [], [], []
        for _ in range(args.games):
            played = new_played(rules, case, rng)
            game_sent: list[int] = []
            for _ in range(args.moves):
                before = played.state
                if not step(played, case, rng, ctx):
                    break
                changed = rules.changed_rows(before, played.state)
                for seat in (0, None):
                    moved = rules.views(played.state, [seat], changed, move=True)[seat]
                    whole = rules.views(played.state, [seat])[seat]
                    if rules.record is not None:
                        whole["body"][rules.record] = moved["body"][rules.record]
                    del whole["fixed"]
                    with_fixed.append(size(whole))
                    sent.append(size(moved))
                    if seat == 0:
                        game_sent.append(size(moved))
            tenth = max(1, len(game_sent) // 10)
            first += game_sent[:tenth]
            last += game_sent[-tenth:]
        before_kb, after_kb = statistics.median(with_fixed) / 1000, statistics.median(sent) / 1000
        saved = 100 * (before_kb - after_kb) / before_kb
        early_kb, late_kb = statistics.median(first) / 1000, statistics.median(last) / 1000
        print(
            f"{slug:<30} {len(sent) // 2:>6} {before_kb:>14.1f} kB {after_kb:>6.1f} kB {saved:>6.1f}%"
            f" {early_kb:>9.1f} kB {late_kb:>8.1f} kB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
