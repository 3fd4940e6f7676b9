"""Settings for the test suite: fast password hashing, no real e-mail, same service switches as base."""

import os
import tempfile

from .base import *  # noqa: F403
from .base import CACHES, DATABASES, REDIS_URL, redis_channel_layers

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
DEBUG = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, so the live ASGI server process of the browser tests shares the test
    # database; one per test run, so parallel runs on one machine never share it.
    DATABASES["default"]["TEST"] = {"NAME": os.path.join(tempfile.gettempdir(), f"logos-test-{os.getpid()}.sqlite3")}

# Tasks run in-process so tests see their effects; the one test of a real worker switches this off.
CELERY_TASK_ALWAYS_EAGER = True
# Robots wait for the test to run them (games.services.robots.run_pending), unless a test's server asks otherwise.
ROBOTS_RUN = os.environ.get("ROBOTS_RUN", "manual")
ROBOT_DELAY_MIN = float(os.environ.get("ROBOT_DELAY_MIN", "0"))
ROBOT_DELAY_MAX = float(os.environ.get("ROBOT_DELAY_MAX", "0"))

# Close connections after each request and each database_sync_to_async call: a connection kept open in an async
# test's worker thread would outlive the test and stop the test database from being dropped at the end.
DATABASES["default"]["CONN_MAX_AGE"] = 0

# pytest-xdist's workers share one Redis but each has its own test database, whose ids all start at 1: without a
# prefix of their own, one worker's broadcast to "classroom-1" or "table-1" reached the other worker's pages (and
# their throttle counts mixed). Each worker gets its own channel-layer prefix and cache key prefix.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if _WORKER and REDIS_URL:
    CHANNEL_LAYERS = redis_channel_layers(REDIS_URL, f"asgi-{_WORKER}")
    CACHES["default"]["KEY_PREFIX"] = _WORKER
