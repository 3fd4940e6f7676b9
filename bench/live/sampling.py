"""What the samplers of a timed window share (``disk.Sampler``, ``cpu.Sampler``): a thread that reads a counter every
:data:`INTERVAL` seconds while the window is timed and keeps each interval's change and when it ended, so that a
stall's line can say what happened in the half seconds it overlapped."""

import threading
import time
from typing import Generic, Self, TypeVar

INTERVAL = 0.5  # seconds between readings

R = TypeVar("R")  # a reading
C = TypeVar("C")  # its change over an interval


class Sampler(Generic[R, C]):
    """Reads every :data:`INTERVAL` seconds on a thread while it is entered (``with``); when not ``enabled`` it reads
    nothing. A subclass says how to read (:meth:`read`) and what changed between two readings (:meth:`change`)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.intervals: list[C] = []
        self.ends: list[float] = []  # when each interval ended (``time.monotonic``)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def read(self) -> R:
        raise NotImplementedError

    def change(self, now: R, last: R) -> C:
        raise NotImplementedError

    def __enter__(self) -> Self:
        if self.enabled:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        last = self.read()
        while not self._stop.wait(INTERVAL):
            now = self.read()
            self.intervals.append(self.change(now, last))
            self.ends.append(time.monotonic())
            last = now

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def overlapping(self, start: float, end: float) -> list[C]:
        """The intervals that overlapped ``start``–``end`` (``time.monotonic``)."""
        spans = zip(self.intervals, self.ends, strict=True)
        return [change for change, ended in spans if ended > start and ended - INTERVAL < end]
