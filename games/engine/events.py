"""Events: what an action changed, as plain JSON-ready dicts.

Every event has a ``type``. Most events are public. An event that reveals a hidden thing (the card a
player drew) is made with :func:`private`: its secret fields are shown only to the seats named, and
everyone else receives the event without them. Move logs store events uncensored; every recipient
gets :func:`censor`-ed copies.

Scores change only through ``score`` events (:func:`score`), so a game's score is always the sum of
its score events: the property tests check exactly that.
"""

from typing import Any

Event = dict[str, Any]

_SECRET = "_secret"  # noqa: S105 - a field name, not a password
_TO = "_to"


def event(type_: str, **fields: Any) -> Event:
    return {"type": type_, **fields}


def private(type_: str, to: list[int], secret: dict[str, Any], **public: Any) -> Event:
    """An event whose ``secret`` fields only the seats in ``to`` may see."""
    return {"type": type_, **public, _TO: list(to), _SECRET: dict(secret)}


def score(seat: int, points: int, reason: str, **fields: Any) -> Event:
    """A change of ``points`` (may be negative) to ``seat``'s score, with a reason players can read."""
    return {"type": "score", "seat": seat, "points": points, "reason": reason, **fields}


def censor(ev: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it (``None``: a spectator, who sees only public fields)."""
    if _SECRET not in ev:
        return ev
    visible = {k: v for k, v in ev.items() if k not in (_SECRET, _TO)}
    if seat is not None and seat in ev[_TO]:
        visible.update(ev[_SECRET])
    return visible


def censor_all(events: list[Event], seat: int | None) -> list[Event]:
    return [censor(ev, seat) for ev in events]


def score_totals(events: list[Event], seats: int) -> list[int]:
    """Each seat's total of the score events in ``events``."""
    totals = [0] * seats
    for ev in events:
        if ev["type"] == "score":
            totals[ev["seat"]] += ev["points"]
    return totals
