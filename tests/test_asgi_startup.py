"""The server process's start-up (config.asgi): what it leaves behind for the rest of the process's life."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import gc, json
import config.asgi
frozen = gc.get_freeze_count()
threshold = gc.get_threshold()
gc.unfreeze()
print(json.dumps({"frozen": frozen, "tracked": len(gc.get_objects()), "threshold": threshold}))
"""


def probe(code: str, **env: str) -> str:
    """The last line a fresh process running ``code`` (with the test settings and ``env``) prints."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", **env}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


def start_up(**env: str) -> dict:
    """What a fresh process that imports the ASGI application, as Daphne does, reports of its garbage collector."""
    return json.loads(probe(PROBE, **env))


def test_start_up_objects_are_frozen_out_of_the_garbage_collector():
    """A full collection on the event loop must not walk Django and the apps' modules again and again: a fresh
    process that imports the ASGI application has frozen (nearly) everything it made while starting."""
    found = start_up()
    assert found["frozen"] > 50_000
    assert found["frozen"] >= 0.9 * found["tracked"]


def test_start_up_sets_the_young_collection_threshold():
    """Young collections every GC_YOUNG_THRESHOLD objects (default 5000, not Python's 700), the older generations'
    thresholds left as Python has them; the setting from the environment reaches the server process."""
    default = tuple(start_up()["threshold"])
    assert default == (5000, 10, 10)
    assert tuple(start_up(GC_YOUNG_THRESHOLD="700")["threshold"]) == (700, 10, 10)


def test_the_benchmarks_echo_starts_up_as_the_app_does():
    """bench/live divides a move's round trip by a bare echo's, served as the app is: the echo's process too has
    frozen what it made while starting and collects its young generation at the app's threshold (without them it
    paid full collections of up to 89 ms under load that the app's processes do not)."""
    found = json.loads(probe(PROBE.replace("import config.asgi", "import bench.live.echo"), GC_YOUNG_THRESHOLD="900"))
    assert tuple(found["threshold"]) == (900, 10, 10)
    assert found["frozen"] >= 0.9 * found["tracked"]


SERVE_PROBE = """
import sys
import config.serve
sys.argv = ["serve", "--help"]  # Daphne's command line: it is imported and parsed, then argparse exits
try:
    config.serve.main()
except SystemExit:
    pass
import daphne.server, uvloop
from twisted.internet import reactor
print(type(daphne.server.twisted_loop).__module__, isinstance(reactor._asyncioEventloop, uvloop.Loop))
"""


def test_the_production_server_makes_daphnes_loop_with_uvloop():
    """``python -m config.serve`` (README) sets uvloop's policy before Daphne makes its event loop and installs its
    reactor on it: set after, Daphne would run on asyncio's own loop, and nothing would say so."""
    assert probe(SERVE_PROBE) == "uvloop True"


URLCONF_PROBE = """
import sys
import config.asgi
from django.urls import reverse
before = set(sys.modules)
reverse("games:table", args=[1])
print(" ".join(sorted(set(sys.modules) - before)) or "-")
"""


def test_start_up_loads_the_urlconf_so_a_first_move_imports_nothing():
    """A move's dashboard row reverses its table's URL; in a process that has not yet served a page, that first
    ``reverse()`` imported the URLconf and every view (0.07-0.4 s, every table of the process waiting). A fresh
    process that imports the ASGI application has loaded it already: the first reverse imports no module."""
    assert probe(URLCONF_PROBE) == "-"
