"""The servers of ``stages.py``: the app and the echo as ``run.py`` serves them, with the moments of each move (and
each echo) written down as they pass.

    daphne bench.live.stage_marks:application      (the app)
    daphne bench.live.stage_marks:echo             (the bare echo)

Nothing of the app is changed but for wrappers set here, at import, around the functions a move passes through
(the server processes of this benchmark only). Each mark is one line, ``<time> <pid> <mark> <key> <seq>``, appended
to a file of its own per process in ``$STAGES_DIR``; the time is ``time.perf_counter()``, the machine's monotonic
clock, the same in every process. ``key`` is the table's id (``t<id>``) or the echo room's group.

Marks: ``received`` (a frame reached its consumer), ``save`` (the move's save called), ``saved`` (it returned),
``handed`` (the consumer has the move's broadcasts to send), ``arrived`` (a broadcast reached a consumer of the
group), ``forwarded`` (that consumer has sent its copy to its page).
"""

import functools
import os
import time
from typing import Any

_out: Any = None
_installed: set[str] = set()


def mark(name: str, key: str, seq: int = -1) -> None:
    global _out
    if _out is None:
        _out = open(os.path.join(os.environ["STAGES_DIR"], f"{os.getpid()}.txt"), "a", buffering=1)  # noqa: SIM115
    _out.write(f"{time.perf_counter():.6f} {os.getpid()} {name} {key} {seq}\n")


def _table_key(consumer: Any) -> str:
    return f"t{getattr(consumer, 'table_id', 0)}"


def _install_app() -> None:
    from config.websocket import JsonConsumer
    from games.consumers import TableConsumer
    from games.services import loop_moves, table_rows

    receive = JsonConsumer.receive

    @functools.wraps(receive)
    async def received(self: Any, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if isinstance(self, TableConsumer):
            mark("received", _table_key(self))
        await receive(self, text_data, bytes_data)

    JsonConsumer.receive = received  # type: ignore[method-assign]

    for name in ("save_move_on", "save_move_if_unchanged_on"):
        save = getattr(table_rows, name)

        @functools.wraps(save)
        async def saving(conn: Any, row: Any, table: Any, *args: Any, save: Any = save) -> Any:
            mark("save", f"t{table.id}")
            saved = await save(conn, row, table, *args)
            mark("saved", f"t{table.id}")
            return saved

        setattr(table_rows, name, saving)

    apply_action = loop_moves.apply_action

    @functools.wraps(apply_action)
    async def handed(table_id: int, *args: Any) -> Any:
        deferred = await apply_action(table_id, *args)
        mark("handed", f"t{table_id}")
        return deferred

    loop_moves.apply_action = handed  # type: ignore[assignment]

    table_event = TableConsumer.table_event

    @functools.wraps(table_event)
    async def forwarded(self: Any, message: dict[str, Any]) -> None:
        mark("arrived", _table_key(self), message["seq"])
        await table_event(self, message)
        mark("forwarded", _table_key(self), message["seq"])

    TableConsumer.table_event = forwarded  # type: ignore[method-assign]


def _install_echo() -> None:
    from bench.live.echo import EchoConsumer

    receive, echo_message = EchoConsumer.receive, EchoConsumer.echo_message

    async def received(self: Any, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        mark("received", self.group)
        await receive(self, text_data, bytes_data)

    async def forwarded(self: Any, message: dict) -> None:
        mark("arrived", self.group)
        await echo_message(self, message)
        mark("forwarded", self.group)

    EchoConsumer.receive, EchoConsumer.echo_message = received, forwarded  # type: ignore[method-assign]


def __getattr__(name: str) -> Any:
    """``application`` or ``echo``: each process imports the one it serves, and only its wrappers are set."""
    if name == "application":
        from config.asgi import application

        if name not in _installed:
            _installed.add(name)
            _install_app()
        return application
    if name == "echo":
        from bench.live.echo import application as echo_application

        if name not in _installed:
            _installed.add(name)
            _install_echo()
        return echo_application
    raise AttributeError(name)
