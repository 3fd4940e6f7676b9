"""Where a move's round trip goes, stage by stage, beside the bare echo's, in the same run.

    .venv/bin/python bench/live/stages.py [--window 30] [--think 1.0] [--tables 50] [--rooms 50]
                                          [--loop uvloop|asyncio] [--redis-db 5] [--background [--entries N]]

``scale.py``'s quiet phase (50 Palabras Cortas tables × 4 seats and 50 echo rooms × 4 sockets, about one move or
echo a second each, on two app and two echo processes), served by ``bench.live.stage_marks``: the same app and echo,
whose processes write down the moment each move (and each echo) passes each stage. ``--tables`` and ``--rooms``
change the load: ``--tables 300 --rooms 0`` is ``scale.py``'s capacity step of 300 moves a second, whose servers'
share of the round trip can then be told from the benchmark's own client's (which shares the two cores with them).
``--background`` times the window beside ``scale.py``'s background work (a lexicon import and class reports on a
Celery worker of the project's settings), to tell where that work lengthens a move.
A move's stages, on the server:

- decided: from the frame reaching its consumer to the save's call (checks, the rules, the new version);
- saved: the save, one round trip to PostgreSQL (the statement, and the commit's flush of the log); the move's
  broadcast is made while it waits, so this is cut in three: the statement made and sent (and the seats' players
  listed), the broadcast made, and the wait for PostgreSQL's answer after that;
- handed back: from the save's return to the consumer having the broadcasts to send;
- to the first page's process: the publish to Redis and Redis's delivery to the server processes;
- forwarded to every page: from the first consumer of the group that has it to the last that has sent its copy.

The echo has only the last two, with "received" in place of "handed back". Each figure is the median (and the 90th and
99th percentiles) over the moves of the window; the client's round trips (from the send to the last seat's frame) are
printed above them, as ``scale.py`` prints them. The stages up to "handed back" run on the event loop of the process
whose page sent the move; under the table, each is cut into that loop's CPU time and the time its thread did not
run (waiting on PostgreSQL with nothing else to do, or its core given to another process: PostgreSQL's backend,
woken by the statement, can run on the loop's core and put off the broadcast's making until it waits for its
flush). Below them, PostgreSQL's own count of the flushes of its log in the window and their time
(``scale.wal_counters``: ``pg_stat_wal``, PostgreSQL 14 to 17; ``track_wal_io_timing`` is set on for the benchmark's
database only, so a flush by the WAL writer, which serves no database, is counted but not timed: the mean is a
floor). A move's commit waits for one of them.

Writing the marks costs each process a line of a file per mark (in /dev/shm where there is one: ``MARKS_PARENT``).
"""

import argparse
import sys
import tempfile
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.live import clients, run, scale  # noqa: E402
from bench.live.scale import QUIET_TABLES, Load, quiet, run_then_close  # noqa: E402

Mark = tuple[float, str, str, float]  # time, mark, key, the CPU time of the loop's thread that wrote it

# The marks are written to a memory filesystem where there is one: a line appended to a file on disk can wait for
# the disk's writeback of that page (seen on a machine whose /tmp is on its disk: "decided" p99 281 ms, the client's
# move p99 335 ms, against 1.8 and 12.2 ms with the marks in /dev/shm), a wait the app itself never has.
MARKS_PARENT = "/dev/shm" if Path("/dev/shm").is_dir() else None


def read_marks(directory: Path) -> list[Mark]:
    marks = []
    for path in directory.glob("*.txt"):
        for line in path.read_text().splitlines():
            at, cpu, name, key = line.split()
            marks.append((float(at), name, key, float(cpu)))
    return sorted(marks)


def passages(marks: list[Mark], seats: int = 4) -> dict[str, list[dict[str, list[Mark]]]]:
    """Each key's (table's or echo room's) marks cut at every ``received``: one move (or echo) each, kept when it
    reached every seat (``seats`` forwarded marks). Keys of tables start with ``t``; the rest are echo rooms."""
    by_key: dict[str, list[Mark]] = defaultdict(list)
    for found in marks:
        by_key[found[2]].append(found)
    kept: dict[str, list[dict[str, list[Mark]]]] = {"moves": [], "echoes": []}
    for key, found in by_key.items():
        passage: dict[str, list[Mark]] | None = None
        for one in [*found, None]:
            if one is None or one[1] == "received":
                if passage is not None and len(passage.get("forwarded", [])) >= seats:
                    kept["moves" if key.startswith("t") else "echoes"].append(passage)
                passage = None if one is None else {"received": [one]}
            elif passage is not None:
                passage.setdefault(one[1], []).append(one)
    return kept


def forget_marks(marks_dir: Path) -> None:
    """Drop the marks written so far (the warm-up's): each process appends, so it goes on from the start."""
    for path in marks_dir.glob("*.txt"):
        path.write_text("")


def _first(passage: dict[str, list[Mark]], name: str) -> float:
    return min(found[0] for found in passage[name])


def _last(passage: dict[str, list[Mark]], name: str) -> float:
    return max(found[0] for found in passage[name])


def stages(kept: dict[str, list[dict[str, list[Mark]]]]) -> list[tuple[str, list[float], list[float]]]:
    """(stage, the moves' durations in ms, the echoes' durations in ms); an empty list where the echo has no such
    stage."""
    moves = [p for p in kept["moves"] if "save" in p and "saved" in p and "handed" in p]
    made = [p for p in moves if "build" in p and "built" in p]
    echoes = kept["echoes"]

    def of(passages: list, start: str, end: str, last: bool = False) -> list[float]:
        ends = _last if last else _first
        return [(ends(p, end) - _first(p, start)) * 1000 for p in passages]

    return [
        ("decided", of(moves, "received", "save"), []),
        ("saved (PostgreSQL)", of(moves, "save", "saved"), []),
        ("  the statement sent", of(made, "save", "build"), []),
        ("  the broadcast made meanwhile", of(made, "build", "built"), []),
        ("  then PostgreSQL's answer", of(made, "built", "saved"), []),
        ("handed back", of(moves, "saved", "handed"), []),
        ("to the first page's process", of(moves, "handed", "arrived"), of(echoes, "received", "arrived")),
        ("forwarded to every page", of(moves, "arrived", "forwarded", True), of(echoes, "arrived", "forwarded", True)),
        ("on the servers in all", of(moves, "received", "forwarded", True), of(echoes, "received", "forwarded", True)),
    ]


# The move's stages from its frame's arrival to its broadcasts handed back: all on the loop of the page's process.
ON_THE_LOOP = (
    ("decided", "received", "save"),
    ("  the statement sent", "save", "build"),
    ("  the broadcast made meanwhile", "build", "built"),
    ("  then PostgreSQL's answer", "built", "saved"),
    ("handed back", "saved", "handed"),
)


def on_the_loop(kept: dict[str, list[dict[str, list[Mark]]]]) -> list[tuple[str, list[float], list[float]]]:
    """(stage, the loop thread's CPU time in ms, the time it did not run in ms), move by move, for the stages of
    :data:`ON_THE_LOOP`."""
    marks = {name for _, start, end in ON_THE_LOOP for name in (start, end)}
    moves = [p for p in kept["moves"] if marks <= p.keys()]
    rows = []
    for stage, start, end in ON_THE_LOOP:
        # Each stage's first marks, as its wall time is cut (:func:`_first`): one mark gives both clocks.
        spans = [(min(p[start]), min(p[end])) for p in moves]
        cpus = [(to[3] - since[3]) * 1000 for since, to in spans]
        walls = [(to[0] - since[0]) * 1000 for since, to in spans]
        rows.append((stage, cpus, [wall - cpu for wall, cpu in zip(walls, cpus, strict=True)]))
    return rows


def flush_line(syncs: int, ms: float, moves: int) -> str:
    """The window's flushes of PostgreSQL's log and their time (``scale.wal_counters``, end less start) for ``moves``
    moves."""
    per_move = f"{syncs / moves:.2f} a move" if moves else "no moves"
    mean = f"{ms / syncs:.2f} ms a flush at least" if syncs else "none timed"
    return f"PostgreSQL's log flushed {syncs} times in the window ({per_move}), {ms:.0f} ms timed in all: {mean}"


def _figure(values: list[float], percentiles: tuple[int, ...] = (50, 90, 99)) -> str:
    if not values:
        return f"{'':22}"
    return " / ".join(f"{run.percentile(values, p):6.2f}" for p in percentiles)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--think", type=float, default=1.0, help="seconds between a table's moves")
    parser.add_argument("--window", type=float, default=30, help="seconds of play timed")
    parser.add_argument("--tables", type=int, default=QUIET_TABLES, help="tables playing at once")
    parser.add_argument("--rooms", type=int, default=QUIET_TABLES, help="echo rooms echoing at once")
    parser.add_argument("--settings", default="config.settings.base")
    parser.add_argument("--redis-db", type=int, default=5)
    parser.add_argument("--loop", choices=run.LOOPS, default="uvloop", help="every server's event loop")
    parser.add_argument(
        "--background",
        action="store_true",
        help="time the window beside scale.py's background work (an import and class reports on a Celery worker)",
    )
    parser.add_argument("--entries", type=int, default=1_000_000, help="entries of the background lexicon import")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    run.raise_file_limit((args.tables + args.rooms) * 4 + 1000)
    with (
        run.log_directory() as logs,
        run.scratch_database() as database_url,
        run.scratch_redis(args.redis_db) as redis_url,
        tempfile.TemporaryDirectory(dir=MARKS_PARENT) as marks_dir,
    ):
        env = {**run.server_env(database_url, redis_url, args.settings), "STAGES_DIR": marks_dir}
        # The flushes' time, for this database's sessions only (the server's setting is left as it is).
        run.admin(f"ALTER DATABASE {run.DATABASE} SET track_wal_io_timing = on")
        entries = args.entries if args.background else None
        plans, background = scale.prepare(env, args.tables, entries, Path(marks_dir))
        with ExitStack() as servers:
            app = [
                servers.enter_context(run.daphne("bench.live.stage_marks:application", env, logs, loop=args.loop))
                for _ in range(2)
            ]
            echo = [
                servers.enter_context(run.daphne("bench.live.stage_marks:echo", env, logs, loop=args.loop))
                for _ in range(2)
            ]
            counts: dict = {}  # the window's write-ahead log (scale.counted), with the background work's progress
            if background is not None:
                print("Background: an import and class reports on a Celery worker…", flush=True)
                counts = servers.enter_context(scale.background_work(env, logs, *background))
            start, end = scale.counted(database_url, counts)
            print("Moves and echoes side by side…", flush=True)
            load = Load(plans, app, echo)

            def warmed() -> None:
                forget_marks(Path(marks_dir))
                start()

            timed = clients.run(run_then_close(load, quiet(load, args, warmed, args.tables, args.rooms)))
            end()
            marks = read_marks(Path(marks_dir))
        problems = run.server_problems(logs)
        kept = passages(marks)
    moves, echoes = timed["moves"], timed["echoes"]
    print(
        f"\nA move's stages beside the echo's: {args.tables} tables and {args.rooms} echo rooms, "
        f"one move (echo) each every {args.think:g} s, {args.window:.0f} s"
    )
    print(
        f"  client round trip p50 / p99: move {run.percentile(moves, 50):.1f} / {run.percentile(moves, 99):.1f} ms, "
        f"echo {run.percentile(echoes, 50):.1f} / {run.percentile(echoes, 99):.1f} ms; errors {timed['errors']}"
    )
    print(f"  {'stage (ms, p50 / p90 / p99)':34} {'move':>22}   {'echo':>22}")
    for name, of_moves, of_echoes in stages(kept):
        print(f"  {name:34} {_figure(of_moves)}   {_figure(of_echoes)}")
    print(f"  ({len(kept['moves'])} moves and {len(kept['echoes'])} echoes reached every seat in the window)")
    print(f"  {'on the loop that plays the move (ms)':34} {'its CPU, p50 / p90':>22}   {'not running, p50 / p90':>22}")
    for name, cpus, idle in on_the_loop(kept):
        print(f"  {name:34} {'':6}{_figure(cpus, (50, 90))}   {'':6}{_figure(idle, (50, 90))}")
    _, _, syncs, sync_ms = counts["wal"]
    print(f"  {flush_line(syncs, sync_ms, len(moves))}")
    if args.background:
        print(f"  {scale.background_line(counts)}")
    if problems:
        print(f"  server log errors: {sum(problems.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
