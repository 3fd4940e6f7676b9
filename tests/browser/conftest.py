"""Real-browser tests: a Daphne (ASGI: HTTP + websockets) server in a child process over the test
database, and headless Debian Chromium driven by Playwright (no browser download).

Tests that use ``live_server_url`` must also use ``transactional_db`` (the server process only sees
committed data); the fixture requests it for them.
"""

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial

import pytest
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from config.serve import use_uvloop

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOST = "localhost"


class ServerProcess(DaphneProcess):
    """Daphne in a forked child process, on uvloop's event loop as production runs it (``config.serve``)."""

    def run(self) -> None:
        use_uvloop()  # before Daphne's reactor is installed again in the child, on a new loop
        super().run()


def _prepare_server_process(django_db_blocker, names: dict[str, str], channel_layers: dict | None) -> None:
    """Runs in the server process: point Django at the test databases the parent created, lift
    pytest-django's guard against database access (the forked process inherited it), and switch the
    channel layer if asked."""
    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers as layers
    from django.conf import settings
    from django.db import connections

    django_db_blocker.unblock()
    for alias, name in names.items():
        settings.DATABASES[alias]["NAME"] = name
        connections[alias].settings_dict["NAME"] = name
        # A connection pool inherited through the fork has lost its worker threads and shares the parent's
        # sockets: forget it without closing it (that would end the parent's connections); a new one is made.
        getattr(type(connections[alias]), "_connection_pools", {}).pop(alias, None)
    if channel_layers is not None:
        settings.CHANNEL_LAYERS = channel_layers
    # A layer the parent already used is tied to the parent's event loop, and the parent's worker
    # thread for thread-sensitive database calls did not survive the fork: start with fresh ones.
    layers.backends = {}
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)


@contextmanager
def asgi_server(django_db_blocker, channel_layers: dict | None = None) -> Iterator[str]:
    """A Daphne server (HTTP and websockets) in a child process over the test database."""
    from django.conf import settings
    from django.db import connections

    if HOST not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]
    test_names = {alias: connections[alias].settings_dict["NAME"] for alias in settings.DATABASES}
    # The server is forked: a connection it inherited would share our socket, and closing it there
    # would end ours. Close first; both sides then open their own.
    connections.close_all()
    process = ServerProcess(
        HOST,
        partial(make_application, static_wrapper=ASGIStaticFilesHandler),
        setup=partial(_prepare_server_process, django_db_blocker, test_names, channel_layers),
    )
    process.start()
    if not process.ready.wait(timeout=30):
        process.terminate()
        raise RuntimeError("the ASGI test server did not start")
    try:
        yield f"http://{HOST}:{process.port.value}"
    finally:
        process.terminate()
        process.join(timeout=10)


@pytest.fixture(scope="session")
def _asgi_server(django_db_setup, django_db_blocker) -> Iterator[str]:
    with asgi_server(django_db_blocker) as url:
        yield url


@pytest.fixture
def live_server_url(browser, _asgi_server, transactional_db) -> str:
    return _asgi_server


@pytest.fixture(scope="module")
def browser():
    """Module-scoped: Playwright's sync API keeps an event loop running in this thread while it is
    open, which would break the asyncio tests that run after the browser modules."""
    from playwright.sync_api import sync_playwright

    # The ORM refuses to run while an event loop runs in the thread; here the loop is Playwright's,
    # idle while test code runs, so the check does not apply (Django's docs name this case).
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            yield chromium
            chromium.close()


@pytest.fixture
def new_page(browser):
    """Open pages in separate browser contexts (separate cookies: separate people)."""
    contexts = []

    def open_page():
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        contexts.append(context)
        page = context.new_page()
        # Generous: CI runs two test workers, two servers and the browsers on two cores.
        page.set_default_timeout(20_000)
        return page

    yield open_page
    for context in contexts:
        context.close()
