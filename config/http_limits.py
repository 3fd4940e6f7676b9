"""The size limit of request bodies, enforced before Django reads a byte of them.

Django reads a request's whole body (into memory, or a temporary file past ``FILE_UPLOAD_MAX_MEMORY_SIZE``)
before any view or form can check its size, so a 50 MB POST to a small form cost a server process a gigabyte
before the form refused it. This ASGI wrapper refuses a body over its route's limit with 413: at once when the
``Content-Length`` says so, otherwise as soon as the bytes streamed in pass it (a chunked body has no length).

Limits per route: ``REQUEST_BODY_LIMITS`` (path pattern, bytes), first match wins; every other route gets
``REQUEST_MAX_BYTES``. A reverse proxy in front should refuse the same sizes (see docs/deployment.md).
"""

import re
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

Scope = dict[str, Any]
Message = Any  # an ASGI event: a mapping, typed loosely as Django's handler and asgiref's type it differently
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

TOO_LARGE = b"This request is too large: at most %d bytes may be sent here."


def limit_for(path: str) -> int:
    for pattern, limit in settings.REQUEST_BODY_LIMITS:
        if re.match(pattern, path):
            return int(limit)
    return int(settings.REQUEST_MAX_BYTES)


class BodyLimit:
    def __init__(self, application: Callable[[Scope, Any, Any], Awaitable[None]]) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.application(scope, receive, send)
            return
        limit = limit_for(scope["path"])
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(send, limit)
            return
        received = 0
        over = False
        started = False

        async def counting_receive() -> Message:
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True  # Django sees the client go away and stops reading; we answer for it
                    return {"type": "http.disconnect"}
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.application(scope, counting_receive, watching_send)
        if over and not started:
            await _refuse(send, limit)


async def _refuse(send: Send, limit: int) -> None:
    body = TOO_LARGE % limit
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
