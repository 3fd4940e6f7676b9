"""The solitaire: a word from the piles' top cards (a beginner the shortest it sees, a steady robot any, a strong
one the highest-scoring), else a refill (the fullest source into an empty pile), giving up only when nothing else
is offered. A stuck student can ask for one robot move ("Show me a move")."""

import random
from typing import Any

from games.engine import WordList

from .common import Action, View, card_words, choices, offered


def decide(view: View, words: WordList | None, level: str, rng: random.Random) -> list[Action]:
    specs = offered(view)
    chosen: list[Action] = []
    if "word" in specs and words is not None:
        tops: list[dict[str, Any]] = [p["top"] for p in view["body"]["piles"] if p["top"]]
        legal = set(choices(view, "word", "cards"))
        points = {c["id"]: c["points"] for c in tops}
        found = [ids for _k, ids in card_words([(c["id"], c["letters"]) for c in tops], words) if len(ids) >= 2]
        found = [ids for ids in found if not legal or set(ids) <= legal]
        if found:
            if level == "beginner":
                found.sort(key=lambda ids: (len(ids), rng.random()))
            elif level == "strong":
                found.sort(key=lambda ids: -sum(points[i] for i in ids))
            else:
                rng.shuffle(found)
            chosen.extend({"type": "word", "cards": ids} for ids in found[:3])
    if "refill" in specs:
        piles, sources = choices(view, "refill", "pile"), choices(view, "refill", "source")
        if piles and sources:
            counts = {i: p["count"] for i, p in enumerate(view["body"]["piles"])}
            source = max(sources, key=lambda s: counts.get(s, 0)) if level != "beginner" else rng.choice(sources)
            chosen.append({"type": "refill", "pile": piles[0], "source": source})
    if "give_up" in specs:  # last: only when every word and refill was refused
        chosen.append({"type": "give_up"})
    return chosen
