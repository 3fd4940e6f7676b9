"""Throttles for guessable codes and passwords: failures counted per client and per code in the cache.

Only failures count, so a class of thirty joining from one school address at once is never slowed; a client or a
code that fails too often in the window is refused with the same answer until the window has passed. With Redis
configured the counts are shared by every server process (the cache is Redis); otherwise they are per process.
"""

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from games.engine import AppError

THROTTLED = "throttled"


def client_of(request: HttpRequest) -> str:
    """The client's address: the proxy's forwarded address where the deployment trusts one (see docs)."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return str(request.META.get("REMOTE_ADDR", ""))


def _keys(kind: str, client: str, code: str) -> list[str]:
    keys = [f"throttle:{kind}:client:{client}"]
    if code:
        keys.append(f"throttle:{kind}:code:{code}")
    return keys


def check(kind: str, client: str, code: str = "") -> None:
    """Refuse at once if this client, or this code, has failed ``kind`` too often lately."""
    limit, window = settings.CODE_GUESS_LIMIT
    if any((cache.get(key) or 0) >= limit for key in _keys(kind, client, code)):
        minutes = max(1, window // 60)
        raise AppError(THROTTLED, f"Too many wrong tries: wait {minutes} minutes, then try again.")


def failed(kind: str, client: str, code: str = "") -> None:
    """Count one failure for the client and for the code."""
    _limit, window = settings.CODE_GUESS_LIMIT
    for key in _keys(kind, client, code):
        if cache.add(key, 1, timeout=window):
            continue
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=window)
