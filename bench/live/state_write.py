"""PostgreSQL's part of a move as a game's state grows: the update of the state, and reading it back.

    .venv/bin/python bench/live/state_write.py [--repeats 100] [--rounds 3] [--database postgres://…/test]

The states are those of growth.py's four-robot Grabble game (the bundled Greek lexicon), at its early plays, its late
plays, and its first and last quiz answers. Each is written by the statement a move's save is, reduced to the state:
``UPDATE … SET state = %s::jsonb WHERE id = 1`` (prepared, the median of ``--repeats``), into a scratch table whose
state column is compressed with PostgreSQL's default (pglz) and into one with lz4 (the project's, migration 0005);
then the same update returning the state's text (what the loop's save did before 2026-11-27), and the state read
back as text. The floor, printed first: the same with the last state without its history (the plays), the size of an
early state. ``--rounds`` alternates the two compressions. The scratch tables are dropped on the way out.

Then the history kept apart (games.models.HistoryEntry, since 2026-11-27 late): "apart update" is the save's own
shape, the column's value without the plays (``stored_state``) written with the entries the move changed
(``Table.history_writes``) upserted into an entry table, in one statement; "apart read" the locked read's, the
column's text with the entries gathered as the JSON text of their lists.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
if os.environ.get("PYTHONHASHSEED") != "0":  # growth.py's games are the same in every run
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})

import psycopg  # noqa: E402

from bench.live.growth import robot_windows  # noqa: E402
from config.transport import json_bytes  # noqa: E402
from games.engine.game import history_writes, stored_state  # noqa: E402

METHODS = ("pglz", "lz4")
ENTRIES = "bench_state_entries"
APART_UPDATE = (
    "WITH saved AS (UPDATE bench_state_apart SET state = %s::jsonb WHERE id = 1 RETURNING id), "
    f"entries AS (INSERT INTO {ENTRIES} (table_id, key, number, entry) SELECT 1, e.key, e.number, e.entry "
    "FROM saved, jsonb_to_recordset(%s::jsonb) AS e(key text, number integer, entry jsonb) "
    "ON CONFLICT (table_id, key, number) DO UPDATE SET entry = EXCLUDED.entry) SELECT id FROM saved"
)
APART_READ = (
    "SELECT state::text, (SELECT json_object_agg(x.k, x.e) FROM (SELECT key AS k, json_agg(entry ORDER BY number) "
    f"AS e FROM {ENTRIES} WHERE table_id = 1 GROUP BY key) x)::text FROM bench_state_apart WHERE id = 1"
)


def apart(conn: psycopg.Connection, before: dict, after: dict, repeats: int) -> tuple[float, float]:
    """The update and the read of ``after`` with its plays kept apart, from the rows of ``before``."""
    conn.execute(f"TRUNCATE {ENTRIES}")
    with conn.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {ENTRIES} (table_id, key, number, entry) VALUES (1, 'plays', %s, %s::jsonb)",
            [(i, json_bytes(entry).decode()) for i, entry in enumerate(before.get("plays", []))],
        )
    stem = json_bytes(stored_state(after, ("plays",))).decode()
    writes, _ = history_writes(("plays",), {"plays": before.get("plays", [])}, after)
    update = timed(conn, APART_UPDATE, [stem, json_bytes(writes).decode()], repeats)
    return update, timed(conn, APART_READ, [], repeats)


def timed(conn: psycopg.Connection, sql: str, params: list, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        conn.execute(sql, params, prepare=True).fetchall()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    states = []
    for label, moves in robot_windows(10, 3):
        rules, state, seat, action, ctx = moves[-1]
        new_state, _ = rules.apply(state, seat, action, ctx)
        states.append((label.replace("Grabble, 4 robots, ", ""), state, new_state))
    last = robot_windows(10, 3)[-1][1][-1][1]
    floor = {key: value for key, value in last.items() if key != "plays"}
    states.insert(0, ("floor: the last state without its plays", floor, floor))
    with psycopg.connect(args.database, autocommit=True) as conn:
        tables = {method: f"bench_state_{method}" for method in METHODS}
        try:
            for method, table in tables.items():
                conn.execute(f"DROP TABLE IF EXISTS {table}")
                conn.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, state jsonb COMPRESSION {method})")
                conn.execute(f"INSERT INTO {table} VALUES (1, '{{}}')")
            conn.execute("DROP TABLE IF EXISTS bench_state_apart")
            conn.execute("CREATE TABLE bench_state_apart (id int PRIMARY KEY, state jsonb COMPRESSION lz4)")
            conn.execute("INSERT INTO bench_state_apart VALUES (1, '{}')")
            conn.execute(f"DROP TABLE IF EXISTS {ENTRIES}")
            conn.execute(
                f"CREATE TABLE {ENTRIES} (id bigserial PRIMARY KEY, table_id int, key text, number int, entry jsonb, "
                "UNIQUE (table_id, key, number))"
            )
            print(f"{'state':<44} {'kB':>6} {'rnd':>3}  " + "  ".join(f"{m + ' update':>12}" for m in METHODS), end="")
            print(f"  {'lz4 update returning':>20}  {'lz4 read':>9}  {'apart update':>12}  {'apart read':>10}")
            for label, before, after in states:
                text = json_bytes(after).decode()
                for round_ in range(args.rounds):
                    updates = []
                    for method in METHODS if round_ % 2 == 0 else reversed(METHODS):
                        sql = f"UPDATE {tables[method]} SET state = %s::jsonb WHERE id = 1 RETURNING id"
                        updates.append((method, timed(conn, sql, [text], args.repeats)))
                    by_method = dict(updates)
                    table = tables["lz4"]
                    returning = timed(
                        conn,
                        f"UPDATE {table} SET state = %s::jsonb WHERE id = 1 RETURNING state::text",
                        [text],
                        args.repeats,
                    )
                    read = timed(conn, f"SELECT state::text FROM {table} WHERE id = 1", [], args.repeats)
                    apart_update, apart_read = apart(conn, before, after, args.repeats)
                    print(
                        f"{label:<44} {len(text.encode()) / 1000:6.1f} {round_ + 1:>3}  "
                        + "  ".join(f"{by_method[m]:9.2f} ms" for m in METHODS)
                        + f"  {returning:17.2f} ms  {read:6.2f} ms  {apart_update:9.2f} ms  {apart_read:7.2f} ms"
                    )
        finally:
            for table in [*tables.values(), "bench_state_apart", ENTRIES]:
                conn.execute(f"DROP TABLE IF EXISTS {table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
