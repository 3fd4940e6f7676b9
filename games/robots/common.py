"""What every brain shares: reading the offered actions, a safe fallback, and the anagram index of a word list."""

import random
import threading
import weakref
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from games.engine import WordList

Action = dict[str, Any]
View = dict[str, Any]

# Actions without fields a robot may always fall back on, in the order it prefers them.
SAFE = ("ready", "draw", "draw_stock", "deal", "end_turn", "skip", "pass", "concede", "withdraw", "lose_tie")


def offered(view: View) -> dict[str, dict[str, Any]]:
    """The offered actions by type."""
    return {spec["type"]: spec for spec in view["actions"]}


def choices(view: View, kind: str, name: str) -> list[Any]:
    """The legal values the view lists for field ``name`` of the offered action ``kind`` (empty if none)."""
    for spec in view["actions"]:
        if spec["type"] == kind:
            for f in spec["fields"]:
                if f["name"] == name:
                    return list(f.get("choices") or [])
    return []


def filled(spec: dict[str, Any], rng: random.Random) -> Action | None:
    """``spec`` with every required field set to one of its listed legal values; ``None`` when a required field has
    none listed (the brain has to work it out)."""
    action: Action = {"type": spec["type"]}
    for f in spec["fields"]:
        if not f["required"]:
            continue
        if not f.get("choices"):
            return None
        action[f["name"]] = rng.choice(f["choices"])
    return action


def fallback(view: View, rng: random.Random) -> list[Action]:
    """Safe actions last in every brain's answer: the field-less ones a robot may take, then anything whose fields
    the view lists in full."""
    specs = offered(view)
    safe = [{"type": kind} for kind in SAFE if kind in specs and not specs[kind]["fields"]]
    rest = []
    for kind, spec in specs.items():
        if kind in SAFE or kind in ("give_up", "call", "hide", "match", "challenge", "start_timer", "timer_expired"):
            continue
        action = filled(spec, rng)
        if action is not None:
            rest.append(action)
    rng.shuffle(rest)
    return safe + rest


def fallback_brain(view: View, words: WordList | None, level: str, rng: random.Random) -> list[Action]:
    return fallback(view, rng)


def accuracy(level: str) -> float:
    """How often a robot of ``level`` gets a judgement right (a quiz answer, a vote, spotting a bad word)."""
    return {"beginner": 0.5, "steady": 0.8, "strong": 0.97}.get(level, 0.8)


# -- anagrams ------------------------------------------------------------------------------------------------------
class Anagrams:
    """A word list's keys by their sorted letters, so that the words some cards spell are found by lookup."""

    def __init__(self, keys: Iterable[str]) -> None:
        index: dict[str, list[str]] = defaultdict(list)
        for key in keys:
            if 1 <= len(key) <= 15:
                index["".join(sorted(key))].append(key)
        self.index = dict(index)

    def words(self, letters: str) -> list[str]:
        return self.index.get("".join(sorted(letters)), [])


# Indexes by the id of their key set, kept while the set lives (looked up by identity: comparing two sets of a
# large lexicon for equality, as a WeakKeyDictionary would, costs tens of milliseconds).
_cache: dict[int, tuple["weakref.ref[frozenset[str]]", Anagrams]] = {}
_lock = threading.Lock()


def anagrams_of(words: WordList) -> Anagrams:
    """The anagram index of ``words``, built once per key set while it lives."""
    keys = words.keys()
    with _lock:
        held = _cache.get(id(keys))
    if held is not None and held[0]() is keys:
        return held[1]
    found = Anagrams(keys)
    ident = id(keys)
    with _lock:
        _cache[ident] = (weakref.ref(keys, lambda _ref: _cache.pop(ident, None)), found)
    return found


def spell(word: str, cards: Sequence[tuple[int, str]]) -> list[int] | None:
    """An order of all ``cards`` ((id, normalised letters)) that spells ``word`` exactly, or ``None``."""
    if not cards:
        return [] if not word else None
    for i, (cid, letters) in enumerate(cards):
        if letters and word.startswith(letters):
            rest = spell(word[len(letters) :], [*cards[:i], *cards[i + 1 :]])
            if rest is not None:
                return [cid, *rest]
    return None


def card_words(
    cards: Sequence[tuple[int, str]], words: WordList, *, longest: int = 12, limit: int = 4096
) -> list[tuple[str, list[int]]]:
    """Every word of ``words`` some of ``cards`` ((id, letters as the card shows them)) spell, each as (key, card
    ids in reading order), at most ``limit`` subsets tried, from the largest down."""
    index = anagrams_of(words)
    norm = [(cid, words.normalise(letters)) for cid, letters in cards]
    found: list[tuple[str, list[int]]] = []
    tried = 0
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for size in range(min(longest, len(norm)), 0, -1):
        for subset in combinations(norm, size):
            tried += 1
            if tried > limit:
                return found
            letters = "".join(letters for _cid, letters in subset)
            for key in index.words(letters):
                order = spell(key, list(subset))
                if order is None:
                    continue
                mark = (key, tuple(sorted(order)))
                if mark not in seen:
                    seen.add(mark)
                    found.append((key, order))
    return found
