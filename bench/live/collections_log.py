"""The servers' garbage collections while a window or a step is timed (with ``gc_hook/sitecustomize.py``).

A collection runs on the event loop's thread: while it lasts, every table (or echo room) of that process waits. On
earlier machines the slow moves of a step came in clusters at the app processes' collections of the middle
generation (bench/README.md), and finding that took a probe each time. Now each line under a step or a window says
whether its processes collected for long in it: the collections of :data:`SHORTEST_MS` or more that started inside
it, the longest of them, and their time in all.
"""

import os
import time
from pathlib import Path

HOOK = Path(__file__).resolve().parent / "gc_hook"
SHORTEST_MS = 3.0  # the shortest collection the hook logs


def server_env(env: dict[str, str], directory: Path, role: str) -> dict[str, str]:
    """``env`` for a Daphne process of ``role`` (``app``, ``echo``) whose collections are logged in ``directory``."""
    path = os.pathsep.join(p for p in (str(HOOK), env.get("PYTHONPATH", "")) if p)
    logged = {"BENCH_GC_LOG": str(directory), "BENCH_GC_ROLE": role, "BENCH_GC_SHORTEST_MS": str(SHORTEST_MS)}
    return {**env, "PYTHONPATH": path, **logged}


class Window:
    """The span of a timed window or step (``with Window(directory)``); :meth:`line` reads what was logged in it."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.start = self.end = 0.0

    def __enter__(self) -> "Window":
        self.start = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        self.end = time.monotonic()

    def logged(self, role: str) -> list[tuple[float, float, float, int]]:
        """(start, wall ms, CPU ms, generation) of each logged collection of the ``role`` processes."""
        found = []
        for log in self.directory.glob(f"{role}.*") if self.directory else ():
            # Whole lines only: a process may be writing one as the log is read.
            for line in log.read_text().split("\n")[:-1]:
                start, wall, cpu, generation = line.split()
                found.append((float(start), float(wall), float(cpu), int(generation)))
        return found

    def collections(self, role: str) -> list[tuple[float, float, int]]:
        """(wall ms, CPU ms, generation) of each logged collection of the ``role`` processes that began in the span."""
        return [(wall, cpu, gen) for start, wall, cpu, gen in self.logged(role) if self.start <= start <= self.end]

    def during(self, role: str, start: float, end: float) -> str | None:
        """The ``role`` processes' collections under way between ``start`` and ``end`` (``time.monotonic``), for a
        stall's line; ``None`` if they were not logged."""
        if self.directory is None:
            return None
        found = [(w, cpu, gen) for began, w, cpu, gen in self.logged(role) if began < end and began + w / 1000 > start]
        if not found:
            return f"no {role} collection of {SHORTEST_MS:.0f} ms or more"
        wall, cpu, generation = max(found)
        return f"{role} collections {len(found)}, the longest {wall:.1f} ms ({cpu:.1f} of CPU, generation {generation})"

    def line(self, role: str) -> str | None:
        """The span's collections of the ``role`` processes (``app``, ``echo``), in a line of the report; ``None`` if
        they were not logged."""
        if self.directory is None:
            return None
        found = self.collections(role)
        if not found:
            return f"{role} processes' garbage collections of {SHORTEST_MS:.0f} ms or more: none"
        wall, cpu, generation = max(found)
        return (
            f"{role} processes' garbage collections of {SHORTEST_MS:.0f} ms or more: {len(found)}, "
            f"{sum(f[0] for f in found):.0f} ms in all; the longest {wall:.1f} ms ({cpu:.1f} ms of CPU, "
            f"generation {generation})"
        )
