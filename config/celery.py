"""The Celery application; tasks are found in each app's ``tasks.py``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("logos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="logos.ping")
def ping() -> str:
    """Health check for operators: ``celery -A config call logos.ping`` answers "pong" through the
    broker and result backend when a worker is up."""
    return "pong"
