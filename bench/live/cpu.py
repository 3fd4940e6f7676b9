"""CPU time spent by each part of the live benchmark, read from /proc (Linux): where a step's cores went.

Every process of the machine is put in one role by its command line: the app's Daphne processes, the echo's, the
PostgreSQL server (all its backends), Redis, this benchmark's own client, and everything else. A step's figure is
the CPU time each role used between two readings, divided by the round trips the step timed.
"""

import os
from collections import Counter
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
ROLES = ("app", "echo", "postgres", "redis", "client", "other")


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
        seconds[_role(int(entry.name), command, name)] += (int(fields[11]) + int(fields[12])) / TICKS
    return seconds


def per_round_trip(before: Counter, after: Counter, round_trips: int) -> str:
    """Each role's CPU milliseconds per round trip between two readings, and their total."""
    if not round_trips:
        return "no round trips"
    spent = {role: max(after[role] - before[role], 0.0) * 1000 / round_trips for role in ROLES}
    parts = ", ".join(f"{role} {spent[role]:.1f}" for role in ROLES if spent[role] >= 0.05)
    return f"CPU ms per round trip: {parts}; total {sum(spent.values()):.1f}"
