"""States, views and events as JSON text: one encoder for the engine (its private copies) and the server (rows and
pages' messages)."""

from typing import Any

import orjson


def json_bytes(payload: Any) -> bytes:
    """``payload`` as UTF-8 JSON. orjson, because every move serialises its state and each recipient's copy (its
    events and view) on the move path, where the standard library's encoder was several times slower. Integer keys
    become strings as with :func:`json.dumps`; a NaN or an infinity becomes null (valid JSON, unlike ``json``'s)."""
    try:
        return orjson.dumps(payload)
    except orjson.JSONEncodeError:
        # Integer keys: orjson's option for them makes every dump two to three times slower, so only when needed.
        return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)
