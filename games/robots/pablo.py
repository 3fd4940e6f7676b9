"""Pablo: legal choices from the view's ``actions`` and ``choices`` with simple heuristics by level.

A robot remembers nothing between moves: it knows only what its view shows now (a glimpse, the card it holds, the
discard pile's top). It keeps a drawn card worth little (a strong robot 4 or less, a steady one 5, a beginner at
random) and discards the rest, uses the specials it draws (a beginner often skips them, but not the queen's swap,
which may not be declined), matches the discard's top with a card it can see of the same rank, and calls Pablo when
few cards are left in front of it (a beginner only with one card left), or now and then on a hunch.
"""

import random
from typing import Any

from games.engine import WordList

from .common import Action, View, choices, fallback, filled, offered

KEEP_BELOW = {"beginner": 6, "steady": 5, "strong": 4}
CALL_AT = {"beginner": 1, "steady": 2, "strong": 3}


def decide(view: View, words: WordList | None, level: str, rng: random.Random) -> list[Action]:
    specs = offered(view)
    body = view["body"]
    seat = view["seat"]
    chosen: list[Action] = []
    if "match" in specs and level != "beginner":
        chosen.extend(_match(view, body))
    if "first_look" in specs:
        chosen.append(filled(specs["first_look"], rng) or {"type": "ready"})
    if "keep" in specs or "discard" in specs:
        held = body.get("held") or {}
        value = held.get("value")
        keep = value is not None and value <= KEEP_BELOW[level]
        if level == "beginner":
            keep = rng.random() < 0.5
        slots = choices(view, "keep", "slot")
        if keep and slots:
            chosen.append({"type": "keep", "slot": rng.choice(slots)})
        if "discard" in specs:
            chosen.append({"type": "discard"})
    # A special a beginner would rather not use still comes last: the queen's swap cannot be declined while a card
    # can be swapped, and the fallback's own swap, its slot drawn from every slot offered, may aim at an empty place.
    unwanted: list[Action] = []
    for kind in ("peek", "spy", "look", "swap"):
        if kind in specs:
            wanted = level != "beginner" or rng.random() < 0.5
            action = filled(specs[kind], rng)
            if action is not None and kind in ("spy", "look", "swap"):
                owners = [o for o in choices(view, kind, "owner") if o != seat]
                if owners:
                    action["owner"] = rng.choice(owners)
                    slots = [s["slot"] for s in body["fields"][action["owner"]]["slots"] if not s.get("empty")]
                    if slots:
                        action["slot"] = rng.choice(slots)
            if action is not None:
                (chosen if wanted else unwanted).append(action)
    if "call" in specs and level in CALL_AT:
        mine = body["fields"][seat]["count"] if seat is not None and seat < len(body["fields"]) else 99
        if mine <= CALL_AT[level] or rng.random() < 0.04:
            chosen.append({"type": "call"})
    return chosen + fallback(view, rng) + unwanted


def _match(view: View, body: dict[str, Any]) -> list[Action]:
    """Match the discard's top with one of the robot's own cards it can see of that rank."""
    top = (body.get("discard") or {}).get("top")
    tops = choices(view, "match", "top")
    if not top or not tops:
        return []
    for field in body.get("fields") or []:
        if field["seat"] != view["seat"]:
            continue
        for slot in field["slots"]:
            if slot.get("rank") == top["rank"]:
                return [{"type": "match", "owner": view["seat"], "slot": slot["slot"], "top": tops[0]}]
    return []
