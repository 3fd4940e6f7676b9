"""The class page's live roster."""

from typing import Any, ClassVar

from channels.db import database_sync_to_async

from config.transport import classroom_group
from config.websocket import CLOSE_FORBIDDEN, JsonConsumer, Schema

from . import selectors
from .models import User


class ClassroomConsumer(JsonConsumer):
    """Open on a class page; pushes the roster whenever it changes. Only the class's teacher and its
    active students may connect."""

    schemas: ClassVar[dict[str, Schema]] = {"hello": {}}

    async def admit(self, user: User) -> list[str] | None:
        self.classroom_id = int(self.scope["url_route"]["kwargs"]["classroom_id"])
        if await self._snapshot_if_allowed(user) is None:
            return None
        return [classroom_group(self.classroom_id)]

    async def on_connected(self) -> None:
        await self.on_hello({})

    @database_sync_to_async
    def _snapshot_if_allowed(self, user: User) -> dict[str, Any] | None:
        classroom = selectors.classroom_by_id(self.classroom_id)
        if classroom is None or not selectors.can_view_classroom(user, classroom):
            return None
        from games.selectors import my_table_url  # games imports learning: this import waits until it is needed

        return {
            "type": "roster",
            "students": selectors.roster(classroom),
            "locked": classroom.locked,
            # A student's table in the running lesson: a page that missed the lesson's start goes there.
            "table_url": my_table_url(user, classroom),
        }

    async def on_hello(self, message: dict[str, Any]) -> None:
        snapshot = await self._snapshot_if_allowed(self.scope["user"])
        if snapshot is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.send_json(snapshot)

    # Group messages.
    async def roster_changed(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "roster", "students": message["students"], "locked": message["locked"]})

    async def lesson_started(self, message: dict[str, Any]) -> None:
        """A lesson began: send a student (only) to their own table; ``urls`` maps user ids to table pages."""
        url = message["urls"].get(str(self.scope["user"].id))
        if url:
            await self.send_json({"type": "lesson", "url": url})
