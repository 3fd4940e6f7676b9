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
gc.unfreeze()
print(json.dumps({"frozen": frozen, "tracked": len(gc.get_objects())}))
"""


def test_start_up_objects_are_frozen_out_of_the_garbage_collector():
    """A full collection on the event loop must not walk Django and the apps' modules again and again: a fresh
    process that imports the ASGI application has frozen (nearly) everything it made while starting."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["frozen"] > 50_000
    assert found["frozen"] >= 0.9 * found["tracked"]
