"""bench/live/stages.py: a move's save cut at its broadcast's marks, and the line on PostgreSQL's flushes."""

from bench.live.stages import Mark, flush_line, on_the_loop, passages, stages


def _move(at: float, key: str = "t1") -> list[Mark]:
    """One move's marks, ``at`` seconds in: 1 ms to decide, the save's statement sent in 0.5 ms, its broadcast made in
    0.25 ms, PostgreSQL's answer 1.25 ms after that; then four seats forwarded. The loop's thread ran all the time
    but for 0.25 ms of the statement's stage (another process had its core) and 1 ms of the wait for the answer."""
    steps = [
        (0.0, 0.0, "received"),
        (1.0, 1.0, "save"),
        (1.5, 1.25, "build"),
        (1.75, 1.5, "built"),
        (3.0, 1.75, "saved"),
        (3.25, 2.0, "handed"),
        (4.0, 0.0, "arrived"),  # in another process: its own thread's clock
        *((4.5 + i / 10, 0.0, "forwarded") for i in range(4)),
    ]
    return [(at + ms / 1000, name, key, 7.0 + cpu / 1000) for ms, cpu, name in steps]


def _rows(marks: list[Mark]) -> dict[str, list[float]]:
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


def test_the_stages_on_the_loop_are_cut_into_its_cpu_and_the_time_it_did_not_run():
    rows = {
        name: ([round(v, 6) for v in cpus], [round(v, 6) for v in idle])
        for name, cpus, idle in on_the_loop(passages(sorted(_move(1.0) + _move(2.0, "t2"))))
    }
    assert rows == {
        "decided": ([1.0, 1.0], [0.0, 0.0]),
        "  the statement sent": ([0.25, 0.25], [0.25, 0.25]),
        "  the broadcast made meanwhile": ([0.25, 0.25], [0.0, 0.0]),
        "  then PostgreSQL's answer": ([0.25, 0.25], [1.0, 1.0]),
        "handed back": ([0.25, 0.25], [0.0, 0.0]),
    }


def test_a_move_without_the_broadcasts_marks_is_left_out_of_the_loop_cut():
    without = [m for m in _move(2.0) if m[1] not in ("build", "built")]
    (name, cpus, idle), *_ = on_the_loop(passages(sorted(_move(1.0) + without)))
    assert (name, [round(v, 6) for v in cpus], [round(v, 6) for v in idle]) == ("decided", [1.0], [0.0])


def test_the_flushes_line():
    assert flush_line(1500, 1230.0, 1500) == (
        "PostgreSQL's log flushed 1500 times in the window (1.00 a move), 1230 ms timed in all: "
        "0.82 ms a flush at least"
    )
    assert flush_line(0, 0.0, 0) == (
        "PostgreSQL's log flushed 0 times in the window (no moves), 0 ms timed in all: none timed"
    )
