"""Pala: legal choices from the view's ``actions`` with simple heuristics by level.

A beginner picks among the legal choices at random. A steady robot bids on the colours it holds most of and plays its
lowest card when the lowest score wins (its highest otherwise). A strong one does the same but weighs its bids by the
cards it holds of every colour in them, keeps its high cards for the tricks it means to lose, and settles ties the
way its goal wants.
"""

import random
from collections import Counter
from typing import Any

from games.engine import WordList

from .common import Action, View, choices, fallback, offered

PLAYS = ("lead", "copy", "junk", "mix", "smear")


def decide(view: View, words: WordList | None, level: str, rng: random.Random) -> list[Action]:
    specs = offered(view)
    body = view["body"]
    hand: list[dict[str, Any]] = body.get("hand") or []
    by_id = {c["id"]: c for c in hand}
    held = Counter(c["colour"] for c in hand)
    lowest = bool((body.get("goal") or {}).get("lowest_wins"))
    chosen: list[Action] = []
    if "cancel" in specs and body.get("cancel"):
        need, cards = body["cancel"]["need"], [c["id"] for c in body["cancel"]["cards"]]
        chosen.append({"type": "cancel", "cards": cards[:need] if level != "beginner" else rng.sample(cards, need)})
    if "bid" in specs:
        bids = choices(view, "bid", "colours")
        if level == "beginner":
            rng.shuffle(bids)
        else:
            bids.sort(
                key=lambda b: -sum(held[c] for c in b) / max(1, len(b)) - (0.2 * len(b) if level == "strong" else 0)
            )
        chosen.extend({"type": "bid", "colours": b} for b in bids[:3])
    if "place" in specs:
        cards, slots = choices(view, "place", "card"), choices(view, "place", "slot")
        if cards and slots and (level != "beginner" or rng.random() < 0.7):
            card = max(cards, key=lambda c: held[by_id[c]["colour"]] if c in by_id else 0)
            chosen.append(
                {"type": "place", "card": card if level != "beginner" else rng.choice(cards), "slot": slots[0]}
            )
    plays: list[tuple[float, Action]] = []
    for kind in PLAYS:
        if kind not in specs:
            continue
        field = "cards" if kind in ("mix", "smear") else "card"
        for value in choices(view, kind, field):
            ids = value if isinstance(value, list) else [value]
            total = sum(by_id[i]["value"] for i in ids if i in by_id)
            plays.append((total, {"type": kind, field: value}))
    if plays:
        if level == "beginner":
            rng.shuffle(plays)
        else:
            plays.sort(key=lambda p: p[0] if lowest else -p[0])
        chosen.extend(a for _t, a in plays[:3])
    if "win_tie" in specs or "lose_tie" in specs:
        if level == "beginner":
            chosen.append({"type": rng.choice(["win_tie", "lose_tie"])})
        else:
            chosen.append({"type": "lose_tie" if lowest else "win_tie"})
    return chosen + fallback(view, rng)
