"""Settings of the fault suite's Celery worker process: the test settings on the DATABASE_URL and REDIS_URL the
fixture gives (the test database, the test's own Redis), jobs run by this worker, and the fast job timings."""

import json
import os

from config.settings.test import *  # noqa: F403

CELERY_TASK_ALWAYS_EAGER = False
globals().update(json.loads(os.environ.get("FAULTS_JOBS", "{}")))
