"""The live table page and the teacher's lesson dashboard (the protocol is described in docs/protocol.md).

A table connection joins its table's group; each broadcast there carries every seat's censored events and view,
and a connection forwards its own seat's copy only (the spectators' to the teacher), never the whole message.
Actions are played on this event loop (``loop_moves.apply_action``; on a database thread where they must be), and
their committed broadcasts sent from it; every refusal is answered to the sender only, followed by a snapshot.
"""

import logging
from typing import Any, ClassVar

from config import asyncdb, transport
from config.dbthreads import db_async
from config.websocket import CLOSE_FORBIDDEN, JsonConsumer, Schema
from games import selectors
from games.engine import AppError
from games.services import loop_moves, moves, robots
from learning.models import User

logger = logging.getLogger(__name__)

CLIENT_ID_MAX = 64


class TableConsumer(JsonConsumer):
    """``ws/tables/<id>/``: the table's seated students (each in their own seat) and the class's teacher."""

    schemas: ClassVar[dict[str, Schema]] = {
        "action": {"action": (dict, True), "client_id": (str, False)},
        "hello": {"last_seq": (int, False), "log": (bool, False)},
        "preview": {"action": (dict, True), "client_id": (str, False)},
    }

    async def admit(self, user: User) -> list[str] | None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        found = await self._access(user)
        if found is None:
            return None
        self.seat = found.seat
        return [transport.table_group(self.table_id)]

    async def on_connected(self) -> None:
        self._hellos = 0
        asyncdb.open_soon()  # the loop's connections for the moves to come
        await db_async(robots.nudge_table)(self.table_id)
        await self.send_snapshot(log=True)

    @db_async
    def _access(self, user: User) -> selectors.Access | None:
        table = selectors.table_by_id(self.table_id)
        return None if table is None else selectors.access(user, table)

    @db_async
    def _snapshot(self, log: bool = False) -> dict[str, Any]:
        return selectors.snapshot_of(self.table_id, self.seat, log=log)

    async def send_snapshot(self, log: bool = False) -> None:
        """A ``state`` message; with ``log``, with the last moves as this seat may see them (for the page's log)."""
        await self.send_json(await self._snapshot(log))

    async def send_error(self, code: str, message: str, client_id: str | None = None) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, "client_id": client_id})

    async def on_hello(self, message: dict[str, Any]) -> None:
        """A (re)connected client, or a page's heartbeat, says which seq it has; it gets a snapshot unless it is
        up to date (checked by the table's version alone: a heartbeat costs one small read). With ``log``, the
        snapshot carries the move log too (a page that missed moves rebuilds its log). Every fourth heartbeat also
        wakes robots that should have acted and did not (their process died mid-thought)."""
        self._hellos = getattr(self, "_hellos", 0) + 1
        if self._hellos % 4 == 0:
            await db_async(robots.nudge_table)(self.table_id)
        if message.get("last_seq") == await db_async(selectors.table_version)(self.table_id):
            return
        await self.send_snapshot(log=bool(message.get("log")))

    async def on_action(self, message: dict[str, Any]) -> None:
        client_id = message.get("client_id")
        client_id = client_id[:CLIENT_ID_MAX] if client_id is not None else None
        try:
            deferred = await loop_moves.apply_action(self.table_id, self.scope["user"], message["action"])
        except AppError as error:
            await self.send_error(error.code, error.message, client_id)
            await self.send_snapshot()
        except Exception:
            logger.exception("action failed at table %s", self.table_id)
            await self.send_error("server_error", "Something went wrong on the server; nothing was changed.", client_id)
            await self.send_snapshot()
        else:
            # Sent from a task of its own: this consumer's own seat's copy of the move is already in its queue, and
            # would otherwise wait for every publish (the dashboard row, the learning job) before reaching the page.
            transport.send_deferred_soon(deferred)

    async def on_preview(self, message: dict[str, Any]) -> None:
        """What an action would do, answered to the sender only (never stored, never broadcast)."""
        client_id = message.get("client_id")
        client_id = client_id[:CLIENT_ID_MAX] if client_id is not None else None
        try:
            result = await db_async(moves.preview_action)(self.table_id, self.scope["user"], message["action"])
        except AppError as error:
            await self.send_json(
                {"type": "preview", "client_id": client_id, "ok": False, "code": error.code, "message": error.message}
            )
        else:
            await self.send_json({"type": "preview", "client_id": client_id, "ok": True, "result": result})

    # Group messages (sent by services after the commit).
    async def table_event(self, message: dict[str, Any]) -> None:
        loop_moves.follow(self.table_id, message.get("row"))  # before the page hears of it and moves again
        mine = message["copies"].get(transport.recipient(self.seat))
        if mine is None:  # this seat was removed by this very move: its own table.removed follows
            return
        await self.send(text_data=mine)  # the whole message, serialised once by the move's sender

    async def table_refresh(self, message: dict[str, Any]) -> None:
        loop_moves.forget(self.table_id)  # its status changed on a database thread
        await self.send_snapshot()

    async def table_notice(self, message: dict[str, Any]) -> None:
        """The teacher's notice to every table (e.g. two minutes left)."""
        await self.send_json({"type": "notice", "message": message["message"]})

    async def table_removed(self, message: dict[str, Any]) -> None:
        if message["seat"] != self.seat:
            return
        await self.send_json({"type": "removed", "message": "Your teacher has taken you out of this game."})
        await self.close(code=CLOSE_FORBIDDEN)


class LessonConsumer(JsonConsumer):
    """``ws/lessons/<id>/``: the teacher's dashboard, one row per table, pushed whenever a table changes."""

    schemas: ClassVar[dict[str, Schema]] = {"hello": {}}

    async def admit(self, user: User) -> list[str] | None:
        self.lesson_id = int(self.scope["url_route"]["kwargs"]["lesson_id"])
        if await self._rows_if_allowed(user) is None:
            return None
        return [transport.lesson_group(self.lesson_id)]

    async def on_connected(self) -> None:
        await self.on_hello({})

    @db_async
    def _rows_if_allowed(self, user: User) -> dict[str, Any] | None:
        lesson = selectors.teachers_lesson(user, self.lesson_id)
        if lesson is None:
            return None
        return {"type": "dashboard", "rows": selectors.dashboard_rows(lesson), "ended": lesson.ended is not None}

    async def on_hello(self, message: dict[str, Any]) -> None:
        rows = await self._rows_if_allowed(self.scope["user"])
        if rows is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.send_json(rows)

    async def lesson_row(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "row", "row": message["row"]})
