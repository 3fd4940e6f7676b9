"""bench/live/stages.py: a move's save cut at its broadcast's marks, and the line on PostgreSQL's flushes."""

from bench.live.stages import flush_line, passages, stages


def _move(at: float, key: str = "t1") -> list[tuple[float, str, str]]:
    """One move's marks, ``at`` seconds in: 1 ms to decide, the save's statement sent in 0.5 ms, its broadcast made in
    0.25 ms, PostgreSQL's answer 1.25 ms after that; then four seats forwarded."""
    steps = [
        (0.0, "received"),
        (1.0, "save"),
        (1.5, "build"),
        (1.75, "built"),
        (3.0, "saved"),
        (3.25, "handed"),
        (4.0, "arrived"),
        *((4.5 + i / 10, "forwarded") for i in range(4)),
    ]
    return [(at + ms / 1000, name, key) for ms, name in steps]


def _rows(marks: list[tuple[float, str, str]]) -> dict[str, list[float]]:
    return {name: [round(v, 6) for v in of_moves] for name, of_moves, _ in stages(passages(sorted(marks)))}


def test_the_save_is_cut_where_its_broadcast_begins_and_ends():
    rows = _rows(_move(1.0) + _move(2.0))
    assert rows["saved (PostgreSQL)"] == [2.0, 2.0]
    assert rows["  the statement sent"] == [0.5, 0.5]
    assert rows["  the broadcast made meanwhile"] == [0.25, 0.25]
    assert rows["  then PostgreSQL's answer"] == [1.25, 1.25]
    assert rows["decided"] == [1.0, 1.0]


def test_a_move_without_the_broadcasts_marks_is_left_out_of_the_cut_only():
    without = [m for m in _move(2.0) if m[1] not in ("build", "built")]
    rows = _rows(_move(1.0) + without)
    assert rows["saved (PostgreSQL)"] == [2.0, 2.0]
    assert rows["  the statement sent"] == [0.5]


def test_the_flushes_line():
    assert flush_line(1500, 1230.0, 1500) == (
        "PostgreSQL's log flushed 1500 times in the window (1.00 a move), 1230 ms timed in all: "
        "0.82 ms a flush at least"
    )
    assert flush_line(0, 0.0, 0) == (
        "PostgreSQL's log flushed 0 times in the window (no moves), 0 ms timed in all: none timed"
    )
