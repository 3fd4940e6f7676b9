"""The conventions every websocket consumer follows.

A consumer subclasses :class:`JsonConsumer`, declares the messages it accepts in ``schemas`` and
implements ``on_<type>`` for each. Everything else is done here once: messages over the size limit,
binary frames, bad JSON, unknown types, missing or mistyped fields and unknown fields are answered
with ``{"type": "error", "code", "message"}`` to the sender only, and so is a connection that sends
faster than the rate limit. Nothing a client sends can raise past this class.
"""

import json
import logging
import time
from collections import deque
from typing import Any, ClassVar

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

logger = logging.getLogger(__name__)

# Close codes (4000-4999 are ours to define).
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403

Schema = dict[str, tuple[type | tuple[type, ...], bool]]  # field -> (types, required)


class JsonConsumer(AsyncWebsocketConsumer):
    schemas: ClassVar[dict[str, Schema]] = {}

    async def connect(self) -> None:
        self._sent_at: deque[float] = deque()
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        groups = await self.admit(user)
        if groups is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.joined_groups = groups
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.on_connected()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "joined_groups", []):
            await self.channel_layer.group_discard(group, self.channel_name)

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
            message = json.loads(text)
        except ValueError:
            await self.send_error("bad_json", "Messages must be valid JSON.")
            return
        problem = self._schema_problem(message)
        if problem:
            await self.send_error(*problem)
            return
        await getattr(self, f"on_{message['type']}")(message)

    def _within_rate_limit(self) -> bool:
        limit, window = settings.WEBSOCKET_RATE_LIMIT
        now = time.monotonic()
        while self._sent_at and now - self._sent_at[0] > window:
            self._sent_at.popleft()
        if len(self._sent_at) >= limit:
            return False
        self._sent_at.append(now)
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

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload, ensure_ascii=False))

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})


def _as_tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)
