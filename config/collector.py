"""The garbage collector of a server process, set once the process has started.

Called at the end of ``config/asgi.py``, and by bench/live's bare echo, which is served as the app is so that the
two are compared on the same footing.
"""

import gc

from django.conf import settings


def settle() -> None:
    """Freeze what starting made, and collect the young generation every ``settings.GC_YOUNG_THRESHOLD`` objects."""
    # Everything made while starting (Django and every module of the apps, about 130,000 objects) lives as long as
    # the process. Frozen out of the garbage collector's sight, it is no longer walked by every full collection,
    # which took 35 ms on the event loop while every table of the process waited (bench/README.md, "Live play at
    # scale").
    gc.freeze()
    # Under load a process keeps each table's state for about a second (the copy the next move is decided on), long
    # enough to outlive many young collections at Python's default of one every 700 objects: about 4% of the
    # process's CPU went to collecting, and a full collection (50-105 ms with a thousand sockets open) came every
    # 15 s. Less often, most of those states are gone before the collector looks (bench/README.md, "the garbage
    # collector under load"). The older generations' thresholds stay as Python has them.
    gc.set_threshold(settings.GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
