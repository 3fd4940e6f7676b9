"""How one move's cost grows with the game's length and with its seats (no server, no database: the CPU part).

    .venv/bin/python bench/live/growth.py [--repeats 30] [--seed 3] [--window 10] [--whole-record] [--only TEXT]

Games are played at random from their views, as the contract suite plays them (its cases' small lexicons and
choices), to the checkpoints below; from each one the next ``--window`` moves of the same game are each timed
``--repeats`` times, and the mean of their medians printed (one move alone may be a pass or a quiz answer: a window
compares like with like). Timed is what the server does with a move besides its two SQL statements (the table locked and
read with its seats; the state saved with the move appended), whose number does not depend on the game: the rules'
``apply``, the new state serialised as the save writes it (for a game with a history, since 2026-11-27 late: the state
without its history's entries, and the entries the move changed or added, ``Table.history_writes``), and for every seat
and the spectators the censored events and view serialised as the text their pages are sent, with only the rows of the
game's record that the move changed and without the game's fixed parts (``--whole-record``: every message's view whole,
as before 2026-11-27), and for a game with a history (``Game.history``) what the move changed of the state, as the text
the broadcast carries to the other processes. Beside it, not included, how a process comes by the state before it plays
a move: "row read", parsed from the row's JSON text (a process that holds no state made: PostgreSQL returns the text);
"change read", made from the state before the move and the move's change (a process that followed the move before; a
process whose own move it was reads nothing). ``--reads`` chooses which of the two run (for growth_instructions.py).
Printed with the sizes of the state and of one seat's message at the checkpoint: what a longer game makes the database
and the channel layer carry. The games are the same in every run (the script runs itself with a fixed
``PYTHONHASHSEED``: random play iterates sets).

Checkpoints: Grabble (four players) at move 5 and at move 80; Palabra (four players) as its table fills with words;
Palabras Cortas with 2, 4, 6 and 8 seats at move 20. Random play passes often, so a random Grabble game is short (a
dozen plays). A real one is not: four robots (``games.robots``, the bundled Greek lexicon) play one game to its end,
and its windows compare like with like: the first and the last plays of the play phase, and the first and the last
quiz answers, with the history of about 40 turns played in between. ``--only``: the checkpoints whose line contains
that text.

Times on a shared virtual machine vary by a third from run to run. Instructions do not: counted by valgrind, the
difference between two runs of one checkpoint with ``--repeats 1`` and ``--repeats 11``, divided by ten times the
window, is the instructions of one move (bench/README.md, "The record", has the commands).
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
if os.environ.get("PYTHONHASHSEED") != "0":  # the same random games in every run
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})

import orjson  # noqa: E402

from config.transport import json_bytes  # noqa: E402
from games.engine import AppError, Context, censor_all  # noqa: E402
from games.engine.game import history_writes, state_change, stored_state, with_state_change  # noqa: E402
from games.rules import GAMES  # noqa: E402
from tests.games.contract.cases import CASES  # noqa: E402
from tests.games.contract.harness import active_seats, fill  # noqa: E402

Move = tuple[Any, ...]  # (rules, state, seat, action, ctx): a move to time, from the state it was made in


def play_to(slug: str, players: int, moves: int, seed: int, window: int, options: dict | None = None) -> list[Move]:
    """The ``window`` moves that follow move ``moves`` of a random game of ``players`` (fewer, or none, if it
    ended first)."""
    rules, case = GAMES[slug], CASES[slug]
    rng = random.Random(seed)
    ctx = Context(case.lexicon, 1_000_000.0)
    state, _ = rules.new_game(players, options or {}, seed)
    played, found = 0, []
    while len(found) < window:
        actors = [a for a in active_seats(state) if rules.view(state, a)["actions"]]
        if not actors:
            break
        actor = rng.choice(actors)
        view = rules.view(state, actor)
        action = fill(rng.choice(view["actions"]), case, rules, view, rng)
        try:
            new_state, _ = rules.apply(state, actor, action, ctx)
        except AppError:  # a refused random action: draw another
            continue
        if played >= moves:
            found.append((rules, state, actor, action, ctx))
        state, played = new_state, played + 1
    return found


def robot_windows(window: int, seed: int) -> list[tuple[str, list[Move]]]:
    """One Grabble game of four robots, played to its end, and its windows of ``window`` moves."""
    sys.path.insert(0, str(ROOT / "bench" / "robots"))
    from decide import load  # the bundled Greek lexicon, as the robots' benchmark loads it

    from games.robots.selfplay import play_one

    rules, words = GAMES["grabble"], load("grc")
    ctx = Context(words, 1_000_000.0)
    moves: list[tuple[str, Move]] = []
    state, _ = rules.new_game(4, {}, seed)
    record = lambda before, seat, action, after, events: moves.append(  # noqa: E731
        (action["type"], (rules, before, seat, action, ctx))
    )
    play_one(rules, state, words, dict.fromkeys(range(4), "steady"), random.Random(seed), on_move=record)
    plays = [move for kind, move in moves if kind == "play"]
    answers = [move for kind, move in moves if kind == "answer"]
    turns = len(plays)
    return [
        (f"Grabble, 4 robots, early plays (3-{2 + window} of {turns})", plays[2 : 2 + window]),
        (f"Grabble, 4 robots, late plays ({turns - window + 1}-{turns})", plays[-window:]),
        (f"Grabble, 4 robots, first quiz answers ({window})", answers[:window]),
        (f"Grabble, 4 robots, last quiz answers ({window})", answers[-window:]),
    ]


def server_work(rules, state: dict, seat: int, action: dict, ctx: Context, whole: bool = False) -> tuple[int, int]:
    """What the server computes for one move; returns the bytes of the state row and of one seat's message."""
    new_state, events = rules.apply(state, seat, action, ctx)
    if rules.history:
        saved = {key: state[key] for key in rules.history if key in state}
        writes, _ = history_writes(rules.history, saved, new_state)
        row = json_bytes(stored_state(new_state, rules.history)) + json_bytes(writes)
        json_bytes(state_change(rules.history, state, new_state))
    else:
        row = json_bytes(new_state)
    changed = None if whole or rules.record is None else rules.changed_rows(state, new_state)
    recipients = [*active_seats(new_state), None]
    copies = {
        r: json_bytes({"type": "event", "seq": 1, "events": censor_all(events, r), "view": view})
        for r, view in rules.views(new_state, recipients, changed, move=not whole).items()
    }
    return len(row), len(copies[seat])


def measure(label: str, found: list[Move], repeats: int, whole: bool, reads: str) -> None:
    if not found:
        print(f"{label:<44} (the game ended before this checkpoint)")
        return
    medians, row_reads, change_reads, sizes = [], [], [], (0, 0)
    for rules, state, seat, action, ctx in found:
        times, row_times, change_times, text = [], [], [], json_bytes(state)
        new_state, _ = rules.apply(state, seat, action, ctx)
        change = json_bytes(state_change(rules.history, state, new_state)) if rules.history else None
        for _ in range(repeats):
            began = time.perf_counter()
            size = server_work(rules, state, seat, action, ctx, whole)
            times.append((time.perf_counter() - began) * 1000)
            if "row" in reads:
                began = time.perf_counter()
                orjson.loads(text)
                row_times.append((time.perf_counter() - began) * 1000)
            if "change" in reads and change is not None:
                began = time.perf_counter()
                with_state_change(state, orjson.loads(change))
                change_times.append((time.perf_counter() - began) * 1000)
        medians.append(statistics.median(times))
        row_reads.append(statistics.median(row_times) if row_times else 0.0)
        change_reads.append(statistics.median(change_times) if change_times else None)
        sizes = sizes if sizes != (0, 0) else size
    kinds = ", ".join(sorted({move[3]["type"] for move in found}))
    row, message = sizes
    changes = [c for c in change_reads if c is not None]
    change_read = f"{statistics.mean(changes):7.2f} ms" if changes else f"{'-':>10}"
    print(
        f"{label:<44} {statistics.mean(medians):7.2f} ms {max(medians):7.2f} ms {statistics.mean(row_reads):7.2f} ms "
        f"{change_read} {row / 1000:8.1f} kB {message / 1000:8.1f} kB  ({len(found)} moves: {kinds})"
    )


def first_reaching(slug: str, players: int, moves: int, seed: int, window: int, options: dict | None = None) -> list:
    """The window after move ``moves`` of the first seeded random game that plays all of it: random play passes
    often, and a round in which every player passes ends a Grabble game, so only about one seed in twenty reaches
    its move 80."""
    for attempt in range(200):
        found = play_to(slug, players, moves, seed + attempt, window, options)
        if len(found) == window:
            return found
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--window", type=int, default=10)
    parser.add_argument("--whole-record", action="store_true", help="every message's view whole")
    parser.add_argument("--reads", default="row,change", help="the reads to run: row, change, or both")
    parser.add_argument("--only", default="", help="only the checkpoints whose line contains this text")
    args = parser.parse_args()
    n, whole = args.window, args.whole_record
    print(
        f"{'one move, the server CPU part':<44} {'mean':>10} {'worst':>10} {'row read':>10} {'change read':>11} "
        f"{'row written':>11} {'a message':>11}"
    )
    checkpoints = [(f"Grabble, 4 players, from move {m}", "grabble", 4, m) for m in (5, 80)]
    checkpoints += [(f"Palabra, 4 players, from move {m}", "palabra", 4, m) for m in (10, 100, 300)]
    checkpoints += [(f"Palabras Cortas, {p} seats, from move 20", "palabras_cortas", p, 20) for p in (2, 4, 6, 8)]
    for label, slug, players, moves in checkpoints:
        if args.only not in label:
            continue
        found = first_reaching(slug, players, moves, args.seed, n)
        if slug == "palabra":
            words = json_bytes(found[0][1]).count(b'"word"') if found else "?"
            label += f" ({words} words)"
        measure(label, found, args.repeats, whole, args.reads)
    if "robots" in args.only or not args.only:  # the robots' windows: "robots", or "robots, late plays"
        for label, found in robot_windows(n, args.seed):
            if args.only in label:
                measure(label, found, args.repeats, whole, args.reads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
