"""The servers of ``stages.py``: the app and the echo as ``run.py`` serves them, with the moments of each move (and
each echo) written down as they pass.

    daphne bench.live.stage_marks:application      (the app)
    daphne bench.live.stage_marks:echo             (the bare echo)

Nothing of the app is changed but for wrappers set here, at import, around the functions a move passes through
(the server processes of this benchmark only). Each mark is one line, ``<time> <cpu> <mark> <key>``, appended to a file
of its own per process in ``$STAGES_DIR``; the time is ``time.perf_counter()``, the machine's monotonic clock, the
same in every process, and ``<cpu>`` the CPU time of the thread that writes it (``time.thread_time()``: every mark is
written on its process's event loop), so that a stage on one loop tells its own work from the time its thread did
not run. ``key`` is the table's id (``t<id>``) or the echo room's group.

Marks: ``received`` (a frame reached its consumer), ``save`` (the move's save called), ``build`` and ``built`` (the
move's broadcast begun and made, while the save waits on PostgreSQL), ``saved`` (the save returned), ``handed`` (the
consumer has the move's broadcasts to send), ``arrived`` (a broadcast reached a consumer of the group),
``forwarded`` (that consumer has sent its copy to its page).
"""

import functools
import importlib
import os
import time
from collections.abc import Callable
from typing import Any

_out: Any = None
_installed: set[str] = set()


def mark(name: str, key: str) -> None:
    global _out
    if _out is None:
        _out = open(os.path.join(os.environ["STAGES_DIR"], f"{os.getpid()}.txt"), "a", buffering=1)  # noqa: SIM115
    _out.write(f"{time.perf_counter():.6f} {time.thread_time():.6f} {name} {key}\n")


def _around(owner: Any, attribute: str, key: Callable[..., str], called: str | None, returned: str | None) -> None:
    """Wrap the coroutine function ``owner.attribute``: mark ``called`` as it is called and ``returned`` as it
    returns, under the key ``key(*its arguments)``."""
    inner = getattr(owner, attribute)

    @functools.wraps(inner)
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        if called:
            mark(called, key(*args, **kwargs))
        result = await inner(*args, **kwargs)
        if returned:
            mark(returned, key(*args, **kwargs))
        return result

    setattr(owner, attribute, wrapped)


def _around_made(broadcast: Any) -> None:
    """Mark ``build`` and ``built`` around the classmethod ``Broadcast.made``, under its table's key."""
    inner = broadcast.made.__func__

    @functools.wraps(inner)
    def made(cls: Any, table: Any, *args: Any, **kwargs: Any) -> Any:
        mark("build", f"t{table.id}")
        result = inner(cls, table, *args, **kwargs)
        mark("built", f"t{table.id}")
        return result

    broadcast.made = classmethod(made)


def _install_app() -> None:
    from games.consumers import TableConsumer
    from games.services import loop_moves, moves, table_rows

    def of_consumer(consumer: Any, *args: Any, **kwargs: Any) -> str:
        return f"t{consumer.table_id}"

    _around(TableConsumer, "receive", of_consumer, "received", None)
    for name in ("save_move_on", "save_move_if_unchanged_on"):
        _around(table_rows, name, lambda conn, row, table, *args: f"t{table.id}", "save", "saved")
    _around(loop_moves, "apply_action", lambda table_id, *args: f"t{table_id}", None, "handed")
    _around_made(moves.Broadcast)
    _around(TableConsumer, "table_event", of_consumer, "arrived", "forwarded")


def _install_echo() -> None:
    from bench.live.echo import EchoConsumer

    def of_room(consumer: Any, *args: Any, **kwargs: Any) -> str:
        return consumer.group

    _around(EchoConsumer, "receive", of_room, "received", None)
    _around(EchoConsumer, "echo_message", of_room, "arrived", "forwarded")


_SERVED = {"application": ("config.asgi", _install_app), "echo": ("bench.live.echo", _install_echo)}


def __getattr__(name: str) -> Any:
    """``application`` or ``echo``: each process imports the one it serves, and only its wrappers are set."""
    if name not in _SERVED:
        raise AttributeError(name)
    module, install = _SERVED[name]
    served = importlib.import_module(module).application
    if name not in _installed:
        _installed.add(name)
        install()
    return served
