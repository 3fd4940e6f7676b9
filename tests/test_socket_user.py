"""``config.websocket.SocketUser``: a websocket's user, from its session cookie, with the server's own ``send``."""

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware
from django.contrib.auth.models import AnonymousUser

from config.websocket import SocketUser
from learning.models import User
from tests.conftest import session_cookie_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def server_send(message: dict[str, Any]) -> None:
    raise AssertionError("nothing is sent here")


async def server_receive() -> dict[str, Any]:
    raise AssertionError("nothing is received here")


async def seen_by_the_consumer(cookie: bytes | None) -> dict[str, Any]:
    """What the application inside the middleware is called with, for a socket sending ``cookie``."""
    seen: dict[str, Any] = {}

    async def consumer(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.update(scope=scope, receive=receive, send=send)

    scope = {"type": "websocket", "path": "/ws/x/", "headers": [(b"cookie", cookie)] if cookie else []}
    await CookieMiddleware(SocketUser(consumer))(scope, server_receive, server_send)
    return seen


async def test_the_user_of_the_session_cookie_is_the_user_itself_and_send_is_the_servers(teacher: User) -> None:
    seen = await seen_by_the_consumer(await database_sync_to_async(session_cookie_for)(teacher))
    user = seen["scope"]["user"]
    assert type(user) is User  # not a lazy proxy that every attribute read goes through
    assert user.pk == teacher.pk
    assert seen["scope"]["session"].session_key is not None
    # Nothing wraps the server's send (Channels' session middleware looked at the session before every frame).
    assert seen["send"] is server_send
    assert seen["receive"] is server_receive


@pytest.mark.parametrize("cookie", [None, b"sessionid=not-a-session", b"other=1"])
async def test_without_a_valid_session_the_socket_is_anonymous(cookie: bytes | None) -> None:
    seen = await seen_by_the_consumer(cookie)
    assert isinstance(seen["scope"]["user"], AnonymousUser)


async def test_a_session_whose_password_changed_since_is_anonymous(teacher: User) -> None:
    cookie = await database_sync_to_async(session_cookie_for)(teacher)
    teacher.set_password("a new password for this test")
    await database_sync_to_async(teacher.save)()
    seen = await seen_by_the_consumer(cookie)
    assert isinstance(seen["scope"]["user"], AnonymousUser)
