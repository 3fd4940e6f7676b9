"""The project's settings with the Redis channel layer configured for redis-py 8 (``run.py --settings``).

redis-py 8 gives every connection a 5 s ``socket_timeout`` and every asyncio pool at most 100 connections, raising
rather than waiting beyond that. channels-redis blocks in ``BZPOPMIN`` for 5 s when a server is idle, so the read
times out and the consumers waiting on it are closed with 1011 (django/channels_redis#422); and a server with a few
hundred sockets runs out of pool connections when many connect or disconnect at once. This module shows the figures
with both lifted, to compare with ``config.settings.base`` as it stands.
"""

from config.settings.base import *  # noqa: F403
from config.settings.base import CHANNEL_LAYERS, REDIS_URL

if REDIS_URL:
    CHANNEL_LAYERS["default"]["CONFIG"]["hosts"] = [
        {"address": REDIS_URL, "socket_timeout": 30, "max_connections": 1000}
    ]
