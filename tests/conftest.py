"""Fixtures shared by the whole suite."""

import os
import uuid
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils.module_loading import import_string

from config import asyncdb
from config.asgi import application
from config.celery import app as celery_app
from config.settings.base import redis_channel_layers
from learning import services
from learning.models import Classroom, User


def needs_postgresql(why: str) -> pytest.MarkDecorator:
    """A mark for a test of what only PostgreSQL has: skipped, saying ``why``, on SQLite (a quick run on a laptop);
    under ``REQUIRE_REAL_SERVICES`` (CI) a database that is not PostgreSQL is an error, never a skip."""
    postgresql = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    if not postgresql and os.environ.get("REQUIRE_REAL_SERVICES"):
        raise RuntimeError("REQUIRE_REAL_SERVICES is set but DATABASE_URL does not name PostgreSQL")
    return pytest.mark.skipif(not postgresql, reason=f"needs PostgreSQL (DATABASE_URL): {why}")


@pytest.fixture
def teacher(db) -> User:
    return User.objects.create_user(username="ms-kalogeropoulou", password="a-good-password-42", role=User.Role.TEACHER)


@pytest.fixture
def other_teacher(db) -> User:
    return User.objects.create_user(username="mr-other", password="a-good-password-42", role=User.Role.TEACHER)


@pytest.fixture
def classroom(teacher) -> Classroom:
    return services.create_classroom(teacher, "Greek 101", Classroom.Language.GREEK)


@pytest.fixture
def student(classroom):
    return services.join_classroom(classroom.join_code, "Ana")


def session_cookie_for(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


_communicators: list[WebsocketCommunicator] = []


async def communicator(path: str, user: User | None = None, origin: str = "http://testserver") -> WebsocketCommunicator:
    """A websocket client for the real ASGI application (origin check and session auth included). Tests that use
    it also use :func:`disconnect_communicators`."""
    headers = [(b"origin", origin.encode()), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie_for)(user)))
    ws = WebsocketCommunicator(application, path, headers=headers)
    _communicators.append(ws)
    return ws


async def refused_with(ws: WebsocketCommunicator) -> int:
    """The close code of a connection the server refuses. Our refusals accept the socket and then close it with
    their code (a browser is never told a code at the handshake); the origin check refuses at the handshake."""
    connected, code = await ws.connect()
    if not connected:
        return int(code)
    message = await ws.receive_output(timeout=3)
    assert message["type"] == "websocket.close", message
    return int(message["code"])


@pytest.fixture(autouse=True)
def _no_table_copies():
    """Each test starts with no copies of tables' rows in this process (games/services/loop_moves.py): a table of
    another test may have had the same id."""
    from games.services import loop_moves

    loop_moves._copies.clear()


@pytest.fixture
async def disconnect_communicators():
    """After the test, disconnect every websocket it left open (a refused one too: its consumer still waits for the
    disconnect). Consumers then end as in production, instead of being cancelled with the test's event loop, where
    a cancelled channels-redis receive once hung the suite's teardown for good. What a test without this fixture
    left behind belongs to its own, closed event loop: it is forgotten, not touched."""
    _communicators.clear()
    yield
    while _communicators:
        ws = _communicators.pop()
        started = ws._future  # asgiref starts the application on first use of ``future``: don't start one here
        if started is not None and not started.done():
            await ws.disconnect(timeout=5)
    await asyncdb.close()  # the connections of this loop's moves (config/asyncdb.py) end with it


@pytest.fixture(scope="session")
def _bundled_lexicons_loaded(django_db_setup, django_db_blocker) -> None:
    from lexicons.services import load_bundled_lexicons

    with django_db_blocker.unblock():
        load_bundled_lexicons()


@pytest.fixture
def bundled_lexicons(_bundled_lexicons_loaded, db) -> dict:
    """The real bundled lexicons by slug ("koine-greek", "spanish", "english"), loaded once per test session
    (about 15 s). Pass one to ``lexicons.services.word_list`` for a games ``WordList``. Reloaded only if a
    transactional test flushed them."""
    from lexicons.services import load_bundled_lexicons

    return load_bundled_lexicons()


REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def channel_layer_on(redis_url: str) -> Any:
    """The channel layer exactly as the settings configure it, on the Redis at ``redis_url``, with a prefix of its
    own."""
    layer = redis_channel_layers(redis_url, f"test-{uuid.uuid4().hex[:8]}")["default"]
    return import_string(layer["BACKEND"])(**layer["CONFIG"])


def _forget_broker_connections() -> None:
    """An eager task run earlier in this process (eager runs still take a producer) left the app's connection and
    producer pools on the memory:// broker; messages sent through them would never reach the worker. Celery
    itself drops them this way after a fork. The result backend it made is dropped too: a fault test's backend points
    at a Redis of its own, long stopped, and a later ``result.get()`` would wait on it until Celery gives up."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    celery_app._backend_cache = None
    celery_app._local.__dict__.pop("backend", None)


@pytest.fixture
def celery_worker_on_redis():
    """The Celery app pointed at the real Redis with one real worker thread; everything is put back after."""
    saved = {key: celery_app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    celery_app.conf.update(broker_url=REDIS_URL, result_backend=REDIS_URL, task_always_eager=False)
    _forget_broker_connections()
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
            yield celery_app
    finally:
        celery_app.conf.update(saved)
        _forget_broker_connections()
