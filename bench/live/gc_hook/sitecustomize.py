"""Logs the garbage collections of a benchmark's server process (:mod:`bench.live.collections_log`).

Python imports ``sitecustomize`` at start-up from its path: the benchmark puts this directory on ``PYTHONPATH`` of its
Daphne processes only, with ``BENCH_GC_LOG`` naming a directory, ``BENCH_GC_ROLE`` the process's part (``app``,
``echo``) and ``BENCH_GC_SHORTEST_MS`` the shortest collection worth a line. Each collection of at least that much
wall time is written there, one line ``start duration_ms cpu_ms generation``, ``start`` on the machine's monotonic
clock (the same in every process, so the benchmark can tell which step it fell in). Wall time is what the process's
event loop, and every table of the process, waits; its CPU time says how much of that was the collector's own work
rather than waiting for a core.
"""

import gc
import os
import time


def _start(directory: str, role: str, shortest_ms: float) -> None:
    out = open(os.path.join(directory, f"{role}.{os.getpid()}"), "a", buffering=1)  # noqa: SIM115 (the process's life)
    started: list[float] = [0.0, 0.0]

    def logged(phase: str, info: dict) -> None:
        if phase == "start":
            started[:] = [time.monotonic(), time.thread_time()]
            return
        wall = (time.monotonic() - started[0]) * 1000
        if wall >= shortest_ms:
            cpu = (time.thread_time() - started[1]) * 1000
            out.write(f"{started[0]:.6f} {wall:.1f} {cpu:.1f} {info['generation']}\n")

    gc.callbacks.append(logged)


if _directory := os.environ.get("BENCH_GC_LOG"):
    _start(_directory, os.environ["BENCH_GC_ROLE"], float(os.environ["BENCH_GC_SHORTEST_MS"]))
