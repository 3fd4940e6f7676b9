"""Palabras Cortas: an anagram search of the hand against the table's word list.

Each turn the robot looks for the best set of disjoint words its hand spells (all but one card to go out). A strong
robot takes the discard when it makes its hand better, searches every combination, goes out as soon as it can and
discards its most costly unused card; a steady one searches greedily and goes out when it can; a beginner draws from
the stock, keeps to short words and sometimes misses a chance to go out. In the challenge review a robot challenges a
word the list does not have as often as its level spots one, then says it is ready.
"""

import random
from typing import Any

from games.engine import WordList

from .common import Action, View, accuracy, card_words, choices, fallback, offered

Card = dict[str, Any]


def decide(view: View, words: WordList | None, level: str, rng: random.Random) -> list[Action]:
    specs = offered(view)
    body = view["body"]
    hand: list[Card] = body.get("hand") or []
    chosen: list[Action] = []
    if "challenge" in specs and words is not None:
        chosen.extend(_challenges(view, words, level, rng))
    if "draw_discard" in specs and words is not None and body.get("discard_top") and level != "beginner":
        top = body["discard_top"]
        bigger = [*hand, top]
        found = spellings(bigger, words, level)
        if "id" in top and _value(bigger, words, level, found) > _value(hand, words, level, found) + 1:
            chosen.append({"type": "draw_discard"})
    if "draw_stock" in specs:
        chosen.append({"type": "draw_stock"})
    if "go_out" in specs or "lay_down" in specs:
        chosen.extend(_lay(view, hand, words, level, rng, "go_out" if "go_out" in specs else "lay_down"))
    return chosen + fallback(view, rng)


def _value(hand: list[Card], words: WordList, level: str, found: list[list[int]] | None = None) -> int:
    """The points of the best words the hand spells, less the unused cards' points (what the robot aims at)."""
    best = best_words(hand, words, level, spare=1, found=found)
    used = {i for w in best for i in w}
    return sum(c["points"] for c in hand if c["id"] in used) - sum(c["points"] for c in hand if c["id"] not in used)


def spellings(hand: list[Card], words: WordList, level: str) -> list[list[int]]:
    """Every word of two cards or more the hand spells (a beginner's of three cards at most), as card ids."""
    longest = 3 if level == "beginner" else 10
    found = card_words([(c["id"], c["letters"]) for c in hand], words, longest=longest)
    return [ids for _k, ids in found if len(ids) >= 2]


def best_words(
    hand: list[Card], words: WordList, level: str, spare: int = 1, found: list[list[int]] | None = None
) -> list[list[int]]:
    """Disjoint words of two cards or more spelled by the hand, keeping ``spare`` cards free (the discard): the best
    total of points a robot of ``level`` finds. ``found``: :func:`spellings` of a larger hand, if known."""
    ids_held = {c["id"] for c in hand}
    found = [ids for ids in (spellings(hand, words, level) if found is None else found) if set(ids) <= ids_held]
    if not found:
        return []
    points = {c["id"]: c["points"] for c in hand}
    scored = sorted(((sum(points[i] for i in ids), ids) for ids in found), key=lambda x: -x[0])[:60]
    room = len(hand) - spare
    if level != "strong":  # greedy: the best word, then the best that fits beside it…
        taken: list[list[int]] = []
        used: set[int] = set()
        for _p, ids in scored:
            if not used & set(ids) and len(used) + len(ids) <= room:
                taken.append(ids)
                used |= set(ids)
        return taken
    best: tuple[int, list[list[int]]] = (0, [])
    budget = [4000]

    def search(start: int, used: set[int], taken: list[list[int]], total: int) -> None:
        nonlocal best
        budget[0] -= 1
        if total > best[0]:
            best = (total, list(taken))
        if budget[0] <= 0:
            return
        for k in range(start, len(scored)):
            p, ids = scored[k]
            if used & set(ids) or len(used) + len(ids) > room:
                continue
            taken.append(ids)
            search(k + 1, used | set(ids), taken, total + p)
            taken.pop()

    search(0, set(), [], 0)
    return best[1]


def _lay(
    view: View, hand: list[Card], words: WordList | None, level: str, rng: random.Random, kind: str
) -> list[Action]:
    legal = set(choices(view, kind, "card"))
    if words is None or len(hand) < 2:
        return []
    points = {c["id"]: c["points"] for c in hand}
    actions: list[Action] = []
    spelled = spellings(hand, words, level)
    # Going out: every card but one in words, trying each card as the discard (highest first).
    for discard in sorted(hand, key=lambda c: -c["points"]):
        if discard["id"] not in legal:
            continue
        rest = [c for c in hand if c is not discard]
        found = best_words(rest, words, level, spare=0, found=spelled)
        if sum(len(w) for w in found) == len(rest):
            if kind == "go_out" and level == "beginner" and rng.random() < 0.3:
                break  # a beginner does not always see it
            actions.append({"type": kind, "words": found, "card": discard["id"]})
            break
    if kind == "lay_down":  # a last turn: lay what it can, discard the costliest card left
        found = best_words(hand, words, level, spare=1, found=spelled)
        used = {i for w in found for i in w}
        left = [c for c in hand if c["id"] not in used and c["id"] in legal]
        if left:
            actions.append({"type": kind, "words": found, "card": max(left, key=lambda c: c["points"])["id"]})
    # Otherwise discard: a card outside the best words (the costliest for a strong robot, a random one otherwise).
    found = best_words(hand, words, level, spare=1, found=spelled)
    used = {i for w in found for i in w}
    spare = [c for c in hand if c["id"] not in used and c["id"] in legal] or [c for c in hand if c["id"] in legal]
    if spare:
        card = max(spare, key=lambda c: points[c["id"]]) if level == "strong" else rng.choice(spare)
        actions.append({"type": "discard", "card": card["id"]})
    return actions


def _challenges(view: View, words: WordList, level: str, rng: random.Random) -> list[Action]:
    """Challenge a laid word the list lacks (seen with the level's accuracy); nothing otherwise."""
    seats = choices(view, "challenge", "seat")
    for seat, laid in enumerate(view["body"].get("words") or []):
        if seat not in seats:
            continue
        for index, word in enumerate(laid):
            if word.get("challenge") is not None:
                continue
            bad = not words.is_word(words.normalise(word["word"]))
            if bad and rng.random() < accuracy(level):
                return [{"type": "challenge", "seat": seat, "word": index}]
    return []


__all__ = ["best_words", "decide", "spellings"]
