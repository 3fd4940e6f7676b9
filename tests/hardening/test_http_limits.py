"""Request bodies over their route's limit are refused before Django reads them; every page carries a
Content-Security-Policy."""

import pytest
from channels.testing import HttpCommunicator
from django.test import Client, override_settings

from config.asgi import application
from config.http_limits import limit_for

pytestmark = [pytest.mark.django_db(transaction=True)]


class Recorder:
    """The wrapped app: records whether it ran and how much body it got."""

    def __init__(self):
        self.called = False
        self.body = b""

    async def __call__(self, scope, receive, send):
        self.called = True
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def call(app, path, chunks, headers=()):
    from asgiref.testing import ApplicationCommunicator

    scope = {"type": "http", "method": "POST", "path": path, "headers": list(headers), "query_string": b""}
    comm = ApplicationCommunicator(app, scope)
    for i, chunk in enumerate(chunks):
        await comm.send_input({"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1})
    start = await comm.receive_output(timeout=5)
    body = await comm.receive_output(timeout=5)
    await comm.wait(timeout=5)
    return start["status"], body["body"]


def test_routes_have_their_own_limits(settings):
    assert limit_for("/join/") == settings.REQUEST_MAX_BYTES
    assert limit_for("/lexicons/upload/") > settings.LEXICON_UPLOAD_MAX_BYTES
    assert limit_for("/lexicons/12/replace/") > settings.LEXICON_UPLOAD_MAX_BYTES


@pytest.mark.asyncio
async def test_an_oversized_body_is_refused_by_its_length_before_the_app_runs():
    from config.http_limits import BodyLimit

    app = Recorder()
    status, body = await call(BodyLimit(app), "/join/", [b""], headers=[(b"content-length", b"50000000")])
    assert status == 413
    assert b"too large" in body
    assert not app.called


@pytest.mark.asyncio
async def test_a_body_without_a_length_is_cut_off_once_it_passes_the_limit(settings):
    from config.http_limits import BodyLimit

    app = Recorder()
    chunk = b"x" * 64 * 1024
    chunks = [chunk] * (settings.REQUEST_MAX_BYTES // len(chunk) + 2)
    status, _ = await call(BodyLimit(app), "/join/", chunks)
    assert status == 413
    assert len(app.body) <= settings.REQUEST_MAX_BYTES


@pytest.mark.asyncio
async def test_a_body_within_the_limit_reaches_the_app():
    from config.http_limits import BodyLimit

    app = Recorder()
    status, body = await call(BodyLimit(app), "/join/", [b"a" * 100, b"b" * 100])
    assert (status, body) == (200, b"ok")
    assert app.body == b"a" * 100 + b"b" * 100


@pytest.mark.asyncio
async def test_the_real_application_refuses_a_big_anonymous_post():
    body = b"x" * (300 * 1024)
    comm = HttpCommunicator(
        application, "POST", "/join/", body=body, headers=[(b"content-length", str(len(body)).encode())]
    )
    response = await comm.get_response(timeout=5)
    assert response["status"] == 413


@override_settings(DEBUG=False)
def test_pages_carry_a_content_security_policy():
    response = Client().get("/join/")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
