"""Where one move's time goes: ``games.services.moves.apply_action`` alone, in-process, on PostgreSQL and Redis.

    .venv/bin/python bench/live/profile_move.py [--moves 200] [--redis-db 6] [--path consumer|sync|database|loop]
                                                [--profile] [--python-beside]

The live benchmark (``run.py``) measures the whole round trip through Daphne; this script takes the server, the
sockets and the other tables away and times what the database thread does for one move: the transaction (lock,
rules, save, move row) and what runs after its commit (broadcasts, the recording job's publish). Nobody listens
to the groups, so the broadcasts cost what they cost the sender. ``--path consumer`` plays as the websocket consumer
does (``apply_action_deferred`` in the database thread, then ``send_deferred`` on the event loop); ``sync`` as a view
or a test does (``apply_action``, broadcasts sent from the same thread on commit); ``database`` only the consumer's
database-thread part (broadcasts prepared, not sent), with that call's CPU time (its thread's) printed beside its
wall time; with ``--profile`` its cProfile listing counts CPU time, not waits on PostgreSQL. ``loop`` is the same
part as the consumer plays it now, on the event loop (``loop_moves.apply_action``), with the loop thread's CPU time
and, with ``--profile``, its listing. Same scratch services as
``run.py``: a database ``bench_profile`` (created, migrated, dropped; server from ``BENCH_POSTGRES``) and Redis
database ``--redis-db`` (refused unless empty, flushed at the end). ``--profile`` adds the top of a cProfile listing.

``--python-beside`` runs one more thread in the process while the moves are timed, a loop of JSON encoding that
only runs Python: in a server the event loop's thread competes in the same way for Python's lock with the database
thread, and the call's CPU time then grows as it does inside the live servers (bench/README.md, "Continued
(2026-11-26, night)"). The wall times are then mostly waits for the lock.
"""

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.live.run import POSTGRES, admin, scratch_redis  # noqa: E402

DATABASE = "bench_profile"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--redis-db", type=int, default=6)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--path", choices=["consumer", "sync", "database", "loop"], default="consumer")
    parser.add_argument("--python-beside", action="store_true", help="a thread running Python beside the moves")
    args = parser.parse_args()
    admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    admin(f"CREATE DATABASE {DATABASE}")
    try:
        with scratch_redis(args.redis_db) as redis_url:
            env = {
                "DJANGO_SETTINGS_MODULE": "config.settings.base",
                "DJANGO_DEBUG": "false",
                "DATABASE_URL": f"{POSTGRES}/{DATABASE}",
                "REDIS_URL": redis_url,
                "LOG_LEVEL": "WARNING",
            }
            os.environ.update(env)
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
            measure(args)
    finally:
        from django.db import connections

        connections.close_all()
        admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    return 0


def measure(args) -> None:
    import django

    django.setup()
    from channels.db import database_sync_to_async
    from django.db import connection, connections
    from django.test.utils import CaptureQueriesContext

    from bench.live import world
    from config import asyncdb
    from games.models import Table
    from games.services import loop_moves
    from games.services import moves as services
    from learning.models import User

    plan = world.build(1, 4, tables_per_class=1)[0]
    users = list(User.objects.filter(student__seats__table_id=plan.table_id).order_by("student__seats__number"))

    def next_action() -> tuple[User, dict]:
        state = Table.objects.get(pk=plan.table_id).state
        seat = state["turn"]
        if state["phase"] == "draw":
            return users[seat], {"type": "draw_stock"}
        return users[seat], {"type": "discard", "card": state["hands"][seat][0]}

    async def sync_move() -> None:
        """As the consumer did before deferring: apply_action in the database thread, whose commit hooks send each
        broadcast through async_to_sync (back to the event loop) while the thread waits."""
        user, action = await database_sync_to_async(next_action)()
        await database_sync_to_async(services.apply_action)(plan.table_id, user, action)

    async def consumer_move() -> None:
        """As the websocket consumer does it: the database thread, then the event loop sends."""
        user, action = await database_sync_to_async(next_action)()
        _, deferred = await database_sync_to_async(services.apply_action_deferred)(plan.table_id, user, action)
        await services.send_deferred(deferred)

    async def database_part() -> None:
        """Only what the database thread does for the consumer (the broadcasts are prepared, not sent)."""
        await database_sync_to_async(db_move)()

    async def loop_part() -> None:
        """What the consumer does on its event loop since the move is played there (loop_moves.apply_action:
        the broadcasts prepared, not sent), with the loop thread's CPU time."""
        user, action = await database_sync_to_async(next_action)()
        started = time.thread_time()
        if loop_profiler:
            loop_profiler.enable()
        await loop_moves.apply_action(plan.table_id, user, action)
        if loop_profiler:
            loop_profiler.disable()
        cpu.append((time.thread_time() - started) * 1000)

    cpu: list[float] = []

    def db_move(cpu_profiler: cProfile.Profile | None = None) -> None:
        user, action = next_action()
        started = time.thread_time()
        if cpu_profiler:
            cpu_profiler.enable()
        services.apply_action_deferred(plan.table_id, user, action)
        if cpu_profiler:
            cpu_profiler.disable()
        cpu.append((time.thread_time() - started) * 1000)

    loop_profiler = cProfile.Profile(time.thread_time) if args.path == "loop" and args.profile else None
    one_move = {"sync": sync_move, "consumer": consumer_move, "database": database_part, "loop": loop_part}[args.path]
    if args.path == "database" and args.profile:
        for _ in range(10):
            db_move()
        cpu_profiler = cProfile.Profile(time.thread_time)
        for _ in range(args.moves):
            db_move(cpu_profiler)
        pstats.Stats(cpu_profiler).sort_stats("tottime").print_stats(45)
    with CaptureQueriesContext(connection) as queries:
        user, action = next_action()
        services.apply_action(plan.table_id, user, action)
    print(f"queries of apply_action: {len(queries) - 1} (after the script's own table read)")
    for query in queries.captured_queries[1:]:
        print(f"  {query['sql'][:140]}")
    connection.close()  # the moves below use the database thread's own connection
    profiler = cProfile.Profile() if args.profile and loop_profiler is None else None

    async def play() -> list[float]:
        """One event loop for every move, as in a server process (the Redis connections are the loop's)."""
        for _ in range(10):  # warm up: connections, imports, caches
            await one_move()
        times = []
        for _ in range(args.moves):
            started = time.perf_counter()
            if profiler:
                profiler.enable()
            await one_move()
            if profiler:
                profiler.disable()
            times.append((time.perf_counter() - started) * 1000)
        await database_sync_to_async(connections.close_all)()
        await asyncdb.close()
        return sorted(times)

    cpu.clear()
    with python_beside(args.python_beside):
        times = asyncio.run(play())
    print(
        f"{args.moves} moves by the {args.path} path, incl. one table read: p50 {statistics.median(times):.2f} ms, "
        f"p99 {times[int(len(times) * 0.99) - 1]:.2f} ms, mean {statistics.fmean(times):.2f} ms"
    )
    if cpu:
        cpu = sorted(cpu[10:])  # after play's warm-up
        what = "the event loop's move" if args.path == "loop" else "the database thread's call (apply_action_deferred)"
        print(f"CPU of {what}: p50 {statistics.median(cpu):.3f} ms")
    if loop_profiler:
        pstats.Stats(loop_profiler).sort_stats("tottime").print_stats(45)
    if profiler:
        stats = pstats.Stats(profiler).sort_stats("cumulative")
        stats.print_stats(30)


@contextmanager
def python_beside(on: bool) -> Iterator[None]:
    """While the block runs, a thread that only runs Python (``on``), as a server's event loop does beside its
    database thread."""
    if not on:
        yield
        return
    stop = threading.Event()
    documents = [{f"key {i}": [i, str(i) * 5, {"x": i}] for i in range(20)} for _ in range(2000)]

    def encode() -> None:
        while not stop.is_set():
            for document in documents:
                json.dumps(document)

    thread = threading.Thread(target=encode, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


if __name__ == "__main__":
    sys.exit(main())
