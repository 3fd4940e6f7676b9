"""bench/live/scale.py: the segment files of PostgreSQL's log that a window had to create, none being ready (each is
made while every commit waits), and the background line that reports them."""

import psycopg
import pytest
from django.db import connection

from bench.live.scale import background_line, segment_number, segments_made, wal_segments
from tests.conftest import needs_postgresql
from tests.faults.conftest import database_url

MB = 1024 * 1024


def test_a_segment_files_name_is_its_number_from_the_logs_start():
    assert segment_number("0000000100000000000000C4", 16 * MB) == 0xC4
    # The middle eight digits are the log's high 32 bits: 256 segments of 16 MB each, 64 of 64 MB.
    assert segment_number("000000010000000200000003", 16 * MB) == 2 * 256 + 3
    assert segment_number("000000010000000200000003", 64 * MB) == 2 * 64 + 3


def test_only_the_segments_reached_past_the_last_ready_file_were_created():
    assert segments_made((196, 219), (206, 219)) == (0, 23)  # ten segments written, all of them ready
    assert segments_made((196, 199), (206, 206)) == (7, 3)
    assert segments_made((219, 219), (229, 229)) == (10, 0)


def _done(checkpoints: int) -> dict:
    return {
        "running": 1.0,
        "import": "running (69%) when the window closed",
        "reports": 4,
        "wal": (checkpoints, 139.0, 1629, 0.0),
        "segments": (9, 3),
    }


def test_the_background_line_names_the_created_segments():
    assert background_line(_done(0)).endswith(
        "in the window 139 MB of write-ahead log, 1629 flushes, 0 checkpoint(s), 9 segment file(s) of the log "
        "created (3 ready ahead at the start)"
    )


def test_across_a_checkpoint_the_count_is_a_bound():
    # A checkpoint in the window recycles segments that were not ready at its start.
    assert ", at most 9 segment file(s) of the log created" in background_line(_done(1))


def test_without_a_count_the_line_says_nothing_of_segments():
    done = _done(0)
    del done["segments"]
    assert "segment" not in background_line(done)


@needs_postgresql("it reads PostgreSQL's log")
@pytest.mark.django_db
def test_the_log_is_read_where_it_is_written():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rolsuper, rolsuper OR pg_has_role(current_user, 'pg_monitor', 'MEMBER') FROM pg_roles "
            "WHERE rolname = current_user"
        )
        superuser, may_list = cursor.fetchone()
    found = wal_segments(database_url())
    if not may_list:
        assert found is None
        return
    assert found is not None
    current, last = found
    assert current <= last  # the file being written is in pg_wal
    if superuser:  # only a superuser may switch the log to its next segment
        with psycopg.connect(database_url(), autocommit=True) as conn:
            conn.execute("CREATE TEMPORARY TABLE segment_probe (i int)")  # some log since the last switch
            conn.execute("SELECT pg_switch_wal()")
        after = wal_segments(database_url())
        assert after is not None
        assert after[0] > current
