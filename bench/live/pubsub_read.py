"""What a server process spends to hear one broadcast: a pub/sub message read the way the channel layer reads it.

    .venv/bin/python bench/live/pubsub_read.py [--messages 3000] [--size 8800] [--rounds 3] [--redis redis://…]

A publisher in another process sends ``--messages`` messages of ``--size`` bytes (a Palabras Cortas move's table
message was 8.5-8.9 kB in scale.py's quiet window), one every half millisecond, so that they arrive one at a time as
a class's moves do; this process reads them with redis-py's ``PubSub.get_message`` (timeout 0.1 s, as
``config.channel_layer`` does) and prints the CPU time of its thread per message:
- in RESP3, redis-py 8's default, where every message is a push notification that redis-py formats whole into a
  debug line before the logger drops it;
- in RESP2, the layer's protocol (``config.settings.base.redis_channel_layers``);
- the floor, printed first: hiredis fed straight from an asyncio stream, nothing of redis-py around it.
``--rounds`` alternates the three. The channels are this run's own; nothing is left in Redis.
"""

import argparse
import asyncio
import os
import subprocess
import sys
import time
import uuid

import hiredis
import uvloop
from redis import asyncio as aioredis

PUBLISHER = r"""
import socket, sys, time
host, port, channel = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
count, size = int(sys.argv[4]), int(sys.argv[5])
data = b"m" * size
command = b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(channel), channel, len(data), data)
sock = socket.create_connection((host, port))
for _ in range(count):
    sock.sendall(command)
    sock.recv(64)
    time.sleep(0.0005)
"""


def address(url: str) -> tuple[str, int]:
    """The host and port of the Redis at ``url``, as redis-py reads the URL."""
    kwargs = aioredis.ConnectionPool.from_url(url).connection_kwargs
    return kwargs.get("host", "127.0.0.1"), kwargs.get("port", 6379)


def publish(url: str, channel: str, count: int, size: int) -> subprocess.Popen:
    host, port = address(url)
    return subprocess.Popen([sys.executable, "-c", PUBLISHER, host, str(port), channel, str(count), str(size)])


async def redis_py(url: str, protocol: int, count: int, size: int) -> float:
    """µs of CPU per message read with ``PubSub.get_message`` in ``protocol``."""
    client = aioredis.Redis.from_url(url, protocol=protocol)
    pubsub = client.pubsub()
    channel = f"bench-pubsub-{uuid.uuid4().hex[:8]}"
    await pubsub.subscribe(channel)
    await pubsub.get_message(timeout=1)  # the subscription's confirmation
    publisher = publish(url, channel, count, size)
    heard, started = 0, time.thread_time()
    while heard < count:
        if await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1):
            heard += 1
    spent = time.thread_time() - started
    publisher.wait()
    await pubsub.aclose()
    await client.aclose()
    return spent / count * 1e6


async def plain_stream(url: str, count: int, size: int) -> float:
    """µs of CPU per message for hiredis on an asyncio stream (RESP2), the floor."""
    reader, writer = await asyncio.open_connection(*address(url))
    channel = f"bench-pubsub-{uuid.uuid4().hex[:8]}".encode()
    writer.write(b"*2\r\n$9\r\nSUBSCRIBE\r\n$%d\r\n%s\r\n" % (len(channel), channel))
    parser = hiredis.Reader()
    heard, started, publisher = 0, 0.0, None
    while heard < count:
        parser.feed(await reader.read(65536))
        while (reply := parser.gets()) is not False:
            if reply[0] == b"message":
                heard += 1
            elif reply[0] == b"subscribe":
                publisher, started = publish(url, channel.decode(), count, size), time.thread_time()
    spent = time.thread_time() - started
    assert publisher is not None
    publisher.wait()
    writer.close()
    return spent / count * 1e6


async def main(args: argparse.Namespace) -> None:
    print(f"one {args.size}-byte pub/sub message heard, µs of CPU (the reading thread's, {args.messages} messages):")
    for round_ in range(1, args.rounds + 1):
        floor = await plain_stream(args.redis, args.messages, args.size)
        resp3 = await redis_py(args.redis, 3, args.messages, args.size)
        resp2 = await redis_py(args.redis, 2, args.messages, args.size)
        print(
            f"  round {round_}: floor (hiredis on a stream) {floor:6.1f}   redis-py RESP3 {resp3:6.1f}   "
            f"redis-py RESP2 (the layer's) {resp2:6.1f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--size", type=int, default=8800)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    uvloop.run(main(parser.parse_args()))
