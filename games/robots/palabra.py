"""Palabra: an anagram search of the hand (letter cards, and one wild or vowel card standing for a letter) against the
table's word list, builds around words on the table, shaves from the options the view lists, and votes.

A beginner lays its shortest word and never shaves; a steady robot a word from the better half and builds where it
can; a strong one the most valuable word or build, shaves when offered, and tries a straight or a flush when it has
no word. Votes, challenges and insisting follow the word list, right as often as the level says.
"""

import random
from itertools import combinations
from typing import Any

from games.engine import WordList

from .common import Action, View, accuracy, anagrams_of, choices, offered, spell

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
VOWELS = "AEIOUY"
Card = dict[str, Any]


def decide(view: View, words: WordList | None, level: str, rng: random.Random) -> list[Action]:
    specs = offered(view)
    body = view["body"]
    hand: list[Card] = body.get("hand") or []
    chosen: list[Action] = []
    pending = body.get("pending")
    if pending and words is not None:
        key = words.normalise("".join(pending["letters"]))
        good = words.is_word(key) if rng.random() < accuracy(level) else rng.random() < 0.7
        if "vote" in specs:
            chosen.append({"type": "vote", "accept": good})
        if "insist" in specs or "withdraw" in specs:
            chosen.append({"type": "insist" if good else "withdraw"})
        if "challenge" in specs or "concede" in specs:
            chosen.append({"type": "concede" if good else "challenge"})
    if "shave" in specs and level != "beginner":
        for word in body.get("table") or []:
            for option in word.get("shave_options") or []:
                shave = {"card": option["cards"][0], "at": option["at"]}
                chosen.append({"type": "shave", "seat": word["seat"], "cards": [shave]})
        if level == "steady":
            chosen = chosen[:1]
    plays: list[tuple[int, int, Action]] = []  # (value, letters, action)
    if "word" in specs and words is not None:
        for letters, spelled, value in _words(hand, words, ""):
            plays.append((value, len(letters), {"type": "word", "cards": spelled}))
    if "build" in specs and words is not None and level != "beginner":
        plays.extend(_builds(body, hand, words))
    if plays:
        if level == "beginner":
            plays.sort(key=lambda p: (p[1], p[0]))
        elif level == "strong":
            plays.sort(key=lambda p: -p[0])
        else:
            plays.sort(key=lambda p: -p[0])
            plays = plays[len(plays) // 3 :] + plays[: len(plays) // 3]
        chosen.extend(a for _v, _n, a in plays[:4])
    if level == "strong" or not plays:
        chosen.extend(_patterns(hand, specs))
    if "exchange" in specs and hand and not plays and rng.random() < 0.6:
        hard = sorted((c for c in hand if c["kind"] == "letter"), key=lambda c: -c["value"])
        if hard:
            chosen.append({"type": "exchange", "cards": [c["id"] for c in hard[:3]]})
    if "joker" in specs:
        targets = choices(view, "joker", "targets")
        if targets and level == "strong":
            chosen.append(
                {"type": "joker", "targets": [targets[0]] if not isinstance(targets[0], list) else targets[0]}
            )
    if "pass" in specs:
        chosen.append({"type": "pass"})
    return chosen


def _words(hand: list[Card], words: WordList, fixed: str, longest: int = 7) -> list[tuple[str, list[Any], int]]:
    """Words spelled by some letter cards of ``hand`` (and at most one wild or vowel card) with the letters ``fixed``
    (a word on the table being built on), as (key, the action's cards without the fixed letters, value)."""
    index = anagrams_of(words)
    letters = [(c["id"], c["letter"]) for c in hand if c["kind"] == "letter" and c.get("letter")]
    values = {c["id"]: c.get("value", 1) for c in hand}
    stand_ins = [(c, ALPHABET if c["kind"] == "wild" else VOWELS) for c in hand if c["kind"] in ("wild", "vowel")]
    found: list[tuple[str, list[Any], int]] = []
    seen: set[str] = set()
    for size in range(min(longest, len(letters)), -1, -1):
        for subset in combinations(letters, size):
            base = "".join(letter for _i, letter in subset) + fixed
            options: list[tuple[str, Card | None]] = [("", None)]
            for stand_in, alphabet in stand_ins[:1]:
                options.extend((ch, stand_in) for ch in alphabet)
            for extra, card in options:
                text = base + extra
                if len(text) < max(2, len(fixed) + 1):
                    continue
                for key in index.words(words.normalise(text)):
                    if key in seen:
                        continue
                    pieces: list[tuple[int, str]] = list(subset)
                    if card is not None:
                        pieces.append((-1, extra))
                    if fixed:
                        pieces.append((-2, fixed))
                    order = spell(key, pieces)
                    if order is None:
                        continue
                    seen.add(key)
                    spelled: list[Any] = []
                    for i in order:
                        if i == -1 and card is not None:
                            spelled.append({"card": card["id"], "letter": extra})
                        else:
                            spelled.append(i)
                    value = sum(values.get(i, 0) for i in order if i >= 0) + (values[card["id"]] if card else 0)
                    found.append((key, spelled, value + len(key)))
            if len(found) > 200:
                return found
    return found


def _builds(body: dict[str, Any], hand: list[Card], words: WordList) -> list[tuple[int, int, Action]]:
    builds = []
    for word in body.get("table") or []:
        if not word.get("build_target"):
            continue
        old = "".join(word["letters"])
        for key, spelled, value in _words(hand, words, old, longest=4):
            if -2 not in spelled or len(spelled) < 2:
                continue
            at = spelled.index(-2)
            builds.append(
                (
                    value + word.get("value", 0),
                    len(key),
                    {"type": "build", "seat": word["seat"], "before": spelled[:at], "after": spelled[at + 1 :]},
                )
            )
    return builds


def _patterns(hand: list[Card], specs: dict[str, Any]) -> list[Action]:
    """A straight (three letters or more in alphabetical sequence) and a flush (one colour), where the hand has one."""
    found: list[Action] = []
    letters = sorted({c["letter"]: c for c in hand if c["kind"] == "letter"}.values(), key=lambda c: c["letter"])
    if "straight" in specs and len(letters) >= 3:
        run: list[Card] = []
        for card in letters:
            if run and ord(card["letter"]) != ord(run[-1]["letter"]) + 1:
                if len(run) >= 3:
                    break
                run = []
            run.append(card)
        if len(run) >= 3:
            found.append({"type": "straight", "cards": [c["id"] for c in run]})
    if "flush" in specs:
        for colour in "RBGY":
            same = [c["id"] for c in hand if c["kind"] != "joker" and colour in (c.get("colors") or "")]
            if len(same) >= 4:
                found.append({"type": "flush", "cards": same})
    return found
