"""Under ASGI each request may run on another thread: a server process's connections must come from its pool and
stay within its size, never pile up per thread (they used to, until PostgreSQL refused new clients)."""

import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection

from tests.browser.conftest import asgi_server
from tests.conftest import needs_postgresql, session_cookie_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    needs_postgresql("SQLite has no connection pool (one file, no server)"),
]


def other_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def test_a_server_under_a_burst_holds_no_more_connections_than_its_pool(teacher, django_db_blocker):
    cookie = session_cookie_for(teacher).decode()
    pool = settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    before = other_connections()  # this process's own pool

    with asgi_server(django_db_blocker) as url:

        def get(_: int) -> int:
            request = urllib.request.Request(f"{url}/", headers={"Cookie": cookie})  # noqa: S310 - our server
            with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - our own test server
                return response.status

        with ThreadPoolExecutor(max_workers=16) as executor:
            for burst in (1, 8, 64):
                assert set(executor.map(get, range(burst))) == {200}
                assert other_connections() <= before + pool
