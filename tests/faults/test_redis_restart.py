"""Redis dies and comes back: while it is down a websocket connect is refused cleanly with 4013 (try again), never an
HTTP 500; once it is back the first connect succeeds and play goes on; a report asked for while it was down is
built once it is back (the report page's polling sends it again to the worker, which reconnected by itself)."""

import json
import time
import urllib.request

import pytest

from learning import services as learning_services
from learning.models import Report
from tests.conftest import session_cookie_for
from tests.faults.conftest import CATCH_UP, Refused, committed, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.timeout(120)]


def refused_code(player, url: str) -> int | None:
    try:
        player.connect(url)
    except Refused as refused:
        assert refused.http is None, f"the handshake was answered with HTTP {refused.http}, not a close code"
        return refused.code
    return None


def poll_report(url: str, cookie: str, report_id: int) -> dict:
    """What the report page's progress bar asks every few seconds."""
    request = urllib.request.Request(f"{url}/reports/jobs/{report_id}/", headers={"Cookie": cookie})  # noqa: S310
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - our own test server
        return json.loads(response.read())


def test_play_and_reports_go_on_after_redis_restarts(
    start_server, players, pablo, redis_server, worker, celery_on, teacher, classroom
):
    table_id, users = pablo
    server, other = start_server(), start_server()
    worker.start()
    mover = players(users[0], table_id).connect(server.url)
    watcher = players(users[1], table_id).connect(other.url)

    redis_server.stop()
    # A connect while Redis is down: refused with "try again later", on both servers, every time.
    late = players(users[2], table_id)
    for url in (server.url, other.url, server.url):
        assert refused_code(late, url) == 4013  # try again later (a server may not send 1013 itself)
    # A report asked for now cannot be sent to a worker: it waits, queued.
    started = time.monotonic()
    report = learning_services.request_report(teacher, classroom)
    assert time.monotonic() - started < 15, "asking for a report must not hang while the broker is down"
    report.refresh_from_db()
    assert report.status == Report.Status.QUEUED

    redis_server.start()
    # The very first connect after Redis is back is admitted, on either server.
    late.connect(server.url)
    assert late.seq == 0
    for player, url in ((mover, server.url), (watcher, other.url)):
        player.connect(url)  # the pages reconnect (their sockets may have been closed while Redis was down)
    mover.send({"type": "draw"})
    wait_until(lambda: committed(table_id) == 1, 10, "the move after the restart to be committed")
    for player in (mover, watcher, late):
        player.wait_for_seq(1, CATCH_UP)

    # The report page polls: the report is sent again, and the worker (reconnected on its own) builds it.
    cookie = session_cookie_for(teacher).decode()

    def built() -> bool:
        return poll_report(other.url, cookie, report.pk)["status"] == Report.Status.DONE

    wait_until(built, 45, "the report asked for while Redis was down to be built", every=1)
    assert Report.objects.filter(classroom=classroom, scope=Report.Scope.CLASS).count() == 1, "built once"
