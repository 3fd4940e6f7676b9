"""A full garbage collection in a server process, with and without its start-up objects frozen (config/asgi.py).

    .venv/bin/python bench/live/gc_pause.py [--repeats 5]

Imports the ASGI application as Daphne does (Django, every app's modules), then times ``gc.collect()`` with what
start-up made thawed again (as before the freeze) and frozen (as the server runs). No services are needed: settings
come from ``config.settings.base`` with nothing but the process's own environment.
"""

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def full_collection_ms(repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        gc.collect()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import config.asgi  # noqa: F401 - imported for what it makes and freezes

    frozen = gc.get_freeze_count()
    gc.unfreeze()
    tracked = len(gc.get_objects())
    thawed = full_collection_ms(args.repeats)
    gc.freeze()
    after = full_collection_ms(args.repeats)
    print(f"objects made at start-up and frozen by config.asgi: {frozen:,} (tracked when thawed: {tracked:,})")
    print(f"full collection, median of {args.repeats}: {thawed:.1f} ms thawed (before), {after:.2f} ms frozen (now)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
