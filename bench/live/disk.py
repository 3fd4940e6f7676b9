"""The disk under PostgreSQL's log, sampled while a window is timed (Linux: ``/proc/diskstats``).

A move is durable before it is broadcast: every save waits for PostgreSQL's flush of its log, so one slow write on
that disk holds every move in flight at once, while the echo, which touches no disk, goes on. On the seventh machine
(bench/README) single writes of about 200 ms made every quiet window whose p99 missed its target. A window's line
says whether that happened in it: its busiest half second (the most time the device was busy), with the writes
completed in it and their time summed. One slow write shows as a busy time close to its write time with few writes;
the kernel writing back many pages at once shows as a write time well past the busy time.
"""

import os
import statistics
from pathlib import Path
from typing import NamedTuple

import psycopg

from bench.live import sampling

DISKSTATS = Path("/proc/diskstats")


class Reading(NamedTuple):
    """A device's counters since boot, or their change over an interval."""

    busy_ms: int  # time the device had I/O in flight
    writes: int  # writes completed
    write_ms: int  # time spent on writes, summed over the writes in flight

    def __sub__(self, other: tuple) -> "Reading":
        return Reading(*(a - b for a, b in zip(self, other, strict=True)))


def log_device(admin_url: str) -> str | None:
    """The name (``vda``, ``sda2``) of the device that holds PostgreSQL's log (``pg_wal``, a symbolic link followed),
    or ``None`` where that cannot be told (not Linux, no superuser, a server on another machine)."""
    try:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            row = conn.execute("SHOW data_directory").fetchone()
        found = os.stat(Path(row[0]) / "pg_wal") if row else None
    except (psycopg.Error, OSError):
        return None
    if found is None or not DISKSTATS.exists():
        return None
    for line in DISKSTATS.read_text().splitlines():
        major, minor, name = line.split()[:3]
        if (int(major), int(minor)) == (os.major(found.st_dev), os.minor(found.st_dev)):
            return name
    return None


def reading(device: str) -> Reading:
    """The device's counters (``/proc/diskstats``: after the name, writes completed are the 5th figure, the time
    writing the 8th, the time busy the 10th)."""
    for line in DISKSTATS.read_text().splitlines():
        fields = line.split()
        if fields[2] == device:
            return Reading(busy_ms=int(fields[12]), writes=int(fields[7]), write_ms=int(fields[10]))
    raise LookupError(device)


class Sampler(sampling.Sampler[Reading, Reading]):
    """Reads the device every :data:`sampling.INTERVAL` seconds on a thread while it is entered
    (``with Sampler(device)``); with no device it reads nothing."""

    def __init__(self, device: str | None) -> None:
        super().__init__(enabled=device is not None)
        self.device = device

    def read(self) -> Reading:
        assert self.device is not None
        return reading(self.device)

    def change(self, now: Reading, last: Reading) -> Reading:
        return now - last

    def line(self) -> str | None:
        """The window's disk, in a line of the report; ``None`` if it was not sampled."""
        if self.device is None or not self.intervals:
            return None
        busiest = max(self.intervals, key=lambda r: r.busy_ms)
        median = statistics.median(r.busy_ms for r in self.intervals)
        return (
            f"disk under PostgreSQL's log ({self.device}), the busiest half second: busy {busiest.busy_ms} ms, "
            f"{busiest.writes} writes taking {busiest.write_ms} ms in all (a median half second: busy {median:.0f} ms)"
        )

    def during(self, start: float, end: float) -> str | None:
        """The busiest half second that overlapped ``start``–``end`` (``time.monotonic``), for a stall's line;
        ``None`` if the disk was not sampled then."""
        overlapping = self.overlapping(start, end)
        if not overlapping:
            return None
        busiest = max(overlapping, key=lambda r: r.busy_ms)
        return (
            f"the disk busy {busiest.busy_ms} ms in a half second, {busiest.writes} writes taking {busiest.write_ms} ms"
        )
