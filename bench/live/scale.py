"""Live play at scale, every figure beside the bare echo measured in the same run (targets in docs/architecture.md).

    .venv/bin/python bench/live/scale.py [--steps 50,100,200,300,400] [--think 1.0] [--step-moves 10]
                                         [--window 30] [--entries 1000000] [--phases quiet,capacity,background]
                                         [--processes 1,2] [--loop uvloop|asyncio]

Same scratch services and servers as ``run.py`` (database ``bench_live``, Redis database ``--redis-db``; Daphne
processes of ``config.asgi`` and of ``bench.live.echo`` on 127.0.0.1, on uvloop as production runs them unless
``--loop asyncio``; stopped and dropped on the way out).

1. ``quiet``: 50 Palabras Cortas tables × 4 seats and 50 echo rooms × 4 sockets play at the same time, each about
   one move (one echo) a second, for ``--window`` seconds: move and echo p50/p99 side by side, under the same load.
2. ``capacity``: the number of tables is ramped (``--steps``), each table one move every ``--think`` seconds (open
   loop, a class's pace: ``tables ÷ think`` moves per second offered from the step's first moment, the first move
   of each table drawn as ``clients.first_delay`` says), ``--step-moves`` moves per table per step
   after two untimed ones (a new table's first move in a process is read under its lock, with no copy yet), first
   on one app process, then on two; the echo the same way. A step passes when its p99 ≤ 60 ms and nothing was
   lost; the capacity is the highest offered rate that passed.
3. ``background``: a Celery worker of the project (its own settings: concurrency, niceness) starts; a
   ``--entries``-entry lexicon import and a 30-student class report (100,000 encounters; asked again each time the
   last one is done) run on it while phase 1's load plays again. Its line says what PostgreSQL wrote in the window:
   megabytes of log, flushes, checkpoints begun, and the segment files of the log it had to create, none being
   ready (``wal_segments``). Each is made while every commit waits. A checkpoint makes ready as many as the log
   between recent checkpoints needed (``min_wal_size`` at least), so a new cluster, or a window writing more log
   than those did, has too few.

Under each window's figures and each capacity step, a line says when the slowest 1% of its round trips were sent: most
of them within half a second is a stall that held every move in flight at once (a collection, a write the disk held),
spread over the window a queue; the line ends with the disk, the cores (how much of them went to anything but the
benchmark's processes, ``bench/live/cpu.py``) and the servers' collections while those were under way.
Under each quiet and background window's figures, and under each capacity step of the moves, a line gives the disk
under PostgreSQL's log in its busiest half second (``bench/live/disk.py``): a single slow write there holds every move
in flight, and not the echo. Lines follow with the servers' garbage collections of 3 ms or more that began in it
(``bench/live/collections_log.py``: the app processes' under the moves, the echo's under the echo's steps, both under
a window): while one lasts, every table of its process waits.

The benchmark's own client (one process, on uvloop with its garbage collector off: ``clients.run``) shares the 2 cores
with the servers, PostgreSQL and Redis; at high rates it is part of what is measured, for the echo as for the moves.
"""

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench.live import clients, collections_log, cpu, disk  # noqa: E402
from bench.live.run import (  # noqa: E402
    HOST,
    LOOPS,
    analyze,
    build_world,
    daphne,
    log_directory,
    migrate,
    percentile,
    raise_file_limit,
    scratch_database,
    scratch_redis,
    server_env,
    server_problems,
)

TARGET_P99_MS = 60.0
STOP_P99_MS = 1000.0
QUIET_TABLES = 50
WARM_UP_MOVES = 2  # per table (or echo room) before a window or a capacity step is timed
STALL_SPAN_S = 0.5  # round trips sent this close together met the same stall (tail_line)


def summary(rtts: list[float]) -> str:
    return f"{percentile(rtts, 50):6.1f} / {percentile(rtts, 99):6.1f} ms" if rtts else "      —"


def tail_line(
    name: str, trips: list[clients.Trip], around: Callable[[float, float], list[str | None]] | None = None
) -> str | None:
    """When the slowest 1% of ``trips`` (``name``: "moves" or "echoes") were sent: most of them within one short
    span says the servers stalled together (a collection, a write the disk held); spread over the window, a queue
    that any move may meet. ``around(start, end)`` says what the samplers saw while the most of them sent together
    were under way (``time.monotonic``)."""
    if len(trips) < 100:
        return None
    slowest = sorted(sorted(trips, key=lambda trip: trip.ms)[-(len(trips) // 100) :])  # by the time they were sent
    most, first = 0, 0  # the most of them sent within STALL_SPAN_S, and the first of those
    start = 0
    for end in range(len(slowest)):
        while slowest[end].sent - slowest[start].sent > STALL_SPAN_S:
            start += 1
        if end - start + 1 > most:
            most, first = end - start + 1, start
    together = slowest[first : first + most]
    began = min(trip.sent for trip in trips)
    line = (
        f"the {name}' slowest 1% ({len(slowest)}, {min(trip.ms for trip in slowest):.1f} ms or more): {most} sent "
        f"within {STALL_SPAN_S} s, {together[0].sent - began:.1f} s in; all {len(slowest)} within "
        f"{slowest[-1].sent - slowest[0].sent:.1f} s"
    )
    if around is not None and most > 1:  # one round trip alone is no stall
        # The round trips are timed on perf_counter's clock, the samplers on monotonic's.
        shift = time.monotonic() - time.perf_counter()
        seen = around(together[0].sent + shift, max(trip.sent + trip.ms / 1000 for trip in together) + shift)
        if found := [text for text in seen if text]:
            line += f"; while those {most} were under way: " + ", ".join(found)
    return line


def seen_by(
    sampler: disk.Sampler, cores: cpu.Sampler, window: collections_log.Window, role: str
) -> Callable[[float, float], list[str | None]]:
    """For :func:`tail_line`: the ``role`` processes' collections in a span, the cores (what went to anything but
    the benchmark) and, for the app's moves, which wait on PostgreSQL's log, the disk under it."""

    def around(start: float, end: float) -> list[str | None]:
        disk_then = sampler.during(start, end) if role == "app" else None
        return [disk_then, cores.during(start, end), window.during(role, start, end)]

    return around


# -- load -----------------------------------------------------------------------------------------------------------
class Load:
    """Sockets opened so far, kept across steps: tables (per app server list) and echo rooms (at ``room_path``)."""

    def __init__(self, plans: list, app_ports: list[int], echo_ports: list[int], room_path: str = "ws/echo") -> None:
        self.plans = plans
        self.room_path = room_path  # the echo's rooms, or the durable echo's (bench/live/floor.py)
        self.app_urls = [f"ws://{HOST}:{p}" for p in app_ports]
        self.echo_urls = [f"ws://{HOST}:{p}" for p in echo_ports]
        self.origin = f"http://{HOST}:{app_ports[0]}"
        self.tables: list = []
        self.rooms: list = []
        self.echoed: dict[int, int] = {}  # messages each room has echoed so far
        self.errors = clients.Errors()

    async def grow(self, tables: int, rooms: int) -> None:
        if len(self.tables) < tables:
            more = self.plans[len(self.tables) : tables]
            self.tables += await self.connect(more)
        while len(self.rooms) < rooms:
            opened = await asyncio.gather(
                *(
                    clients.open_room(
                        [f"{u}/{self.room_path}/{n}/" for u in self.echo_urls], self.origin, [None] * 4, self.errors
                    )
                    for n in range(len(self.rooms), rooms)
                )
            )
            self.rooms += [room for room in opened if room is not None]
            await asyncio.sleep(0.5)

    async def connect(self, plans: list) -> list:
        """Every seat of these tables, 25 tables at a time; each seat must get its first snapshot (a table played in
        an earlier phase is past seq 0, so this does not wait for a seq, unlike ``run.connect_tables``)."""
        gate = asyncio.Semaphore(25)

        async def one(plan):
            async with gate:
                urls = [f"{u}/ws/tables/{plan.table_id}/" for u in self.app_urls]
                seats = await clients.open_room(urls, self.origin, plan.cookies, self.errors)
                if seats is None:
                    return None
                for seat in seats:
                    if not await seat.wait_until(lambda seat=seat: seat.view is not None and bool(seat.arrived)):
                        self.errors.add("no snapshot", f"table {plan.table_id} did not send every seat its snapshot")
                return seats

        return [seats for seats in await asyncio.gather(*(one(p) for p in plans)) if seats is not None]

    async def play(
        self, tables: int, rooms: int, moves: int, think: float
    ) -> tuple[list[clients.Trip], list[clients.Trip], int]:
        """``tables`` tables and ``rooms`` echo rooms at once, ``moves`` each; returns move and echo round trips."""
        before = self.errors.total

        async def echo(i: int) -> list[float]:
            first = self.echoed.get(i, 0)
            self.echoed[i] = first + moves
            return await clients.echo(self.rooms[i], moves, think, self.errors, first=first)

        results = await asyncio.gather(
            asyncio.gather(*(clients.play(seats, moves, think, self.errors) for seats in self.tables[:tables])),
            asyncio.gather(*(echo(i) for i in range(rooms))),
        )
        for example in self.errors.examples:
            print(f"  ! {example}")
        self.errors.examples.clear()
        move_trips = [trip for trips in results[0] for trip in trips]
        echo_trips = [trip for trips in results[1] for trip in trips]
        return move_trips, echo_trips, self.errors.total - before

    async def close(self) -> None:
        listeners = [s for t in self.tables for s in t] + [s for r in self.rooms for s in r]
        await asyncio.gather(*(listener.close() for listener in listeners))
        self.tables, self.rooms, self.echoed = [], [], {}


# -- phases ---------------------------------------------------------------------------------------------------------
async def quiet(
    load: Load,
    args,
    warmed: Callable[[], None] | None = None,
    tables: int = QUIET_TABLES,
    rooms: int = QUIET_TABLES,
    device: str | None = None,
    gc_logs: Path | None = None,
) -> dict:
    """``tables`` tables and ``rooms`` echo rooms side by side for ``args.window`` seconds; ``warmed`` is called once
    the untimed warm-up is over. With ``device``, the window's disk (:mod:`bench.live.disk`) is sampled too; with
    ``gc_logs``, the servers' collections in it are read (:mod:`bench.live.collections_log`)."""
    await load.grow(tables, rooms)
    await load.play(tables, rooms, WARM_UP_MOVES, args.think)  # connections, caches (not timed)
    if warmed is not None:
        warmed()
    with (
        disk.Sampler(device) as sampler,
        cpu.Sampler(enabled=True) as cores,
        collections_log.Window(gc_logs) as window,
    ):
        moves, echoes, errors = await load.play(tables, rooms, round(args.window / args.think), args.think)
    lines = [
        tail_line("moves", moves, seen_by(sampler, cores, window, "app")),
        tail_line("echoes", echoes, seen_by(sampler, cores, window, "echo")),
        sampler.line(),
        window.line("app"),
        window.line("echo"),
    ]
    return {
        "moves": [trip.ms for trip in moves],
        "echoes": [trip.ms for trip in echoes],
        "errors": errors,
        "lines": [line for line in lines if line],
    }


async def ramp(
    load: Load, args, kind: str, device: str | None = None, gc_logs: Path | None = None
) -> list[tuple[int, float, float, int, int]]:
    """Steps of (tables, p50, p99, round trips, errors) until one is far past the target (or loses a move). With
    ``device``, each step's disk is sampled and printed below it, as in the quiet window; with ``gc_logs``, the
    collections of the processes the step played on (the app's for moves, the echo's for echoes)."""
    steps = []
    for n in args.steps:
        tables, rooms = (n, 0) if kind == "moves" else (0, n)
        await load.grow(tables, rooms)
        # Not timed, as in the quiet phase: a new table's first move in a process reads its row under a lock (no
        # copy yet). A step measures what a class's pace sustains.
        await load.play(tables, rooms, WARM_UP_MOVES, args.think)
        before = cpu.reading()  # after the new sockets are open and warm: a step's CPU is its play alone
        with (
            disk.Sampler(device) as sampler,
            cpu.Sampler(enabled=True) as cores,
            collections_log.Window(gc_logs) as window,
        ):
            move_trips, echo_trips, errors = await load.play(tables, rooms, args.step_moves, args.think)
        trips = move_trips if kind == "moves" else echo_trips
        rtts = [trip.ms for trip in trips]
        p50, p99 = percentile(rtts, 50), percentile(rtts, 99)
        steps.append((n, p50, p99, len(rtts), errors))
        print(f"  {kind:<6} {n / args.think:6.0f}/s offered: p50 {p50:6.1f} ms, p99 {p99:6.1f} ms, errors {errors}")
        print(f"         {cpu.per_round_trip(before, cpu.reading(), len(rtts))}")
        role = "app" if kind == "moves" else "echo"
        tail = tail_line("moves" if kind == "moves" else "echoes", trips, seen_by(sampler, cores, window, role))
        for line in (tail, sampler.line(), window.line(role)):
            if line is not None:
                print(f"         {line}")
        if p99 > STOP_P99_MS or errors:  # past the target the curve goes on a while: it says where the time goes
            break
    return steps


def capacity(steps: list[tuple[int, float, float, int, int]], think: float) -> str:
    """The highest offered rate below the first step that missed (a later lucky step does not count)."""
    passed = []
    for n, _, p99, _, errors in steps:
        if p99 > TARGET_P99_MS or errors:
            break
        passed.append(n)
    top = max(passed, default=0) / think
    if passed and len(passed) == len(steps):
        return f"≥ {top:.0f}/s"
    return f"{top:.0f}/s"


# -- background work ---------------------------------------------------------------------------------------------
def prepare(
    env: dict[str, str], tables: int, entries: int | None, directory: Path
) -> tuple[list, tuple[Path, int] | None]:
    """The scratch database migrated with ``tables`` four-seat tables (their plans), and with ``entries`` the
    background work's lexicon file and class (:func:`prepare_background`), or ``None`` without."""
    print("Migrating and creating classes, students and lessons…", flush=True)
    migrate(env)
    plans = build_world(env, tables, 4)
    if entries is None:
        return plans, None
    print("Preparing the background work (lexicon file, a class with 100,000 encounters)…", flush=True)
    return plans, prepare_background(entries, directory)


def prepare_background(entries: int, directory: Path) -> tuple[Path, int]:
    """The lexicon file to import and a class with 100,000 encounters to report on (in the scratch database)."""
    from django.db import connections

    from bench.lexicons.run import generate
    from bench.reports.run import fill

    path = directory / "lexicon.tsv"
    generate(path, entries)
    classroom_id = fill(30, 100_000, teacher_name="bench-report-teacher")
    analyze()
    connections.close_all()
    return path, classroom_id


@contextmanager
def celery_worker(env: dict[str, str], logs: Path):
    log = logs / "celery-worker.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [str(ROOT / ".venv/bin/celery"), "-A", "config", "worker", "-l", "WARNING"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        time.sleep(3)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def background_jobs(path: Path, classroom_id: int, stop: threading.Event, done: dict) -> None:
    """Start the import, and keep one class report under way until ``stop``; note what finished."""
    from django.db import connections

    from learning.models import Classroom, Report
    from learning.services import request_report
    from lexicons.models import ImportJob, Lexicon
    from lexicons.services import start_import

    try:
        started = time.monotonic()
        job = start_import(Lexicon.objects.create(name="bench-import", language="eng"), "csv", [str(path)])
        classroom = Classroom.objects.select_related("teacher").get(pk=classroom_id)
        while not stop.wait(0.5):
            request_report(classroom.teacher, classroom)  # a new one once the last is done
            job.refresh_from_db()
            if job.status != ImportJob.Status.QUEUED:
                done.setdefault("running", time.monotonic() - started)
            if job.status not in (ImportJob.Status.QUEUED, ImportJob.Status.RUNNING) and "import" not in done:
                done["import"] = f"{job.status} after {time.monotonic() - started:.0f} s"
        class_reports = Report.objects.filter(classroom_id=classroom_id, parent=None)  # not its per-student parts
        done["reports"] = class_reports.filter(status=Report.Status.DONE).count()
        done.setdefault("import", f"{job.status} ({job.percent}%) when the window closed")
    finally:
        connections.close_all()


@contextmanager
def background_work(env: dict[str, str], logs: Path, lexicon_path: Path, classroom_id: int):
    """A Celery worker with the import and class reports under way (``background_jobs``) for the ``with`` block; it
    yields the dict in which the jobs note what finished, complete once the block is left."""
    with celery_worker(env, logs):
        stop, done = threading.Event(), {}
        jobs = threading.Thread(target=background_jobs, args=(lexicon_path, classroom_id, stop, done))
        jobs.start()
        try:
            under_way = time.monotonic() + 90  # timing starts once the worker has the import under way
            while done.get("running") is None and time.monotonic() < under_way:
                time.sleep(0.5)
            yield done
        finally:
            stop.set()
            jobs.join()


def background_line(done: dict) -> str:
    line = (
        f"background: the worker started the import {done.get('running', float('nan')):.0f} s after it was "
        f"asked; import {done.get('import')}, class reports done {done.get('reports')}"
    )
    if "wal" in done:
        checkpoints, megabytes, syncs, _ = done["wal"]
        line += f"; in the window {megabytes:.0f} MB of write-ahead log, {syncs} flushes, {checkpoints} checkpoint(s)"
        if "segments" in done:  # counted with the log (``counted``)
            made, ready = done["segments"]
            # A checkpoint in the window may have made segments ready after its start: then the count is a bound.
            bound = "at most " if checkpoints else ""
            line += f", {bound}{made} segment file(s) of the log created ({ready} ready ahead at the start)"
    return line


def wal_counters(database_url: str) -> tuple[int, float, int, float]:
    """PostgreSQL's cluster-wide counts so far: checkpoints begun, megabytes of write-ahead log, its flushes and their
    time in ms (``pg_stat_bgwriter``, or ``pg_stat_checkpointer`` from version 17, and ``pg_stat_wal``; the time only
    of sessions with ``track_wal_io_timing`` on), to tell what PostgreSQL wrote while a window was timed."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        if conn.info.server_version >= 170000:
            checkpoints = "SELECT num_timed + num_requested FROM pg_stat_checkpointer"
        else:
            checkpoints = "SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter"
        (begun,) = conn.execute(checkpoints).fetchone() or (0,)
        wal = "SELECT wal_bytes, wal_sync, wal_sync_time FROM pg_stat_wal"
        written, syncs, sync_ms = conn.execute(wal).fetchone() or (0, 0, 0.0)
    return int(begun), float(written) / 1e6, int(syncs), float(sync_ms)


def counted(database_url: str, done: dict) -> tuple[Callable[[], None], Callable[[], None]]:
    """Two calls, at the start of a window and at its end, that note in ``done["wal"]`` what ``wal_counters`` counted
    between them, and in ``done["segments"]`` the log's segments created in the window (``segments_made``)."""
    first: list[tuple[int, float, int, float]] = []
    segments: list[tuple[int, int] | None] = []

    def start() -> None:
        first.append(wal_counters(database_url))
        segments.append(wal_segments(database_url))

    def end() -> None:
        done["wal"] = tuple(b - a for a, b in zip(first[0], wal_counters(database_url), strict=True))
        now = wal_segments(database_url)
        if segments[0] is not None and now is not None:
            done["segments"] = segments_made(segments[0], now)

    return start, end


def wal_segments(database_url: str) -> tuple[int, int] | None:
    """The segment PostgreSQL's log is being written into and the last segment file in ``pg_wal``, as segment
    numbers (``None`` without the right to list ``pg_wal``: superuser or ``pg_monitor``). The files past the current
    one were made ready earlier (recycled, or created ahead, at a checkpoint); a segment reached with none ready is
    created then, filled with zeros and flushed, while the session that reached it holds the log's write lock and
    every commit waits: a stall of the moves' saves that the echo does not share."""
    query = """
        SELECT pg_walfile_name(pg_current_wal_insert_lsn()),
               (SELECT max(name) FROM pg_ls_waldir() WHERE length(name) = 24),
               (SELECT setting::bigint FROM pg_settings WHERE name = 'wal_segment_size')
    """
    with psycopg.connect(database_url, autocommit=True) as conn:
        try:
            row = conn.execute(query).fetchone()
        except psycopg.errors.InsufficientPrivilege:
            return None
    if row is None or None in row:
        return None
    current, last, size = row
    return segment_number(current, size), segment_number(last, size)


def segment_number(name: str, segment_size: int) -> int:
    """A segment file's name (timeline, then the log's high 32 bits, then the segment within them, 8 hex digits
    each) as the number of the segment from the log's start."""
    return int(name[8:16], 16) * (0x1_0000_0000 // segment_size) + int(name[16:24], 16)


def segments_made(at_start: tuple[int, int], at_end: tuple[int, int]) -> tuple[int, int]:
    """From ``wal_segments`` at a window's start and end: the segments created in the window (those reached past the
    last file ready at the start) and how many were ready ahead of the log at the start."""
    (current, last), (reached, _) = at_start, at_end
    return max(0, reached - last), last - current


# -- main -----------------------------------------------------------------------------------------------------------
def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", default="50,100,200,300,400", help="tables per capacity step")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between a table's moves")
    parser.add_argument("--step-moves", type=int, default=10, help="moves per table in each capacity step")
    parser.add_argument("--window", type=float, default=30, help="seconds of play in the quiet and background phases")
    parser.add_argument("--entries", type=int, default=1_000_000, help="entries of the background lexicon import")
    parser.add_argument("--phases", default="quiet,capacity,background")
    parser.add_argument("--processes", default="1,2", help="app (and echo) processes of the capacity ramps")
    parser.add_argument("--settings", default="config.settings.base")
    parser.add_argument("--redis-db", type=int, default=5)
    parser.add_argument(
        "--loop", choices=LOOPS, default="uvloop", help="every server's event loop (production: uvloop)"
    )
    args = parser.parse_args()
    args.steps = [int(n) for n in args.steps.split(",")]
    args.phases = args.phases.split(",")
    args.processes = [int(n) for n in args.processes.split(",")]
    if not set(args.processes) <= {1, 2}:
        parser.error("--processes takes 1, 2 or 1,2")
    return args


def main() -> int:
    args = parse_args()
    tables = max([*args.steps, QUIET_TABLES])
    raise_file_limit(tables * 4 * 2 + 1000)
    results: dict = {}
    with (
        log_directory() as logs,
        scratch_database() as database_url,
        scratch_redis(args.redis_db) as redis_url,
        tempfile.TemporaryDirectory() as scratch,
    ):
        env = server_env(database_url, redis_url, args.settings)
        entries = args.entries if "background" in args.phases else None
        plans, background = prepare(env, tables, entries, Path(scratch))
        device = disk.log_device(database_url)
        gc_logs = Path(scratch) / "collections"
        gc_logs.mkdir()
        app_env, echo_env = (collections_log.server_env(env, gc_logs, role) for role in ("app", "echo"))
        with ExitStack() as servers:
            app = [
                servers.enter_context(daphne("config.asgi:application", app_env, logs, loop=args.loop))
                for _ in range(2)
            ]
            echo = [
                servers.enter_context(daphne("bench.live.echo:application", echo_env, logs, loop=args.loop))
                for _ in range(2)
            ]
            if "quiet" in args.phases:
                print("Quiet: moves and echoes side by side…", flush=True)
                load = Load(plans, app, echo)
                results["quiet"] = clients.run(run_then_close(load, quiet(load, args, device=device, gc_logs=gc_logs)))
            if "capacity" in args.phases:
                for servers_used in args.processes:
                    print(f"Capacity on {servers_used} process(es)…", flush=True)
                    load = Load(plans, app[:servers_used], echo[:servers_used])
                    ramped = ramp(load, args, "moves", device, gc_logs)
                    results[f"moves{servers_used}"] = clients.run(run_then_close(load, ramped))
                    load = Load(plans, app[:servers_used], echo[:servers_used])
                    results[f"echo{servers_used}"] = clients.run(
                        run_then_close(load, ramp(load, args, "echo", gc_logs=gc_logs))
                    )
            if background is not None:
                print("Background: an import and class reports on a Celery worker; moves and echoes…", flush=True)
                with background_work(env, logs, *background) as done:
                    load = Load(plans, app, echo)
                    start, end = counted(database_url, done)
                    timed = quiet(load, args, start, device=device, gc_logs=gc_logs)
                    results["background"] = clients.run(run_then_close(load, timed))
                    end()
                results["background"]["done"] = done
        problems = server_problems(logs)
    report(args, results, problems)
    return 0


async def run_then_close(load: Load, phase):
    try:
        return await phase
    finally:
        await load.close()


def report(args, results: dict, problems) -> None:
    print(f"\nLive play at scale: 4 seats a table, think {args.think} s, {os.cpu_count()} cores, {args.settings}")
    for name in ("quiet", "background"):
        if name not in results:
            continue
        r = results[name]
        moves, echoes = r["moves"], r["echoes"]
        m50, m99 = percentile(moves, 50), percentile(moves, 99)
        e50, e99 = percentile(echoes, 50), percentile(echoes, 99)
        print(f"{name}: {QUIET_TABLES} tables and {QUIET_TABLES} echo rooms at once, {args.window:.0f} s")
        print(f"  move p50 / p99 ({len(moves)})      {summary(moves)}")
        print(f"  echo p50 / p99 ({len(echoes)})      {summary(echoes)}")
        print(
            f"  move ÷ echo: p50 {m50 / e50:.2f}× (target ≤ 2×), p99 {m99 / e99:.2f}× (target ≤ 3×); "
            f"errors {r['errors']}"
        )
        if "done" in r:
            print(f"  {background_line(r['done'])}")
        for line in r["lines"]:
            print(f"  {line}")
    for servers in (1, 2):
        if f"moves{servers}" in results:
            moves = capacity(results[f"moves{servers}"], args.think)
            echoes = capacity(results[f"echo{servers}"], args.think)
            print(f"capacity, {servers} process(es) (p99 ≤ {TARGET_P99_MS:.0f} ms): moves {moves}, echo {echoes}")
    for problem, count in problems.most_common(5):
        print(f"  ! {count} × {problem}")


if __name__ == "__main__":
    sys.exit(main())
