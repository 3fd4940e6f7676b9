"""The conventions every websocket consumer follows.

A consumer subclasses :class:`JsonConsumer`, declares the messages it accepts in ``schemas`` and
implements ``on_<type>`` for each. Everything else is done here once: messages over the size limit,
binary frames, bad JSON (nested too deeply, NaN or Infinity, NUL or lone surrogates in text), unknown types,
missing or mistyped fields and unknown fields are answered with ``{"type": "error", "code", "message"}`` to the
sender only, and so is a connection, or a user across all their connections, that sends faster than the rate
limits. A user may hold only a few sockets to one page at once. Nothing a client sends can raise past this class.

The per-user limits are counted in this server process (no shared store on the path of every message): with
several processes behind a balancer a user gets at most that many times the limit.
"""

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from importlib import import_module
from typing import Any, ClassVar

from channels.auth import get_user
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from config.channel_layer import LAYER_DOWN
from config.transport import text, user_group
from games.engine.actions import clean_text

logger = logging.getLogger(__name__)

# Close codes (4000-4999 are ours to define).
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_TOO_MANY = 4429
# The channel layer (Redis) is down: the page reconnects with backoff. WebSocket's own "try again later" is 1013, but
# a server may send only 1000 or 3000-4999 (Daphne's autobahn raises on anything else, leaving the socket open), so
# it is 4013 here.
CLOSE_TRY_AGAIN = 4013

# Per process: open sockets by (user, page), and each user's recent messages across all their sockets.
_open_sockets: Counter[tuple[int, str]] = Counter()
_user_messages: dict[int, deque[float]] = {}


class _BadJson(ValueError):
    pass


def _refuse_constant(name: str) -> float:
    raise _BadJson(f"{name} is not a number JSON allows.")


def _nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (brackets inside strings do not count), found without
    parsing, so a frame nested a thousand levels deep is refused before the parser recurses into it."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _clean(value: Any) -> bool:
    """Every text and key of a message storable and sendable (the engine's one check of text)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not clean_text(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def parse_message(text: str) -> Any:
    """The JSON value of a frame, or :class:`ValueError` with a message for the sender."""
    if _nesting_depth(text) > settings.WEBSOCKET_MAX_DEPTH:
        raise _BadJson(f"Messages may nest at most {settings.WEBSOCKET_MAX_DEPTH} levels deep.")
    try:
        message = json.loads(text, parse_constant=_refuse_constant)
    except _BadJson:
        raise
    except ValueError:
        raise _BadJson("Messages must be valid JSON.") from None
    if not _clean(message):
        raise _BadJson("Messages may not contain NUL characters or unpaired surrogates.")
    return message


Schema = dict[str, tuple[type | tuple[type, ...], bool]]  # field -> (types, required)


class JsonConsumer(AsyncWebsocketConsumer):
    schemas: ClassVar[dict[str, Schema]] = {}

    async def connect(self) -> None:
        self._sent_at: deque[float] = deque()
        user = self.scope["user"]
        if not user.is_authenticated:
            await self._refuse(CLOSE_UNAUTHENTICATED)
            return
        page = (user.pk, self.scope["path"])
        if _open_sockets[page] >= settings.WEBSOCKET_MAX_SOCKETS_PER_PAGE:
            await self._refuse(CLOSE_TOO_MANY)
            return
        _open_sockets[page] += 1
        self._page: tuple[int, str] | None = page
        groups = await self.admit(user)
        if groups is None:
            await self._refuse(CLOSE_FORBIDDEN)
            return
        # Every page of a person also listens to that person: logging out or being removed closes them all.
        groups = [*groups, user_group(user.pk)] if user_group(user.pk) not in groups else groups
        self.joined_groups = groups
        try:
            for group in groups:
                await self.channel_layer.group_add(group, self.channel_name)
        except LAYER_DOWN as error:
            # Redis is down or restarting: refuse this connection cleanly (no 500); the page tries again.
            logger.warning("channel layer unavailable, connection refused: %s", error)
            self.joined_groups = []
            await self._try_again()
            return
        await self.accept()
        await self.on_connected()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Run the consumer; when the channel layer's own receive fails (Redis went down, or is down as this socket
        connects), close with 4013 (try again) instead of dying with a traceback: an HTTP 500 during the handshake, 1011
        after it, and a socket never counted out of this page's limit."""
        self._handshake = "pending"
        try:
            await self._serve(scope, receive, send)
        except LAYER_DOWN as error:
            logger.warning("channel layer unavailable, socket closed: %s", error)
            # Redis pub/sub subscribes a consumer's own channel before Channels has kept ``send``: keep it here, so
            # the refusal below can still answer the handshake.
            self.base_send = getattr(self, "base_send", send)
            if self._handshake != "closed":
                with contextlib.suppress(Exception):  # the client may be gone already
                    await self._try_again()
            await self.disconnect(CLOSE_TRY_AGAIN)

    async def _serve(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Channels' ``AsyncConsumer.__call__``, with :func:`dispatch_in_turn` in place of its
        ``await_many_dispatch``."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        with contextlib.suppress(StopConsumer):  # a handler's way to end the consumer
            await dispatch_in_turn(sources, self.dispatch)

    async def accept(self, *args: Any, **kwargs: Any) -> None:
        await super().accept(*args, **kwargs)
        self._handshake = "open"

    async def close(self, *args: Any, **kwargs: Any) -> None:
        await super().close(*args, **kwargs)
        self._handshake = "closed"

    async def _try_again(self) -> None:
        """Close with 4013 (try again later); see :meth:`_refuse`."""
        await self._refuse(CLOSE_TRY_AGAIN)

    async def _refuse(self, code: int) -> None:
        """Close with one of our codes (logged out, no access, too many tabs, try again). Accepted first: a socket
        closed during its handshake is answered with HTTP 403 by the server (Daphne), so the page would never see
        the code, could not say why, and would keep reconnecting."""
        if self._handshake == "pending":
            await self.accept()
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        page = getattr(self, "_page", None)
        if page is not None:
            _open_sockets[page] -= 1
            if _open_sockets[page] <= 0:
                del _open_sockets[page]
            self._page = None
            if not any(user_id == page[0] for user_id, _ in _open_sockets):
                _user_messages.pop(page[0], None)
        for group in getattr(self, "joined_groups", []):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except LAYER_DOWN:
                break  # the layer is down: its groups expire by themselves

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its ``close_old_connections`` hop to the sync thread before every message (a
        frame from the page, and each broadcast forwarded to it): no handler here touches the database on the
        event loop, and every database call (``config.dbthreads.db_async``) looks after its own connection."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def admit(self, user) -> list[str] | None:
        """The groups this logged-in ``user`` listens to here, or ``None`` if they may not connect."""
        raise NotImplementedError

    async def on_connected(self) -> None:
        """Send the first snapshot."""
        raise NotImplementedError

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if bytes_data is not None:
            await self.send_error("binary_not_supported", "Messages must be JSON text.")
            return
        text = text_data or ""
        if len(text.encode("utf-8")) > settings.WEBSOCKET_MAX_MESSAGE_BYTES:
            await self.send_error("too_large", f"Messages can be at most {settings.WEBSOCKET_MAX_MESSAGE_BYTES} bytes.")
            return
        if not self._within_rate_limit():
            await self.send_error("rate_limited", "Too many messages: slow down and try again in a moment.")
            return
        try:
            message = parse_message(text)
        except ValueError as error:
            await self.send_error("bad_json", str(error))
            return
        problem = self._schema_problem(message)
        if problem:
            await self.send_error(*problem)
            return
        await getattr(self, f"on_{message['type']}")(message)

    def _within_rate_limit(self) -> bool:
        """Within this connection's limit and within its user's limit across all their connections."""
        now = time.monotonic()
        user_id = self.scope["user"].pk
        mine = _user_messages.setdefault(user_id, deque())
        if not _admit(self._sent_at, settings.WEBSOCKET_RATE_LIMIT, now):
            return False
        if not _admit(mine, settings.WEBSOCKET_USER_RATE_LIMIT, now):
            self._sent_at.pop()
            return False
        return True

    def _schema_problem(self, message: Any) -> tuple[str, str] | None:
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return "bad_message", "A message must be a JSON object with a string field “type”."
        schema = self.schemas.get(message["type"])
        if schema is None:
            known = ", ".join(sorted(self.schemas))
            return "unknown_type", f"Unknown message type “{message['type'][:40]}”; expected one of: {known}."
        unknown = sorted(set(message) - set(schema) - {"type"})
        if unknown:
            return "bad_message", f"Unknown field(s): {', '.join(f[:40] for f in unknown)}."
        for field, (types, required) in schema.items():
            if field not in message:
                if required:
                    return "bad_message", f"Field “{field}” is required."
                continue
            value = message[field]
            # bool is an int in Python; a schema asking for int never wants True/False.
            if not isinstance(value, types) or (isinstance(value, bool) and bool not in _as_tuple(types)):
                return "bad_message", f"Field “{field}” has the wrong type."
        return None

    # Group messages to the person (config.transport.user_group).
    async def user_logged_out(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "logged_out", "message": "You logged out: log in again to go on."})
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def user_removed(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "removed", "message": "Your teacher has removed you from this class."})
        await self.close(code=CLOSE_FORBIDDEN)

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=text(payload))

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})


async def dispatch_in_turn(
    sources: list[Callable[[], Awaitable[dict[str, Any]]]], dispatch: Callable[[dict[str, Any]], Awaitable[None]]
) -> None:
    """Hand ``dispatch`` every message of every source (the page's frames, the channel layer's broadcasts) one at a
    time, each source's in its order, until it raises; an error of a source is raised here, as it would be by the
    source itself. Each source is read by a task of its own for as long as this runs (what it reads ahead waits here
    instead of in the source's own queue, Daphne's or the channel layer's, unbounded as this one is). Channels'
    ``await_many_dispatch`` made a new task and an ``asyncio.wait`` for every message instead: at 250 moves a second
    that took 5.9% of a server process's CPU, these readers and their queue 3.2% (the channel layer's own receive
    aside; bench/README.md, "a thirteenth machine")."""
    arrived: asyncio.Queue[tuple[dict[str, Any] | None, BaseException | None]] = asyncio.Queue()

    async def read(source: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        try:
            while True:
                arrived.put_nowait((await source(), None))
        except Exception as error:  # noqa: BLE001 - handed to the dispatching task, which raises it
            arrived.put_nowait((None, error))

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        while True:
            message, error = await arrived.get()
            if error is not None:
                raise error
            assert message is not None
            await dispatch(message)
    finally:
        for reader in readers:
            reader.cancel()
        for reader in readers:
            with contextlib.suppress(asyncio.CancelledError):
                await reader


def _admit(sent_at: deque[float], rate: tuple[int, float], now: float) -> bool:
    """A sliding-window limit: at most ``rate[0]`` messages in any ``rate[1]`` seconds."""
    limit, window = rate
    while sent_at and now - sent_at[0] > window:
        sent_at.popleft()
    if len(sent_at) >= limit:
        return False
    sent_at.append(now)
    return True


def _as_tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


class SocketUser:
    """``scope["session"]`` and ``scope["user"]`` for a websocket, from its session cookie (inside Channels'
    ``CookieMiddleware``): Channels' ``AuthMiddlewareStack`` less what a socket never uses. A socket reads its session
    to know its user and never writes it (no cookie can be set on an open websocket), yet Channels' session middleware
    wrapped ``send`` to look at the session again before every frame sent; and the user is the user itself, not a
    lazy proxy that every attribute read went through. Both cost a server process about 3% of its CPU under load
    (bench/README.md, "a thirteenth machine"). The user is found as Channels finds it (``channels.auth.get_user``:
    the session's user, if its password has not changed since; otherwise anonymous)."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.session_store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        scope = {**scope, "session": self.session_store(scope["cookies"].get(settings.SESSION_COOKIE_NAME))}
        scope["user"] = await get_user(scope)
        return await self.application(scope, receive, send)


class SameOriginValidator:
    """Admits a websocket only from a page of this site: the ``Origin`` must have the scheme, host and port of the
    request itself (its ``Host``, an allowed host, over http for ws and https for wss, or the scheme a trusted
    proxy forwarded), or be one of ``CSRF_TRUSTED_ORIGINS``. Comparing the host alone would admit another
    server on the same host (another port) or a plain-http page of an https site."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not self.allowed(scope):
            await send({"type": "websocket.close", "code": CLOSE_FORBIDDEN})
            return None
        return await self.application(scope, receive, send)

    @staticmethod
    def allowed(scope: dict[str, Any]) -> bool:
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        origin, host = headers.get("origin", ""), headers.get("host", "")
        if not origin or not host:
            return False
        if origin in settings.CSRF_TRUSTED_ORIGINS:
            return True
        domain, _port = split_domain_port(host)
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            return False
        secure = scope.get("scheme") == "wss"
        proxy = settings.SECURE_PROXY_SSL_HEADER
        if proxy is not None:
            name = proxy[0].removeprefix("HTTP_").replace("_", "-").lower()
            secure = secure or headers.get(name) == proxy[1]
        return origin == f"{'https' if secure else 'http'}://{host}"
