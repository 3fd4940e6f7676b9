"""Live-play benchmark (targets in docs/architecture.md), against real Daphne, PostgreSQL and Redis.

    .venv/bin/python bench/live/run.py [--tables 50 --players 4 --moves 30 --rounds 3 --think 1.0 --held 1000]
                                       [--servers 2] [--against ../other-checkout] [--loop uvloop|asyncio]

1. Move round trip: ``--tables`` Palabras Cortas tables of ``--players`` students, every seat a websocket to the real
   app (``config.asgi``, session cookie, origin check), each table playing ``--moves`` draw/discard moves by whoever's
   turn it is, ``--think`` seconds apart (students think; a closed loop with no pause would measure queueing, not a
   classroom). Timed from sending the action until every seat has received the event with the new seq.
2. Bare echo: the same number of 4-socket rooms on ``bench.live.echo`` (same server, same Redis layer, no app),
   same pacing: a message sent until it is back at all 4 sockets through group_send. Phases 1 and 2 alternate in
   ``--rounds`` rounds (echo, moves, echo, moves…), so both are timed on the machine as it is in the same minutes;
   the ratio of their medians is printed for the whole run and round by round.
3. Held sockets: more tables join until ``--held`` sockets are open, the first tables play again, then every
   socket is asked for a snapshot: errors of any kind are counted (target: none).

``--against PATH`` compares two commits in the same minutes: PATH is another checkout of this project (a
``git worktree`` of the commit before, say, with the same migrations), whose app servers run beside this one's
and play as many other tables of the same world in every round, after this checkout's moves. It prints their
figures, and this checkout's p50 ÷ theirs round by round; the machine's drift from minute to minute, which moves
separate runs by more than most changes, then falls on both alike.

Each of the ``--servers`` app processes (and as many echo processes) is a Daphne on 127.0.0.1, run as production runs
it (``python -m config.serve``: on uvloop; ``--loop asyncio`` for asyncio's own loop); the seats of a table are
spread over them, so moves cross processes through Redis as in production. Scratch services: the database
``bench_live`` (created, migrated and dropped; server from ``BENCH_POSTGRES``, default
``postgres://postgres@127.0.0.1:5432``) and Redis database ``--redis-db`` (default 5; refused unless empty, flushed
at the end). Everything is stopped and dropped on the way out, failure or not. No Celery worker runs: the move's
encounter-recording job is published to the scratch Redis as in production, and flushed with it.
"""

import argparse
import asyncio
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack, contextmanager
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.live import clients  # noqa: E402

POSTGRES = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DATABASE = "bench_live"
HOST = "127.0.0.1"
TARGET_P50_MS = 15
TARGET_P99_MS = 60
TARGET_ECHO_RATIO = 2.0


# -- scratch services -------------------------------------------------------------------------------------------
def admin(sql: str) -> None:
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
        conn.execute(sql)


@contextmanager
def scratch_database():
    """``bench_live``, new for this run and dropped after it (a leftover from a killed run is dropped first)."""
    admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    admin(f"CREATE DATABASE {DATABASE}")
    try:
        yield f"{POSTGRES}/{DATABASE}"
    finally:
        admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


@contextmanager
def scratch_redis(db: int):
    """Redis database ``db``, which must be empty (so nobody else's data is flushed), emptied again afterwards."""
    url = f"redis://{HOST}:6379/{db}"
    client = redis.Redis.from_url(url)
    if client.dbsize():
        raise SystemExit(f"Redis database {db} is not empty; choose an unused one with --redis-db.")
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


def server_env(database_url: str, redis_url: str, settings: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings,
        "DJANGO_DEBUG": "false",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "LOG_LEVEL": "WARNING",
    }


def migrate(env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


def build_world(env: dict[str, str], tables: int, players: int) -> list:
    """Teacher, classes, students and lessons through the app's services, in this process (then disconnected)."""
    os.environ.update(env)
    import django

    django.setup()
    from django.db import connections

    from bench.live import world

    try:
        plans = world.build(tables, players, tables_per_class=8)
        analyze()
        return plans
    finally:
        connections.close_all()


def analyze() -> None:
    """The planner's statistics of the scratch database, as autovacuum would have made them by then on a server that
    runs it (some machines here run PostgreSQL without it). With none, the plan of a move's save joined each table's
    four seats to every student with a sequential scan: a move's cost grew with the school's roll."""
    from django.db import connections

    with connections["default"].cursor() as cursor:
        cursor.execute("ANALYZE")


# -- servers ------------------------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server on port {port} exited:\n{log.read_text()[-2000:]}")
        with socket.socket() as s:
            if s.connect_ex((HOST, port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"server on port {port} did not start in {timeout:.0f} s")


LOOPS = ("uvloop", "asyncio")


def server_command(tree: Path, loop: str) -> list[str]:
    """Daphne as production runs it (``config.serve``: on uvloop), or on asyncio's own loop (``loop="asyncio"``, and
    for a checkout from before ``config.serve``)."""
    if loop == "uvloop" and (tree / "config" / "serve.py").exists():
        return [str(ROOT / ".venv/bin/python"), "-m", "config.serve"]
    return [str(ROOT / ".venv/bin/daphne")]


@contextmanager
def daphne(application: str, env: dict[str, str], logs: Path, tree: Path = ROOT, loop: str = "uvloop"):
    """One Daphne process serving ``application`` from the checkout ``tree``, on ``loop``; yields its port, and stops
    it (killing if need be) afterwards."""
    port = free_port()
    tag = "" if tree == ROOT else "against."
    log = logs / f"{tag}{application.split(':')[0]}-{port}.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [*server_command(tree, loop), "-b", HOST, "-p", str(port), "-v", "0", application],
            cwd=tree,  # Daphne imports the application from its working directory
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_port(port, process, log)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def server_problems(logs: Path) -> Counter:
    """Errors the servers logged with a traceback (a crashed consumer, a failed action), by message, numbers
    masked: a log record is the unindented line just before a ``Traceback`` (chained causes follow a blank)."""
    problems: Counter = Counter()
    for log in sorted(logs.glob("*.log")):
        lines = log.read_text(errors="replace").splitlines()
        for before, line in zip(["", *lines], lines, strict=False):
            if line.startswith("Traceback") and before and not before.startswith(" "):
                problems[f"{log.stem.split('-')[0]}: {re.sub(r'[0-9]+', 'N', before)[:160]}"] += 1
    return problems


@contextmanager
def log_directory():
    """Where the servers log: removed after a clean run, kept (and named) after errors or a failure."""
    logs = Path(tempfile.mkdtemp(prefix="bench-live-"))
    try:
        yield logs
    except BaseException:
        print(f"Server logs kept in {logs}")
        raise
    if server_problems(logs):
        print(f"Server logs kept in {logs}")
    else:
        shutil.rmtree(logs)


# -- phases -------------------------------------------------------------------------------------------------------
async def connect_tables(plans: list, urls: list[str], origin: str, errors: clients.Errors, at_once: int = 25):
    """Open every seat of every table, ``at_once`` tables at a time (a class arrives, not a stampede)."""
    gate = asyncio.Semaphore(at_once)

    async def one(plan):
        async with gate:
            seats = await clients.open_room(
                [f"{u}/ws/tables/{plan.table_id}/" for u in urls], origin, plan.cookies, errors
            )
            if seats is not None and not await clients.all_arrived(seats, 0):
                errors.add("no snapshot", f"table {plan.table_id} did not send every seat its snapshot")
            return seats

    return [seats for seats in await asyncio.gather(*(one(p) for p in plans)) if seats is not None]


async def play_tables(tables: list, moves: int, think: float, errors: clients.Errors) -> list[float]:
    results = await asyncio.gather(*(clients.play(seats, moves, think, errors) for seats in tables))
    return [trip.ms for trips in results for trip in trips]


async def open_echo_rooms(ports: list[int], rooms: int, players: int, errors: clients.Errors) -> list:
    urls = [f"ws://{HOST}:{port}" for port in ports]
    origin = f"http://{HOST}:{ports[0]}"
    opened = await asyncio.gather(
        *(
            clients.open_room([f"{u}/ws/echo/{room}/" for u in urls], origin, [None] * players, errors)
            for room in range(rooms)
        )
    )
    await asyncio.sleep(0.5)  # group_add has been awaited before accept, but let the last accepts settle
    return [room for room in opened if room is not None]


def rounds_of(total: int, rounds: int) -> list[int]:
    """``total`` messages split over ``rounds`` as evenly as whole numbers go."""
    return [total // rounds + (i < total % rounds) for i in range(rounds)]


async def measure(
    app_ports: list[int], echo_ports: list[int], plans: list, args, against_ports: list[int] | None = None
) -> dict:
    """Phases 1 and 2 in alternate rounds (echo, moves, echo, moves…), so that both meet the machine as it is
    in the same minutes (its speed drifts with whatever else runs); then phase 3 with every planned table. With
    ``against_ports`` (``--against``), each round also plays as many other tables on those servers, after this
    checkout's."""
    errors, echo_errors, against_errors = clients.Errors(), clients.Errors(), clients.Errors()
    urls = [f"ws://{HOST}:{port}" for port in app_ports]
    origin = f"http://{HOST}:{app_ports[0]}"
    rooms = await open_echo_rooms(echo_ports, args.tables, args.players, echo_errors)
    playing = await connect_tables(plans[: args.tables], urls, origin, errors)
    against: list = []
    if against_ports:
        against_urls = [f"ws://{HOST}:{port}" for port in against_ports]
        against_origin = f"http://{HOST}:{against_ports[0]}"
        against = await connect_tables(plans[-args.tables :], against_urls, against_origin, against_errors)
    moves: list[float] = []
    echoes: list[float] = []
    ratios: list[float] = []
    against_moves: list[float] = []
    against_ratios: list[float] = []
    mine_over_theirs: list[float] = []  # this checkout's p50 ÷ the other's, in each round both played
    sent = 0
    for count in rounds_of(args.moves, args.rounds):
        round_echoes = await asyncio.gather(
            *(clients.echo(room, count, args.think, echo_errors, first=sent) for room in rooms)
        )
        round_moves = await play_tables(playing, count, args.think, errors)
        round_against = await play_tables(against, count, args.think, against_errors) if against else []
        sent += count
        echo_rtts = [trip.ms for trips in round_echoes for trip in trips]
        echoes += echo_rtts
        moves += round_moves
        against_moves += round_against
        if echo_rtts and round_moves:
            ratios.append(percentile(round_moves, 50) / percentile(echo_rtts, 50))
        if echo_rtts and round_against:
            against_ratios.append(percentile(round_against, 50) / percentile(echo_rtts, 50))
        if round_moves and round_against:
            mine_over_theirs.append(percentile(round_moves, 50) / percentile(round_against, 50))
    await close_all([listener for room in rooms for listener in room])
    await close_all([seat for table in against for seat in table])
    first_errors = errors.total

    # The other checkout's tables (the last ones) have moved on: they are not opened again.
    idle = await connect_tables(plans[args.tables : len(plans) - len(against)], urls, origin, errors)
    held = [seat for table in playing + idle for seat in table]
    loaded = await play_tables(playing, args.moves, args.think, errors)
    answered = await clients.still_alive(held, errors)
    await close_all(held)
    return {
        "moves": moves,
        "echoes": echoes,
        "ratios": ratios,
        "against_moves": against_moves,
        "against_ratios": against_ratios,
        "mine_over_theirs": mine_over_theirs,
        "against_errors": against_errors,
        "move_errors": first_errors,
        "echo_errors": echo_errors.total,
        "held": len(held),
        "answered": answered,
        "loaded": loaded,
        "errors": errors,
    }


async def close_all(listeners: list) -> None:
    await asyncio.gather(*(listener.close() for listener in listeners))


# -- report -------------------------------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] if ordered else float("nan")


def against_rows(args, live: dict, echo_p50: float) -> list[tuple]:
    """``--against``: the other checkout's moves, timed in the same rounds (never a target: a comparison)."""
    if not args.against:
        return []
    theirs = live["against_moves"]
    ratios = live["against_ratios"]
    return [
        (
            f"--against: move p50 / p99 ({len(theirs)} moves)",
            f"{percentile(theirs, 50):.1f} / {percentile(theirs, 99):.1f} ms",
            "",
            None,
        ),
        ("--against: move p50 ÷ echo p50", f"{percentile(theirs, 50) / echo_p50:.2f}×", "", None),
        (f"  the same, round by round ({len(ratios)})", " ".join(f"{r:.2f}" for r in ratios), "", None),
        ("this ÷ --against, p50, round by round", " ".join(f"{r:.2f}" for r in live["mine_over_theirs"]), "", None),
        ("--against: errors", str(live["against_errors"].total), "0", None),
    ]


def report(args, live: dict, problems: Counter) -> bool:
    """Print the figures beside the targets; ``True`` if every target is met."""
    moves, loaded, echo_rtts, echo_errors = live["moves"], live["loaded"], live["echoes"], live["echo_errors"]
    p50, p99 = percentile(moves, 50), percentile(moves, 99)
    e50, e99 = percentile(echo_rtts, 50), percentile(echo_rtts, 99)
    ratio = p50 / e50 if e50 else float("nan")
    errors = live["errors"]
    rows = [
        (f"move round trip p50 ({len(moves)} moves)", f"{p50:.1f} ms", f"≤ {TARGET_P50_MS} ms", p50 <= TARGET_P50_MS),
        ("move round trip p99", f"{p99:.1f} ms", f"≤ {TARGET_P99_MS} ms", p99 <= TARGET_P99_MS),
        (f"bare echo p50 / p99 ({len(echo_rtts)} echoes)", f"{e50:.1f} / {e99:.1f} ms", "", None),
        ("move p50 ÷ echo p50", f"{ratio:.2f}×", f"≤ {TARGET_ECHO_RATIO:.0f}×", ratio <= TARGET_ECHO_RATIO),
        (
            f"  the same, round by round ({len(live['ratios'])})",
            " ".join(f"{r:.2f}" for r in live["ratios"]),
            "",
            None,
        ),
        ("errors while timing moves / echoes", f"{live['move_errors']} / {echo_errors}", "0", None),
        *against_rows(args, live, e50),
        (
            "sockets held / answering at the end",
            f"{live['held']} / {live['answered']}",
            f"{args.held} / {args.held}",
            live["held"] == live["answered"] == args.held,
        ),
        (
            f"round trip p50 / p99 under load ({len(loaded)} moves)",
            f"{percentile(loaded, 50):.1f} / {percentile(loaded, 99):.1f} ms",
            "",
            None,
        ),
        (
            "errors (client) / server log errors",
            f"{errors.total} / {problems.total()}",
            "0 / 0",
            not errors.total and not problems,
        ),
    ]
    print(
        f"\nLive play: {args.tables} tables × {args.players} seats, {args.moves} moves each in {args.rounds} rounds "
        f"alternating with the echo's, think {args.think} s, "
        f"{args.servers} Daphne process(es), {os.cpu_count()} cores, settings {args.settings}"
    )
    print(f"{'measure':<48} {'measured':>18} {'target':>12}  ")
    for name, value, target, ok in rows:
        mark = "" if ok is None else ("ok" if ok else "MISSED")
        print(f"{name:<48} {value:>18} {target:>12}  {mark}")
    for detail in errors.examples:
        print(f"  ! {detail}")
    for problem, count in problems.most_common(5):
        print(f"  ! {count} × {problem}")
    if moves:
        print(f"(move round trips: mean {statistics.fmean(moves):.1f} ms, max {max(moves):.1f} ms)")
    return all(ok for *_, ok in rows if ok is not None)


# -- main ---------------------------------------------------------------------------------------------------------
def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50, help="tables playing (phase 1 and under load)")
    parser.add_argument("--players", type=int, default=4, help="seats per table")
    parser.add_argument("--moves", type=int, default=30, help="moves per table in each phase")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between a table's moves")
    parser.add_argument("--rounds", type=int, default=3, help="alternate rounds of echoes and moves in phases 1-2")
    parser.add_argument("--held", type=int, default=1000, help="sockets held open in phase 3")
    parser.add_argument("--servers", type=int, default=2, help="Daphne processes for the app (and for the echo)")
    parser.add_argument(
        "--settings",
        default="config.settings.base",
        help="settings module of every process",
    )
    parser.add_argument("--redis-db", type=int, default=5, help="an empty Redis database to use and flush")
    parser.add_argument(
        "--loop", choices=LOOPS, default="uvloop", help="every server's event loop (production: uvloop)"
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="a checkout of another commit (the same migrations) whose app servers play as many other tables in the "
        "same rounds, after this checkout's: a before-and-after comparison in the same minutes",
    )
    args = parser.parse_args()
    if args.held < args.tables * args.players or args.held % args.players:
        parser.error("--held must be a multiple of --players and at least --tables × --players")
    if not 1 <= args.rounds <= args.moves:
        parser.error("--rounds must be between 1 and --moves")
    if args.against is not None and not (args.against / "config" / "asgi.py").is_file():
        parser.error(f"--against {args.against}: not a checkout of this project")

    return args


def raise_file_limit(needed: int) -> None:
    """Every held socket is a descriptor here and one in a server: lift the soft limit to the hard one if short."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (needed if hard == resource.RLIM_INFINITY else min(hard, needed), hard)
        )


def main() -> int:
    args = parse_args()
    raise_file_limit(args.held + 1000)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the clean-up on kill too
    with log_directory() as logs, scratch_database() as database_url, scratch_redis(args.redis_db) as redis_url:
        env = server_env(database_url, redis_url, args.settings)
        print("Migrating the scratch database and creating classes, students and lessons…", flush=True)
        migrate(env)
        started = time.monotonic()
        # With --against, as many tables more for the other checkout's servers.
        plans = build_world(env, args.held // args.players + (args.tables if args.against else 0), args.players)
        print(f"  {len(plans)} tables in {time.monotonic() - started:.0f} s; starting servers…", flush=True)
        with ExitStack() as servers:
            app_ports = [
                servers.enter_context(daphne("config.asgi:application", env, logs, loop=args.loop))
                for _ in range(args.servers)
            ]
            echo_ports = [
                servers.enter_context(daphne("bench.live.echo:application", env, logs, loop=args.loop))
                for _ in range(args.servers)
            ]
            against_ports = [
                servers.enter_context(
                    daphne("config.asgi:application", env, logs, tree=args.against.resolve(), loop=args.loop)
                )
                for _ in range(args.servers if args.against else 0)
            ]
            print("Timing the bare echo and moves in alternate rounds, then holding every socket…", flush=True)
            live = clients.run(measure(app_ports, echo_ports, plans, args, against_ports))
        # Read the logs once the servers have stopped: the last disconnects are handled after the clients close.
        met = report(args, live, server_problems(logs))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
