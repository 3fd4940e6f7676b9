"""``config.websocket.dispatch_in_turn``: how every consumer hands its messages (the page's frames and the channel
layer's broadcasts) to its handlers."""

import asyncio
from typing import Any

import pytest

from config.websocket import dispatch_in_turn


class Stop(Exception):
    pass


class Source:
    """A source of messages like Daphne's ``receive`` or the channel layer's: an awaitable call per message. It notes
    whether a read waiting on it was cancelled."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.cancelled = False

    async def __call__(self) -> Any:
        try:
            item = await self.queue.get()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        if isinstance(item, BaseException):
            raise item
        return item


async def test_messages_of_every_source_are_handled_one_at_a_time_each_source_in_its_order() -> None:
    page, layer = Source(), Source()
    handled: list[str] = []
    busy = False
    first_started = asyncio.Event()
    release_first = asyncio.Event()

    async def dispatch(message: dict[str, Any]) -> None:
        nonlocal busy
        assert not busy, "a message was handed over while another was being handled"
        busy = True
        handled.append(message["n"])
        if message["n"] == "page 1":
            first_started.set()
            await release_first.wait()  # a move waiting on the database
        busy = False
        if message["n"] == "page 3":
            raise Stop

    running = asyncio.ensure_future(dispatch_in_turn([page, layer], dispatch))
    page.queue.put_nowait({"n": "page 1"})
    await first_started.wait()
    layer.queue.put_nowait({"n": "layer 1"})
    page.queue.put_nowait({"n": "page 2"})
    layer.queue.put_nowait({"n": "layer 2"})
    for _ in range(5):
        await asyncio.sleep(0)
    assert handled == ["page 1"]  # the others wait for it
    release_first.set()
    page.queue.put_nowait({"n": "page 3"})
    with pytest.raises(Stop):
        await running
    assert sorted(handled) == ["layer 1", "layer 2", "page 1", "page 2", "page 3"]
    assert [n for n in handled if n.startswith("page")] == ["page 1", "page 2", "page 3"]
    assert [n for n in handled if n.startswith("layer")] == ["layer 1", "layer 2"]
    assert page.cancelled
    assert layer.cancelled


async def test_an_error_of_a_source_is_raised_and_the_other_source_is_no_longer_read() -> None:
    page, layer = Source(), Source()
    handled: list[Any] = []

    async def dispatch(message: dict[str, Any]) -> None:
        handled.append(message)

    running = asyncio.ensure_future(dispatch_in_turn([page, layer], dispatch))
    page.queue.put_nowait({"n": 1})
    layer.queue.put_nowait(ConnectionError("Redis went away"))
    with pytest.raises(ConnectionError, match="Redis went away"):
        await running
    assert handled == [{"n": 1}]
    assert page.cancelled


async def test_cancelled_it_cancels_its_reads() -> None:
    page, layer = Source(), Source()

    async def dispatch(message: dict[str, Any]) -> None:
        pass

    running = asyncio.ensure_future(dispatch_in_turn([page, layer], dispatch))
    await asyncio.sleep(0)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert page.cancelled
    assert layer.cancelled


async def test_no_task_is_made_for_each_message() -> None:
    """Channels' ``await_many_dispatch`` made a task (and an ``asyncio.wait``) for every message; here each source
    has one task for as long as the consumer runs."""
    page, layer = Source(), Source()
    loop = asyncio.get_running_loop()
    made: list[str] = []
    factory = loop.get_task_factory()

    def counting(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future:
        made.append(coro.__qualname__)
        return factory(loop, coro, **kwargs) if factory else asyncio.Task(coro, loop=loop, **kwargs)

    handled = 0

    async def dispatch(message: dict[str, Any]) -> None:
        nonlocal handled
        handled += 1
        if handled == 200:
            raise Stop

    loop.set_task_factory(counting)
    try:
        running = dispatch_in_turn([page, layer], dispatch)
        for n in range(100):
            page.queue.put_nowait({"n": n})
            layer.queue.put_nowait({"n": n})
        with pytest.raises(Stop):
            await running
    finally:
        loop.set_task_factory(factory)
    assert handled == 200
    assert made == ["dispatch_in_turn.<locals>.read"] * 2
