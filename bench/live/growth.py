"""How one move's cost grows with the game's length and with its seats (no server, no database: the CPU part).

    .venv/bin/python bench/live/growth.py [--repeats 40] [--seed 3]

Games are played at random from their views, as the contract suite plays them (its cases' small lexicons and
choices), to the checkpoints below; at each one the next move is then timed, ``--repeats`` times from the same
state, doing what the server does with it besides its two SQL statements (the table locked and read with its seats;
the state saved with the move appended), whose number does not depend on the game: the rules' ``apply``, the new
state serialised as the row's JSON, and for every seat and the spectators the censored events and view serialised
as the text their pages are sent. Printed with the sizes of the state and of one seat's message: what a longer game
makes the database and the channel layer carry.

Checkpoints: Grabble (four players) at move 5 and at move 80; Palabra (four players) as its table fills with words;
Palabras Cortas with 2, 4, 6 and 8 seats at move 20.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from config.transport import json_bytes  # noqa: E402
from games.engine import AppError, Context, censor_all  # noqa: E402
from games.rules import GAMES  # noqa: E402
from tests.games.contract.cases import CASES  # noqa: E402
from tests.games.contract.harness import active_seats, fill  # noqa: E402


def play_to(slug: str, players: int, moves: int, seed: int, options: dict | None = None) -> tuple[Any, ...] | None:
    """A random game of ``players`` at its move ``moves`` and the move that comes next (``None``: it ended first)."""
    rules, case = GAMES[slug], CASES[slug]
    rng = random.Random(seed)
    ctx = Context(case.lexicon, 1_000_000.0)
    state, _ = rules.new_game(players, options or {}, seed)
    played = 0
    while True:
        actors = [a for a in active_seats(state) if rules.view(state, a)["actions"]]
        if not actors:
            return None
        actor = rng.choice(actors)
        view = rules.view(state, actor)
        action = fill(rng.choice(view["actions"]), case, rules, view, rng)
        try:
            new_state, _ = rules.apply(state, actor, action, ctx)
        except AppError:  # a refused random action: draw another
            continue
        if played == moves:
            return rules, state, actor, action, ctx
        state, played = new_state, played + 1


def server_work(rules, state: dict, seat: int, action: dict, ctx: Context) -> tuple[int, int]:
    """What the server computes for one move; returns the bytes of the state row and of one seat's message."""
    new_state, events = rules.apply(state, seat, action, ctx)
    row = json_bytes(new_state)
    copies = {
        r: json_bytes({"type": "event", "seq": 1, "events": censor_all(events, r), "view": rules.view(new_state, r)})
        for r in [*active_seats(new_state), None]
    }
    return len(row), len(copies[seat])


def measure(label: str, found: tuple | None, repeats: int) -> None:
    if found is None:
        print(f"{label:<44} (the game ended before this checkpoint)")
        return
    rules, state, seat, action, ctx = found
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        row, message = server_work(rules, state, seat, action, ctx)
        times.append((time.perf_counter() - began) * 1000)
    median, worst = statistics.median(times), max(times)
    sizes = f"{row / 1000:8.1f} kB {message / 1000:8.1f} kB"
    print(f"{label:<44} {median:7.2f} ms {worst:7.2f} ms {sizes}  ({action['type']})")


def first_reaching(slug: str, players: int, moves: int, seed: int, options: dict | None = None) -> tuple | None:
    """The first seeded random game that reaches move ``moves``: random play passes often, and a round in which
    every player passes ends a Grabble game, so only about one seed in twenty reaches its move 80."""
    for attempt in range(200):
        found = play_to(slug, players, moves, seed + attempt, options)
        if found is not None:
            return found
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    print(f"{'one move, the server CPU part':<44} {'median':>10} {'max':>10} {'state row':>11} {'a message':>11}")
    for moves in (5, 80):
        measure(f"Grabble, 4 players, at move {moves}", first_reaching("grabble", 4, moves, args.seed), args.repeats)
    for moves in (10, 100, 300):
        found = first_reaching("palabra", 4, moves, args.seed)
        words = "?"
        if found is not None:
            words = str(json_bytes(found[1]).count(b'"word"'))
        measure(f"Palabra, 4 players, at move {moves} ({words} words)", found, args.repeats)
    for players in (2, 4, 6, 8):
        measure(
            f"Palabras Cortas, {players} seats, at move 20",
            first_reaching("palabras_cortas", players, 20, args.seed),
            args.repeats,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
