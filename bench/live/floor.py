"""The floor under a move's round trip: the bare echo with one durable write before its send, timed beside the echo
and the moves in the same windows.

    .venv/bin/python bench/live/floor.py [--windows 3] [--window 30] [--think 1.0] [--loop uvloop|asyncio]
                                         [--background [--entries 1000000]]

The design's rule keeps a move's state and log durable before anything of it is broadcast, so every move waits once
for PostgreSQL to commit a write and flush its log. The durable echo (``ws/echo-durable/<room>/`` of
``bench.live.echo``) is the echo with only that: one row inserted and committed on the event loop's own connections,
as the move's save is, then the same group send. Its round trip is the least a move that keeps the rule can take on
this machine, and its ratio to the echo's is the part of the target's 2× that the rule spends before the move does
anything of its own; the move's round trip above it is the rest of the move (its read, rules, views and larger write).

Same scratch services and servers as ``scale.py``, without its logs of the servers' collections (two app and two echo
processes on 127.0.0.1, on uvloop unless ``--loop asyncio``; stopped and dropped on the way out). Each window plays 50
Palabras Cortas tables × 4 seats, 50 echo rooms and 50 durable-echo rooms × 4 sockets at once, each about one message
every ``--think`` seconds, after an untimed warm-up, and prints each one's p50 / p99, their ratios and PostgreSQL's log
flushes in the window (``pg_stat_wal``, the whole cluster's).

With ``--background`` the windows are played while ``scale.py``'s background work runs on a Celery worker (a
``--entries``-entry lexicon import and a 30-student class report, asked again each time the last is done): whether the
durable echo's tail follows the moves' there tells a tail made by the commit's flush from one made by the move.
"""

import argparse
import asyncio
import sys
import tempfile
from contextlib import ExitStack, nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench.live import clients, run, scale  # noqa: E402

TABLES = scale.QUIET_TABLES  # and as many echo rooms, and durable-echo rooms: scale.py's quiet load, and 50 more

# Written by the durable echo (bench.live.echo.FLOOR_INSERT).
CREATE_FLOOR_TABLE = "CREATE TABLE bench_floor (id bigserial PRIMARY KEY, room integer NOT NULL, text text NOT NULL)"


async def windows(args, plans: list, app: list[int], echo: list[int], database_url: str) -> list[dict]:
    """``args.windows`` windows of moves, echoes and durable echoes at once."""
    played = scale.Load(plans, app, echo)  # the tables and the echo's rooms
    durable = scale.Load(plans, app, echo, room_path="ws/echo-durable")
    try:
        await played.grow(TABLES, TABLES)
        await durable.grow(0, TABLES)

        async def window(messages: int) -> dict:
            (moves, echoes, errors), (_, durables, durable_errors) = await asyncio.gather(
                played.play(TABLES, TABLES, messages, args.think),
                durable.play(0, TABLES, messages, args.think),
            )
            return {
                "moves": [trip.ms for trip in moves],
                "echoes": [trip.ms for trip in echoes],
                "durables": [trip.ms for trip in durables],
                "errors": errors + durable_errors,
            }

        await window(scale.WARM_UP_MOVES)  # connections, caches, prepared statements (not timed)
        results = []
        for _ in range(args.windows):
            before = scale.wal_counters(database_url)
            result = await window(round(args.window / args.think))
            result["flushes"] = scale.wal_counters(database_url)[2] - before[2]
            results.append(result)
        return results
    finally:
        await played.close()
        await durable.close()


def ratio(a: list[float], b: list[float], p: int) -> str:
    return f"{run.percentile(a, p) / run.percentile(b, p):.2f}×"


def report(args, results: list[dict], problems, done: dict | None) -> None:
    print(
        f"\nThe durable floor: {TABLES} tables × 4 seats, {TABLES} echo rooms and {TABLES} "
        f"durable-echo rooms × 4 sockets at once, think {args.think} s, windows of {args.window:.0f} s"
    )
    if done is not None:
        print(scale.background_line(done))
    for number, r in enumerate(results, 1):
        moves, echoes, durables = r["moves"], r["echoes"], r["durables"]
        print(f"window {number}:")
        for name, rtts in (("move", moves), ("echo", echoes), ("durable echo", durables)):
            print(f"  {name:<13} p50 / p99 ({len(rtts)}) {scale.summary(rtts)}")
        print(
            f"  durable echo ÷ echo: p50 {ratio(durables, echoes, 50)}, p99 {ratio(durables, echoes, 99)} "
            "(the least a move that is durable before its broadcast pays)"
        )
        print(
            f"  move ÷ echo: p50 {ratio(moves, echoes, 50)} (target ≤ 2×), p99 {ratio(moves, echoes, 99)} "
            f"(target ≤ 3×); move ÷ durable echo: p50 {ratio(moves, durables, 50)}, p99 {ratio(moves, durables, 99)}"
        )
        beyond = run.percentile(moves, 50) - run.percentile(durables, 50)
        print(
            f"  the move beyond the durable echo at p50: {beyond:.1f} ms; PostgreSQL's log flushed {r['flushes']} "
            f"times for {len(moves) + len(durables)} writes; errors {r['errors']}"
        )
    for problem, count in problems.most_common(5):
        print(f"  ! {count} × {problem}")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--windows", type=int, default=3, help="timed windows, one after another")
    parser.add_argument("--window", type=float, default=30, help="seconds of play in each window")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between a table's (a room's) messages")
    parser.add_argument("--background", action="store_true", help="with scale.py's import and class reports running")
    parser.add_argument("--entries", type=int, default=1_000_000, help="entries of the background lexicon import")
    parser.add_argument("--settings", default="config.settings.base")
    parser.add_argument("--redis-db", type=int, default=5)
    parser.add_argument(
        "--loop", choices=run.LOOPS, default="uvloop", help="every server's event loop (production: uvloop)"
    )
    args = parser.parse_args()
    if args.windows < 1 or args.window <= 0 or args.think <= 0:
        parser.error("--windows, --window and --think must be positive")
    return args


def main() -> int:
    args = parse_args()
    run.raise_file_limit(TABLES * 4 * 3 * 2 + 1000)
    with (
        run.log_directory() as logs,
        run.scratch_database() as database_url,
        run.scratch_redis(args.redis_db) as redis_url,
        tempfile.TemporaryDirectory() as scratch,
    ):
        env = run.server_env(database_url, redis_url, args.settings)
        entries = args.entries if args.background else None
        plans, background = scale.prepare(env, TABLES, entries, Path(scratch))
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(CREATE_FLOOR_TABLE)
        with ExitStack() as servers:
            app, echo = (
                [servers.enter_context(run.daphne(application, env, logs, loop=args.loop)) for _ in range(2)]
                for application in ("config.asgi:application", "bench.live.echo:application")
            )
            print("Moves, echoes and durable echoes side by side…", flush=True)
            working = scale.background_work(env, logs, *background) if background is not None else nullcontext()
            with working as done:
                results = clients.run(windows(args, plans, app, echo, database_url))
        problems = run.server_problems(logs)
    report(args, results, problems, done)
    return 0


if __name__ == "__main__":
    sys.exit(main())
