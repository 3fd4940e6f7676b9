"""The fault suite's real processes: a Redis server of its own on a spare port (the machine's shared Redis is never
stopped), Daphne servers over the test database on that Redis, a Celery worker process, and a websocket client that
behaves like the table page (it says ``hello`` with its last seq every few seconds).

Every fixture stops what it started, even when the test fails; every wait has a deadline; all traffic stays on
127.0.0.1. Without ``redis-server`` the suite is skipped, except when ``REQUIRE_REAL_SERVICES`` is set (CI), where
that is a failure.
"""

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import redis
from channels.testing.live import make_application
from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from config.celery import app as celery_app
from config.settings.base import redis_channel_layers
from games.models import Table
from games.services import lessons
from learning import services as learning_services
from tests.browser.conftest import ServerProcess, _prepare_server_process
from tests.conftest import _forget_broker_connections, session_cookie_for
from tests.games.rules.pablo_helpers import playing

REQUIRED = bool(os.environ.get("REQUIRE_REAL_SERVICES"))
REDIS_SERVER = shutil.which("redis-server")
ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
# The job timings the worker and the servers run with here (production: minutes; see the README's "Faults").
FAST_JOBS = {"IMPORT_HEARTBEAT_TIMEOUT": 3, "REPORT_HEARTBEAT_TIMEOUT": 3, "JOB_RESEND_AFTER": 1}


def wait_until(check: Callable[[], Any], timeout: float, what: str, every: float = 0.1) -> Any:
    """Poll ``check`` until it returns something true; fail the test with ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)


def spare_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


# -- Redis ---------------------------------------------------------------------------------------------------------
class RedisServer:
    """A redis-server of the test's own (no persistence), on a spare port that it keeps across restarts."""

    def __init__(self, workdir: Path) -> None:
        self.port = spare_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", HOST, "--save", "", "--appendonly", "no"],
            cwd=self.workdir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(host=HOST, port=self.port, socket_timeout=1)

        def up() -> bool:
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        wait_until(up, 10, "redis-server to answer")
        client.close()

    def stop(self) -> None:
        """Gone at once, as a crashed Redis is (kill -9)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def redis_server(tmp_path) -> Iterator[RedisServer]:
    if REDIS_SERVER is None:
        if REQUIRED:
            pytest.fail("redis-server is not installed, and REQUIRE_REAL_SERVICES is set")
        # The suite starts, kills and restarts a Redis of its own; CI has one (REQUIRE_REAL_SERVICES fails above).
        pytest.skip("needs the redis-server program (Debian package redis-server) to start a Redis of its own")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


# -- Celery in this process (the publisher) --------------------------------------------------------------------------
@pytest.fixture
def celery_on(redis_server) -> Iterator[None]:
    """This process publishes jobs to the test's Redis (a worker process runs them); put back after."""
    saved = {key: celery_app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    celery_app.conf.update(broker_url=redis_server.url, result_backend=redis_server.url, task_always_eager=False)
    _forget_broker_connections()
    try:
        yield
    finally:
        celery_app.conf.update(saved)
        _forget_broker_connections()


# -- Daphne servers -------------------------------------------------------------------------------------------------
def _prepare_fault_server(
    django_db_blocker: Any, names: dict[str, str], layers: dict[str, Any], redis_url: str, overrides: dict[str, Any]
) -> None:
    """Runs in the server process: the test database, the test's Redis as channel layer and broker (jobs are
    published, not run in the server), and the fast job timings."""
    _prepare_server_process(django_db_blocker, names, layers)
    for name, value in overrides.items():
        setattr(settings, name, value)
    celery_app.conf.update(broker_url=redis_url, result_backend=redis_url, task_always_eager=False)
    _forget_broker_connections()


class Server:
    """A Daphne process (HTTP and websockets) over the test database."""

    def __init__(self, django_db_blocker: Any, redis_url: str, prefix: str) -> None:
        names = {alias: connections[alias].settings_dict["NAME"] for alias in settings.DATABASES}
        layers = redis_channel_layers(redis_url, prefix)
        # Forked: close our connections first, or the child would share (and end) our sockets.
        connections.close_all()
        self.process = ServerProcess(
            HOST,
            partial(make_application, static_wrapper=ASGIStaticFilesHandler),
            setup=partial(_prepare_fault_server, django_db_blocker, names, layers, redis_url, FAST_JOBS),
        )
        self.process.start()
        if not self.process.ready.wait(timeout=30):
            self.kill()
            raise RuntimeError("the Daphne server did not start")
        self.url = f"http://{HOST}:{self.process.port.value}"

    def kill(self) -> None:
        """kill -9: no clean shutdown, no last broadcast."""
        if self.process.is_alive() and self.process.pid is not None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.join(timeout=10)


@pytest.fixture
def start_server(redis_server, django_db_blocker, transactional_db) -> Iterator[Callable[[], Server]]:
    """Start Daphne servers on one channel layer (the test's Redis); every one is killed after the test."""
    if HOST not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]
    prefix = f"faults-{uuid.uuid4().hex[:8]}"
    started: list[Server] = []

    def start() -> Server:
        server = Server(django_db_blocker, redis_server.url, prefix)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.kill()


# -- the Celery worker process ------------------------------------------------------------------------------------
def database_url() -> str:
    """The test database as a DATABASE_URL, for a process that is not forked from this one."""
    conf = connections["default"].settings_dict
    if conf["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{conf['NAME']}"
    user = conf.get("USER") or ""
    password = f":{conf['PASSWORD']}" if conf.get("PASSWORD") else ""
    credentials = f"{user}{password}@" if user else ""
    return f"postgres://{credentials}{conf.get('HOST') or HOST}:{conf.get('PORT') or 5432}/{conf['NAME']}"


class Worker:
    """``celery -A config worker`` in its own process group, on the test database and the test's Redis."""

    def __init__(self, redis_url: str, logfile: Path) -> None:
        self.redis_url = redis_url
        self.logfile = logfile
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, processes: int = 0, jobs: dict[str, Any] | None = None) -> None:
        """Start (or restart) the worker: one job at a time in its own process (``--pool solo``), or with
        ``processes`` a pool of that many processes as production runs it; ``jobs``: settings besides FAST_JOBS."""
        self.kill()
        self.starts += 1
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.faults.worker_settings",
            "DATABASE_URL": database_url(),
            "REDIS_URL": self.redis_url,
            "FAULTS_JOBS": json.dumps({**FAST_JOBS, **(jobs or {})}),
        }
        pool = ["--concurrency", str(processes)] if processes else ["--pool", "solo"]
        with self.logfile.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", *pool, "--loglevel", "INFO"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_until(lambda: self.ready() or self._exited(), 60, "the Celery worker to be ready", every=0.25)
        assert self.process.poll() is None, f"the worker exited:\n{self.log()[-3000:]}"

    def _exited(self) -> bool:
        return self.process is not None and self.process.poll() is not None

    def log(self) -> str:
        return self.logfile.read_text(errors="replace") if self.logfile.exists() else ""

    def ready(self) -> bool:
        """The worker logged "ready." once more than before this start."""
        return self.log().count(" ready.") >= self.starts

    def kill(self) -> None:
        """kill -9 of the worker and anything it started: the job it was running stops mid-way."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def worker(redis_server, transactional_db, tmp_path) -> Iterator[Worker]:
    """A Celery worker process (not yet started: call ``start``, again to restart it); killed after the test."""
    process = Worker(redis_server.url, tmp_path / "worker.log")
    try:
        yield process
    finally:
        process.kill()


# -- a websocket client that behaves like the table page -------------------------------------------------------------
class Refused(Exception):
    """The server refused the websocket: ``code`` is the close code, or the HTTP status of a refused handshake."""

    def __init__(self, code: int | None, http: int | None = None) -> None:
        super().__init__(f"refused: close code {code}, HTTP {http}")
        self.code = code
        self.http = http


class Player:
    """A table page's socket: keeps the last seq it saw and, every ``heartbeat`` seconds while it waits, says
    ``hello`` with it (the page does so every 4 s), so a missed broadcast is made up by a snapshot."""

    def __init__(self, user: Any, table_id: int, heartbeat: float = 1.0) -> None:
        self.cookie = session_cookie_for(user).decode()
        self.table_id = table_id
        self.heartbeat = heartbeat
        self.seq = -1
        self.view: dict[str, Any] = {}
        self.ws: ClientConnection | None = None
        self.received: list[dict[str, Any]] = []

    def connect(self, server_url: str) -> "Player":
        """Open the socket on ``server_url``, say hello like a reconnecting page, and take the first snapshot."""
        self.close()
        host = server_url.removeprefix("http://")
        try:
            self.ws = connect(
                f"ws://{host}/ws/tables/{self.table_id}/",
                origin=server_url,  # type: ignore[arg-type]
                additional_headers={"Cookie": self.cookie},
                open_timeout=10,
                close_timeout=2,
                legacy=True,
            )
        except InvalidStatus as error:
            raise Refused(None, error.response.status_code) from None
        first = self._next(10)
        if first is None or first.get("type") != "state":
            raise AssertionError(f"no first snapshot: {first}")
        self.ws.send(json.dumps({"type": "hello", "last_seq": self.seq}))
        return self

    def _next(self, timeout: float) -> dict[str, Any] | None:
        assert self.ws is not None
        try:
            message = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return None
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            raise Refused(code) from None
        self.received.append(message)
        if message.get("type") in ("state", "event") and message["seq"] >= self.seq:
            self.seq = message["seq"]
            self.view = message["view"]
        return message

    def send(self, action: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps({"type": "action", "action": action, "client_id": uuid.uuid4().hex[:8]}))

    def wait_for_seq(self, seq: int, timeout: float) -> None:
        """Read until the page has ``seq``, with heartbeats; fail after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        beat = time.monotonic()
        while self.seq < seq:
            now = time.monotonic()
            if now > deadline:
                pytest.fail(f"the client stayed at seq {self.seq}, {timeout} s after seq {seq} was committed")
            if now - beat >= self.heartbeat:
                assert self.ws is not None
                self.ws.send(json.dumps({"type": "hello", "last_seq": self.seq}))
                beat = now
            self._next(min(0.2, max(deadline - now, 0.01)))

    def next_of(self, kind: str, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self._next(max(deadline - time.monotonic(), 0.01))
            if message is not None and message.get("type") == kind:
                return message
        pytest.fail(f"no {kind!r} message within {timeout} s")

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
            self.ws = None


@pytest.fixture
def players() -> Iterator[Callable[..., Player]]:
    """Make :class:`Player` clients; every one is closed after the test."""
    made: list[Player] = []

    def make(user: Any, table_id: int, heartbeat: float = 1.0) -> Player:
        player = Player(user, table_id, heartbeat)
        made.append(player)
        return player

    yield make
    for player in made:
        player.close()


# -- a table to play at -------------------------------------------------------------------------------------------
CATCH_UP = 6  # seconds a page may take to see a committed move it missed (heartbeats every second here)


@pytest.fixture
def pablo(teacher, classroom):
    """A Pablo table of three, in play: seat 0 to draw; the discard pile's top is the 5♦, and seats 1 and 2 each
    hold a five in their slot 3."""
    students = [learning_services.join_classroom(classroom.join_code, name) for name in ("Ana", "Βασίλης", "Chloé")]
    lesson = lessons.start_lesson(teacher, classroom, "pablo", None, {}, [[s.id for s in students]])
    table = lesson.tables.get()
    state = playing(
        [["2H", "3H", "4H", "6H"], ["2S", "3S", "4S", "5S"], ["2C", "3C", "4C", "5C"]], draw=["9D"], discard=["5D"]
    )
    state.update(rng=table.state["rng"], last_move=None)
    Table.objects.filter(pk=table.pk).update(state=state)
    users = [seat.student.user for seat in table.seats.select_related("student__user").order_by("number")]
    return table.pk, users


def committed(table_id: int) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table_id)
