"""Logging filters."""

import logging


class RefusalsWithoutTracebacks(logging.Filter):
    """An ordinary refusal (403 forbidden, 404 not found, 405) is logged as its one line, without the traceback
    Django attaches: tracebacks in the log are for failures, and a log full of refusals hides them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) in (403, 404, 405):
            record.exc_info = None
            record.exc_text = None
        return True
