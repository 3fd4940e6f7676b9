"""Logging filters."""

import asyncio
import logging


class RefusalsWithoutTracebacks(logging.Filter):
    """An ordinary refusal (403 forbidden, 404 not found, 405) is logged as its one line, without the traceback
    Django attaches: tracebacks in the log are for failures, and a log full of refusals hides them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) in (403, 404, 405):
            record.exc_info = None
            record.exc_text = None
        return True


class ClosingChannelCleanup(logging.Filter):
    """Drops channels-redis's traceback for a socket's channel whose clean-up was itself cancelled.

    When a consumer ends, Channels cancels its wait on the channel layer, and the Redis pub/sub layer then
    unsubscribes the channel; if the consumer is cancelled once more meanwhile (the server stopping, or Daphne giving
    up on a socket that closed), the layer logs the second ``CancelledError`` with a traceback. Nothing failed: the
    socket was going anyway, and its subscription ends with the process or its Redis connection."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name != "channels_redis.pubsub" or not record.exc_info:
            return True
        return not isinstance(record.exc_info[1], asyncio.CancelledError)
