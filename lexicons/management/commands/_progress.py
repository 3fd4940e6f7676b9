"""A one-line terminal progress bar for the lexicon commands."""

import sys
import time
from typing import TextIO


class ProgressBar:
    """Redraws ``label [#####-----]  42%  123,456 entries`` in place, at most ten times a second."""

    WIDTH = 30

    def __init__(self, label: str, stream: TextIO = sys.stderr) -> None:
        self.label = label
        self.stream = stream
        self._last = 0.0

    def __call__(self, fraction: float, entries: int) -> None:
        now = time.monotonic()
        if fraction < 1.0 and now - self._last < 0.1:
            return
        self._last = now
        filled = int(fraction * self.WIDTH)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {fraction:4.0%}  {entries:,} entries")
        if fraction >= 1.0:
            self.stream.write("\n")
        self.stream.flush()
