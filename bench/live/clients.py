"""Websocket clients: a listener per seat, and the loops that play moves (or echoes) and time them.

Every socket has a reader task that stamps the arrival time of each sequence number it sees, the moment the frame
is parsed: a round trip is then ``max(arrival at every seat) - send time``, free of however late the waiting
coroutine happens to be scheduled. Nothing here retries: a refused connection, an error message, an unexpected
close or a move that does not reach every seat in time is counted as an error, because the point is to show none.

The client shares the machine's cores with the servers it measures, so it is kept light, for the echo as for the
moves: it runs on uvloop (:func:`run`), parses frames with orjson, and a round trip waits on one future per socket
for its sequence number, set by the reader, rather than on a condition that every frame wakes.
"""

import asyncio
import gc
import json
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

TIMEOUT = 15.0  # seconds a move (or an echo) may take to reach every seat before it counts as lost

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run the client's ``main`` on uvloop's event loop, as the servers run theirs, with Python's cyclic garbage
    collector off (as ``timeit`` turns it off): the client holds a thousand sockets and every frame's arrival, and its
    collections paused its loop for 40-60 ms every second or two at 300 moves a second, stamping every round trip in
    flight late (bench/README.md). What it makes in a run is freed when the run ends."""
    gc.collect()
    gc.disable()
    try:
        return uvloop.run(main)
    finally:
        gc.enable()


@dataclass
class Errors:
    """Everything that went wrong, by kind; the benchmark's target is that this stays empty."""

    counts: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    def add(self, kind: str, detail: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if len(self.examples) < 5:
            self.examples.append(f"{kind}: {detail[:200]}")

    @property
    def total(self) -> int:
        return sum(self.counts.values())


class Listener:
    """One open socket (a seat, or an echo listener) and what it has received so far."""

    def __init__(self, ws: ClientConnection, errors: Errors) -> None:
        self.ws = ws
        self.errors = errors
        self.arrived: dict[int, float] = {}
        self.view: dict | None = None
        self.snapshots = 0
        self.closing = False
        self._changed = asyncio.Condition()
        self._waiting = 0  # callers inside wait_until()
        self._awaited: dict[int, asyncio.Future[None]] = {}  # seq -> set when it arrives (:meth:`arrival`)
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                message = orjson.loads(raw)
                seq = message.get("seq")
                if seq is not None and seq not in self.arrived:
                    self.arrived[seq] = now
                    awaited = self._awaited.pop(seq, None)
                    if awaited is not None and not awaited.done():
                        awaited.set_result(None)
                if "view" in message:
                    self.view = message["view"]
                if message.get("type") == "state":
                    self.snapshots += 1
                elif message.get("type") in ("error", "removed"):
                    self.errors.add("server said", json.dumps(message, ensure_ascii=False))
                if self._waiting:  # nobody waits on most frames (a round trip waits on arrival()): skip the lock
                    async with self._changed:
                        self._changed.notify_all()
        except ConnectionClosed as closed:
            if not self.closing:
                self.errors.add("closed", str(closed))

    def arrival(self, seq: int) -> asyncio.Future[None]:
        """A future done once ``seq`` has arrived on this socket (a new one if an earlier wait for it timed out)."""
        loop = asyncio.get_running_loop()
        if seq in self.arrived:
            done = loop.create_future()
            done.set_result(None)
            return done
        awaited = self._awaited.get(seq)
        if awaited is None or awaited.cancelled():
            awaited = self._awaited[seq] = loop.create_future()
        return awaited

    async def wait_until(self, ready: Callable[[], bool], timeout: float = TIMEOUT) -> bool:
        """Wait until ``ready()`` holds; ``False`` if it still does not after ``timeout`` seconds."""
        self._waiting += 1
        try:
            async with self._changed:
                try:
                    await asyncio.wait_for(self._changed.wait_for(ready), timeout)
                except TimeoutError:
                    return False
            return True
        finally:
            self._waiting -= 1

    async def close(self) -> None:
        self.closing = True
        await self.ws.close()
        await self._reader


async def open_listener(url: str, origin: str, cookie: str | None, errors: Errors) -> Listener | None:
    """Connect one socket (``None`` if it could not, which is counted)."""
    headers = {"Cookie": cookie} if cookie else None
    try:
        ws = await connect(
            url, origin=origin, additional_headers=headers, compression=None, proxy=None, max_size=None, open_timeout=30
        )
    except Exception as error:  # noqa: BLE001 - any failure to connect is an error to report, not to crash on
        errors.add("connect", f"{url}: {error!r}")
        return None
    return Listener(ws, errors)


def same_origin(url: str) -> str:
    """The origin of a page of the server ``url`` is on (the app lets only its own pages, port included, connect)."""
    return "http://" + url.split("//", 1)[1].split("/", 1)[0]


async def open_room(urls: list[str], origin: str, cookies: list[str | None], errors: Errors) -> list[Listener] | None:
    """Every seat of one table (or echo room), seat ``i`` on ``urls[i % len(urls)]`` so a table spans servers; each
    socket sends the origin of its own server (``origin`` is no longer used, kept for the callers)."""
    listeners = [
        await open_listener(urls[i % len(urls)], same_origin(urls[i % len(urls)]), cookie, errors)
        for i, cookie in enumerate(cookies)
    ]
    if None in listeners:
        await asyncio.gather(*(listener.close() for listener in listeners if listener is not None))
        return None
    return listeners


async def all_arrived(listeners: list[Listener], seq: int) -> float | None:
    """The time the last listener got ``seq``, or ``None`` if one of them did not within the timeout."""
    try:
        await asyncio.wait_for(asyncio.gather(*(listener.arrival(seq) for listener in listeners)), TIMEOUT)
    except TimeoutError:
        return None
    return max(listener.arrived[seq] for listener in listeners)


class Trip(NamedTuple):
    """One round trip: when its message was sent (``time.perf_counter``, seconds) and how long until the last
    listener had it (milliseconds)."""

    sent: float
    ms: float


# -- game moves ----------------------------------------------------------------------------------------------------
def next_move(view: dict) -> dict:
    """A move that is always legal in Palabras Cortas: draw from the stock, then discard the first card in hand."""
    if any(offered["type"] == "draw_stock" for offered in view["actions"]):
        return {"type": "draw_stock"}
    return {"type": "discard", "card": view["body"]["hand"][0]["id"]}


# -- the pace ---------------------------------------------------------------------------------------------------
GAP = (0.5, 1.5)  # a table's (or a room's) think between two moves, as a share of ``think``, drawn uniformly


def gap(think: float) -> float:
    """How long a table thinks before its next move."""
    return random.uniform(*GAP) * think


def first_delay(think: float) -> float:
    """How long a table waits before its first move, so that the tables together offer their rate from the start.

    Drawn uniformly from 0 to ``think``, every table's first two moves fell together: the offered rate climbed to
    1.4 times its figure in the last quarter of the first second, and every capacity step began with that burst (on
    the twentieth machine its slowest moves were all sent 0.6-0.9 s in, bench/README.md). Drawn as the time left
    until the next move of a table already playing (the gaps' equilibrium: uniform up to the shortest gap, then
    falling to nothing at the longest), the offered rate is flat from the first moment."""
    low, high = GAP
    if random.random() < low / ((low + high) / 2):  # the share of time spent in the part that every gap has
        return random.uniform(0, low) * think
    return (high - (high - low) * random.random() ** 0.5) * think  # the density falls linearly to `high`


async def play(seats: list[Listener], moves: int, think: float, errors: Errors) -> list[Trip]:
    """Play ``moves`` moves at one table, each by the seat whose turn it is, ``think`` seconds apart (jittered, so
    the tables do not move in lockstep). Returns the round trips; stops at the first lost move."""
    trips: list[Trip] = []
    await asyncio.sleep(first_delay(think))
    for _ in range(moves):
        view = seats[0].view
        seq = max(seats[0].arrived)
        actor = seats[view["to_act"][0]]
        action = next_move(actor.view)
        sent = time.perf_counter()
        try:
            await actor.ws.send(json.dumps({"type": "action", "action": action, "client_id": f"bench-{seq}"}))
        except ConnectionClosed:
            return trips  # the reader has counted the close
        last = await all_arrived(seats, seq + 1)
        if last is None:
            errors.add("lost move", f"seq {seq + 1} did not reach every seat in {TIMEOUT:.0f} s")
            return trips
        trips.append(Trip(sent, (last - sent) * 1000))
        await asyncio.sleep(gap(think))
    return trips


# -- the bare echo ---------------------------------------------------------------------------------------------------
async def echo(listeners: list[Listener], messages: int, think: float, errors: Errors, first: int = 0) -> list[Trip]:
    """Like :func:`play`, over the echo room: the sender rotates round the 4 sockets as the turn does. ``first``:
    the first message's number (a room that echoes again goes on from where it stopped)."""
    trips: list[Trip] = []
    await asyncio.sleep(first_delay(think))
    for seq in range(first, first + messages):
        sent = time.perf_counter()
        try:
            await listeners[seq % len(listeners)].ws.send(json.dumps({"seq": seq}))
        except ConnectionClosed:
            return trips  # the reader has counted the close
        last = await all_arrived(listeners, seq)
        if last is None:
            errors.add("lost echo", f"echo {seq} did not reach every listener in {TIMEOUT:.0f} s")
            return trips
        trips.append(Trip(sent, (last - sent) * 1000))
        await asyncio.sleep(gap(think))
    return trips


async def still_alive(seats: list[Listener], errors: Errors) -> int:
    """Ask every socket for a fresh snapshot (``hello`` with an impossible seq); returns how many answered."""

    async def ask(seat: Listener) -> bool:
        before = seat.snapshots
        try:
            await seat.ws.send(json.dumps({"type": "hello", "last_seq": -1}))
        except ConnectionClosed as closed:
            errors.add("closed", str(closed))
            return False
        if not await seat.wait_until(lambda: seat.snapshots > before):
            errors.add("no snapshot", "a held socket did not answer hello")
            return False
        return True

    return sum(await asyncio.gather(*(ask(seat) for seat in seats)))
