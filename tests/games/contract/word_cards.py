"""Choosers for the letter-card games (Palabras Cortas and its solitaire): actions filled from what the view shows,
so random games lay real words from a small Spanish list, go out, challenge and get to the end of hands."""

import random
from itertools import permutations
from typing import Any

from games.engine import Game, WordSet
from games.rules.palabras_cortas import DECKS
from lexicons.normalise import spanish_key

SHORT_WORDS = """
    a ah al ay da de di dio el en es fe ha he id ir la le lo me mi ni no oh os se si su te ti tu un uy va ve ya
    yo ajo ama amo ano ara aro as asa ata ave ayer bar bien boa cae cal cama cara caro casa col con da dar das
    del dos duro e eco ella ello era eres esa ese eso esta este fin fue gas gato gol hay hoy ir isla jota lado
    las lata leer les ley lista loma los luz mal mano mar mas mes mesa mio mira mora nada nido niño nota nos
    nube oca ola olla oro oso oye pan par paz pie piso poco pon que queso rata red reo rey rio risa ropa rosa
    sal san sed ser sin sol son sopa sur tal tan tapa taza tela tema tenis tio toca todo tos tras tres tu tus
    uno usa uso uva vaso ver vez via vida vino voz yate zona"""
SPANISH = WordSet(SHORT_WORDS.split(), "spa", normalise=spanish_key)

# For the solitaire: the list above and every spelling of two cards, so random games rarely stick and go deep
# (piles emptied and refilled, games won) instead of ending after a word or two.
GENEROUS = WordSet(
    [*SPANISH.keys(), *(a["letters"] + b["letters"] for a in DECKS["spanish"] for b in DECKS["spanish"])],
    "spa",
    normalise=spanish_key,
)


def find_words(
    cards: list[dict[str, Any]], rng: random.Random, longest: int = 3, lexicon: WordSet = SPANISH
) -> list[list[dict[str, Any]]]:
    """Disjoint words of the list spelled by some of ``cards`` (faces with letters), found greedily."""
    left = list(cards)
    rng.shuffle(left)
    words = []
    found = True
    while found and len(left) >= 2:
        found = False
        for size in range(2, min(longest, len(left)) + 1):
            for row in permutations(left, size):
                if lexicon.is_word(spanish_key("".join(c["letters"] for c in row))):
                    words.append(list(row))
                    left = [c for c in left if c not in row]
                    found = True
                    break
            if found:
                break
    return words


def partition(ids: list[int], rng: random.Random) -> list[list[int]]:
    """All of ``ids`` in random words of at least two cards (none if fewer than two)."""
    ids = list(ids)
    rng.shuffle(ids)
    words = []
    while len(ids) >= 2:
        size = rng.randint(2, len(ids)) if len(ids) >= 4 else len(ids)
        if len(ids) - size == 1:
            size -= 1
        words.append(ids[:size])
        ids = ids[size:]
    return words


def choose_palabras_cortas(
    rules: Game, view: dict[str, Any], spec: dict[str, Any], rng: random.Random
) -> dict[str, Any] | None:
    body = view["body"]
    kind = spec["type"]
    if kind in ("go_out", "lay_down"):
        hand = body["hand"]
        discard = rng.choice(hand)
        rest = [c for c in hand if c is not discard]
        found = [[c["id"] for c in w] for w in find_words(rest, rng)]
        if kind == "go_out":
            used = {i for w in found for i in w}
            if body["options"]["checking"] == "challenge" or rng.random() < 0.3 or len(used) < len(rest):
                words = found if len(used) == len(rest) else partition([c["id"] for c in rest], rng)
            else:
                words = found
        elif body["options"]["checking"] == "challenge" and rng.random() < 0.5:
            words = partition([c["id"] for c in rest], rng)
        else:
            words = found
        return {"type": kind, "words": words, "card": discard["id"]}
    if kind == "challenge":
        targets = [
            (s, i)
            for s, words in enumerate(body["words"])
            if s != view["seat"] and s not in view["removed"]
            for i, word in enumerate(words)
            if word["challenge"] is None
        ]
        if targets:
            seat, index = rng.choice(targets)
            return {"type": "challenge", "seat": seat, "word": index}
    return None


def _choices(view: dict[str, Any], kind: str) -> dict[str, list[Any]] | None:
    for spec in view["actions"]:
        if spec["type"] == kind:
            return {f["name"]: f.get("choices", []) for f in spec["fields"]}
    return None


def choose_solitario(
    rules: Game, view: dict[str, Any], spec: dict[str, Any], rng: random.Random
) -> dict[str, Any] | None:
    kind = spec["type"]
    if kind == "give_up" and rng.random() < 0.97:  # play on, mostly: the game is more than giving up
        kind = "word" if _choices(view, "word") is not None else "refill"
    if kind == "word":
        tops = [pile["top"] for pile in view["body"]["piles"] if pile["top"]]
        words = find_words(tops, rng, longest=3 if rng.random() < 0.3 else 2, lexicon=GENEROUS)
        if words and rng.random() < 0.95:
            return {"type": "word", "cards": [c["id"] for c in rng.choice(words)]}
        return {"type": "word", "cards": [c["id"] for c in rng.sample(tops, min(len(tops), 2))]}
    if kind == "refill":
        choices = _choices(view, "refill") or {}
        return {"type": "refill", "pile": rng.choice(choices["pile"]), "source": rng.choice(choices["source"])}
    return None
