"""bench/live/scale.py's line on a window's slowest round trips: a stall (most of them sent together) told apart from
a queue (spread over the window), with what the disk, the cores and the collectors did while the stalled ones were
under way."""

import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bench.live import collections_log, cpu, disk
from bench.live.clients import Trip
from bench.live.scale import tail_line


def test_a_stall_shows_as_the_slowest_sent_within_half_a_second():
    quick = [Trip(sent=i * 0.01, ms=5.0) for i in range(990)]  # 9.9 s of play
    stalled = [Trip(sent=4.0 + i * 0.03, ms=200.0 + i) for i in range(10)]  # all sent 4.0-4.27 s in
    line = tail_line("moves", quick + stalled)
    assert line == "the moves' slowest 1% (10, 200.0 ms or more): 10 sent within 0.5 s, 4.0 s in; all 10 within 0.3 s"


def test_a_queue_shows_as_the_slowest_spread_over_the_window():
    trips = [Trip(sent=i * 0.01, ms=5.0) for i in range(990)]
    trips += [Trip(sent=i * 1.0, ms=50.0) for i in range(10)]  # one a second, 0-9 s in
    line = tail_line("echoes", trips)
    assert line == "the echoes' slowest 1% (10, 50.0 ms or more): 1 sent within 0.5 s, 0.0 s in; all 10 within 9.0 s"


def test_too_few_round_trips_for_a_slowest_one_percent():
    assert tail_line("moves", [Trip(sent=0.0, ms=5.0)] * 99) is None


def test_what_the_samplers_saw_while_the_stalled_ones_were_under_way():
    quick = [Trip(sent=i * 0.01, ms=5.0) for i in range(990)]
    stalled = [Trip(sent=4.0 + i * 0.03, ms=200.0 + i) for i in range(10)]  # the last answered 4.479 s in
    spans = []

    def around(start: float, end: float) -> list[str | None]:
        spans.append((start, end))
        return ["the disk busy 480 ms", None]

    line = tail_line("moves", quick + stalled, around)
    assert line is not None
    assert line.endswith("all 10 within 0.3 s; while those 10 were under way: the disk busy 480 ms")
    [(start, end)] = spans
    assert end - start == pytest.approx(0.479)


def test_the_disk_in_a_span_is_its_busiest_half_second_that_overlapped_it():
    sampler = disk.Sampler(None)
    sampler.intervals = [disk.Reading(10, 5, 4), disk.Reading(500, 0, 0), disk.Reading(30, 9, 8)]
    sampler.ends = [100.5, 101.0, 101.5]
    assert sampler.during(100.6, 100.9) == "the disk busy 500 ms in a half second, 0 writes taking 0 ms"
    assert sampler.during(101.2, 101.3) == "the disk busy 30 ms in a half second, 9 writes taking 8 ms"
    assert sampler.during(102.0, 103.0) is None


def test_the_collections_in_a_span_are_those_under_way_in_it(tmp_path):
    (tmp_path / "app.101").write_text("50.000000 40.0 38.0 1\n60.000000 5.0 4.0 0\n")
    (tmp_path / "echo.102").write_text("50.010000 9.0 9.0 0\n")
    window = collections_log.Window(tmp_path)
    # The first began before the span and was still under way in it.
    assert window.during("app", 50.030, 50.100) == "app collections 1, the longest 40.0 ms (38.0 of CPU, generation 1)"
    assert window.during("app", 55.0, 56.0) == "no app collection of 3 ms or more"
    assert collections_log.Window(None).during("app", 50.0, 60.0) is None


def test_the_cores_in_a_span_say_how_much_went_to_anything_but_the_benchmark():
    sampler = cpu.Sampler(enabled=False)
    quiet = cpu.Usage(0.5, 0.80, Counter({("app", "python", 10): 0.60, ("postgres", "postgres", 11): 0.15}))
    taken = cpu.Usage(
        0.5,
        0.98,
        Counter({("app", "python", 10): 0.55, ("other", "beam.smp", 12): 0.40, ("other", "kdamond.0", 77): 0.01}),
    )
    sampler.intervals, sampler.ends = [quiet, taken], [100.5, 101.0]
    assert sampler.during(100.6, 100.9) == (
        "the cores busy 980 ms in 0.50 s, 430 ms of it outside the benchmark's processes (the most: beam.smp, 400 ms)"
    )
    assert (
        sampler.during(100.1, 100.2) == "the cores busy 800 ms in 0.50 s, 50 ms of it outside the benchmark's processes"
    )
    assert sampler.during(102.0, 103.0) is None
    gone = cpu.Usage(0.5, 0.95, Counter({("app", "python", 10): 0.60, ("other", "kdamond.0", 77): 0.01}))
    sampler.intervals, sampler.ends = [gone], [104.0]
    assert sampler.during(103.6, 103.9) == (
        "the cores busy 950 ms in 0.50 s, 350 ms of it outside the benchmark's processes (the most: kdamond.0, 10 ms), "
        "340 ms of it in no process alive at both readings"
    )


def test_a_process_new_in_an_interval_is_named_with_all_its_cpu_and_one_gone_is_not():
    sampler = cpu.Sampler(enabled=False)
    last = cpu.Usage(
        10.0,
        5.0,
        Counter({("app", "python", 10): 3.0, ("other", "cron", 20): 0.5, ("other", "kworker/0:1-events", 5): 9.0}),
    )
    now = cpu.Usage(
        10.5,
        5.4,
        Counter(
            {
                ("app", "python", 10): 3.1,
                ("other", "beam.smp", 30): 0.2,
                ("other", "kworker/0:1-mm_percpu_wq", 5): 9.01,  # the same kernel worker, its name as its work
            }
        ),
    )
    assert sampler.change(now, last) == cpu.Usage(
        0.5,
        pytest.approx(0.4),
        Counter(
            {
                ("app", "python", 10): pytest.approx(0.1),
                ("other", "beam.smp", 30): 0.2,
                ("other", "kworker/0:1-mm_percpu_wq", 5): pytest.approx(0.01),
            }
        ),
    )


def test_a_program_started_while_the_cores_are_read_is_named_with_its_cpu():
    """A child that starts after the first reading, spins for 0.3 s of its own CPU and lives on past a reading."""
    spin = "import time\nwhile time.process_time() < 0.3: pass\ntime.sleep(1.0)"
    with cpu.Sampler(enabled=True) as sampler:
        time.sleep(0.7)
        child = subprocess.Popen([sys.executable, "-c", spin])
        child.wait(timeout=60)
        time.sleep(0.7)
    seen = sum(usage.processes.get(("other", Path(sys.executable).name, child.pid), 0.0) for usage in sampler.intervals)
    assert seen >= 0.25


def test_the_cores_are_read_from_proc_while_a_window_is_timed():
    with cpu.Sampler(enabled=True) as sampler:
        time.sleep(1.2)
    assert len(sampler.intervals) == 2
    assert all(0.4 < usage.wall < 1.0 and usage.busy >= 0 for usage in sampler.intervals)
    assert any(role == "client" for usage in sampler.intervals for role, _, _ in usage.processes)
