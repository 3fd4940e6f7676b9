"""CPU time spent by each part of the live benchmark, read from /proc (Linux): where a step's cores went.

Every process of the machine is put in one role by its command line: the app's Daphne processes, the echo's, the
PostgreSQL server (all its backends), Redis, this benchmark's own client, and everything else. A step's figure is
the CPU time each role used between two readings, divided by the round trips the step timed.
"""

import os
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from bench.live import sampling

TICKS = os.sysconf("SC_CLK_TCK")
ROLES = ("app", "echo", "postgres", "redis", "client", "other")
UNNAMED_SHOWN = 0.1  # seconds: less may be the readings' granularity (each process's time counts in 10 ms ticks)


def _role(pid: int, command: str, name: str) -> str:
    if pid == os.getpid():
        return "client"
    if "config.asgi" in command:
        return "app"
    if "bench.live.echo" in command:
        return "echo"
    if name == "postgres":
        return "postgres"
    if name == "redis-server":
        return "redis"
    return "other"


def reading() -> Counter:
    """CPU seconds used so far by the live processes of each role (user and system, the process's own threads)."""
    seconds: Counter = Counter()
    for (role, _, _), used in processes().items():
        seconds[role] += used
    return seconds


def processes() -> Counter:
    """CPU seconds used so far by each live process, keyed by (role, name, pid)."""
    seconds: Counter = Counter()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # the process ended while being read
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        # utime and stime are fields 14 and 15 of stat(5), so 11 and 12 after the name and state.
        pid = int(entry.name)
        seconds[(_role(pid, command, name), name, pid)] = (int(fields[11]) + int(fields[12])) / TICKS
    return seconds


def machine_busy() -> float:
    """CPU seconds the machine's cores have been busy so far (``/proc/stat``: all but idle, iowait and steal), every
    process counted, those that came and went between two readings too."""
    user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in Path("/proc/stat").read_text().split()[1:8])
    return (user + nice + system + irq + softirq) / TICKS


class Usage(NamedTuple):
    """The cores so far, or over an interval: busy in all, and each live process's part."""

    wall: float  # seconds (``time.monotonic`` in a reading)
    busy: float  # seconds
    processes: Counter  # seconds, by (role, name, pid)


class Sampler(sampling.Sampler[Usage, Usage]):
    """The cores every :data:`sampling.INTERVAL` seconds while a window is timed: whether something besides the
    benchmark took them when its round trips stalled (on the twentieth machine, a program the machine starts every
    minute took 200 ms of a core while the cores were 85-90% busy with play, bench/README.md)."""

    def read(self) -> Usage:
        return Usage(time.monotonic(), machine_busy(), processes())

    def change(self, now: Usage, last: Usage) -> Usage:
        # A process new in the interval used all of its CPU time in it: on the twenty-first machine a program started
        # every minute took 200 ms of a core and went unnamed, its time counted outside the benchmark but no process
        # named with it. One that came and went between two readings is still only in the cores' busy time. Matched
        # by pid: a kernel worker's name changes with the work it does.
        before = {pid: seconds for (_, _, pid), seconds in last.processes.items()}
        used = Counter({key: seconds - before.get(key[2], 0.0) for key, seconds in now.processes.items()})
        return Usage(now.wall - last.wall, now.busy - last.busy, used)

    def during(self, start: float, end: float) -> str | None:
        """The interval (about half a second) that overlapped ``start``–``end`` (``time.monotonic``) where the most
        CPU went to anything but the benchmark's own processes, for a stall's line; ``None`` if none was sampled."""
        overlapping = self.overlapping(start, end)
        if not overlapping:
            return None

        def others(usage: Usage) -> float:  # the cores' busy time, less what the benchmark's processes used
            ours = sum(used for (role, _, _), used in usage.processes.items() if role != "other")
            return max(usage.busy - ours, 0.0)

        worst = max(overlapping, key=others)
        line = (
            f"the cores busy {worst.busy * 1000:.0f} ms in {worst.wall:.2f} s, "
            f"{others(worst) * 1000:.0f} ms of it outside the benchmark's processes"
        )
        named = [(used, name) for (role, name, _), used in worst.processes.items() if role == "other" and used > 0]
        if named:
            used, name = max(named)
            line += f" (the most: {name}, {used * 1000:.0f} ms)"
        # What no process read in the interval used: one that came and went between two readings (the machine's
        # RabbitMQ starts a program every minute that lives less than half a second), the kernel's interrupts.
        unnamed = others(worst) - sum(used for used, _ in named)
        if unnamed >= UNNAMED_SHOWN:
            line += f", {unnamed * 1000:.0f} ms of it in no process alive at both readings"
        return line


def per_round_trip(before: Counter, after: Counter, round_trips: int) -> str:
    """Each role's CPU milliseconds per round trip between two readings, and their total."""
    if not round_trips:
        return "no round trips"
    spent = {role: max(after[role] - before[role], 0.0) * 1000 / round_trips for role in ROLES}
    parts = ", ".join(f"{role} {spent[role]:.1f}" for role in ROLES if spent[role] >= 0.05)
    return f"CPU ms per round trip: {parts}; total {sum(spent.values()):.1f}"
