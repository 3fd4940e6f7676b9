"""What the contract harness may know of a game beyond its registration: nothing is required.

A game with no case here is played with defaults (every player count from its minimum to five, default options,
no lexicon, values from the view's legal values or at random). A case makes the random games reach further: the
player counts and options to mix, a small word list, and a ``choose`` that fills an offered action's fields from
the view (the same view a player's page gets) where random values would almost never be legal.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine import Game, WordList, WordSet

from .word_cards import GENEROUS, SPANISH, choose_palabras_cortas, choose_solitario

Chooser = Callable[[Game, dict[str, Any], dict[str, Any], random.Random], dict[str, Any] | None]


@dataclass(frozen=True)
class Case:
    players: list[int] = field(default_factory=list)
    options: list[dict[str, Any]] = field(default_factory=list)
    lexicon: WordList | None = None
    choose: Chooser | None = None
    games: int = 200  # random games per run
    steps: int = 150  # moves per game at most
    removals: bool = True


def _choose_pala(rules: Game, view: dict[str, Any], spec: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """Pala: Cancel cards remove exactly as many cards as the view's ``cancel`` says; the rest from legal values."""
    if spec["type"] == "cancel":
        need, cards = view["body"]["cancel"]["need"], [c["id"] for c in view["body"]["cancel"]["cards"]]
        return {"type": "cancel", "cards": rng.sample(cards, need)}
    return None


def _pablo_target(
    view: dict[str, Any], field: dict[str, Any], owners: list[int], rng: random.Random
) -> tuple[int, int]:
    """An owner among ``owners`` and one of the slots of theirs that holds a card, as the view shows them."""
    owner = rng.choice(owners)
    slots = [s["slot"] for s in view["body"]["fields"][owner]["slots"] if not s.get("empty")]
    return owner, rng.choice(slots) if slots else rng.choice(field.get("choices") or [0])


def choose_pablo(rules: Game, view: dict[str, Any], spec: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """Pablo's targets name an owner and one of their slots: pick a slot that holds a card; a match often uses a
    card the viewer can see with the top card's rank, so that right matches happen as well as wrong ones."""
    fields = {f["name"]: f for f in spec["fields"]}
    if "owner" not in fields:
        return None
    action: dict[str, Any] = {"type": spec["type"]}
    owners = fields["owner"].get("choices") or []
    if not owners:
        return None
    owner, slot = _pablo_target(view, fields["slot"], owners, rng)
    if spec["type"] == "match":
        top = view["body"]["discard"]["top"]
        known = [
            (f["seat"], s["slot"])
            for f in view["body"]["fields"]
            for s in f["slots"]
            if f["seat"] in owners and top and s.get("rank") == top["rank"]
        ]
        if known and rng.random() < 0.8:
            owner, slot = rng.choice(known)
        action["top"] = fields["top"]["choices"][0]
        mine = fields["give"].get("choices") or []
        if owner != view["seat"] and mine:
            action["give"] = rng.choice(mine)
    if "mine" in fields:
        action["mine"] = rng.choice(fields["mine"].get("choices") or [0])
    action.update(owner=owner, slot=slot)
    return action


CASES: dict[str, Case] = {
    "pala": Case(
        players=[3, 4, 5],
        options=[
            {"rounds": 1},
            {"rounds": 2, "variant": "impressionism"},
            {"rounds": 1, "variant": "impressionism", "ties": "auto", "banks": "hidden"},
            {"rounds": 2, "ties": "auto", "card_language": "spa"},
            {"rounds": 1, "variant": "impressionism", "five_player_board": "two", "cancels": "auto"},
            {},
            {"variant": "impressionism", "card_language": "grc"},
        ],
        choose=_choose_pala,
        games=40,
        steps=160,
    ),
    "pablo": Case(
        players=[2, 3, 4, 5],
        options=[{}, {"reminders": True}, {"number_words": "grc", "empty_field_queen": True}],
        choose=choose_pablo,
        games=60,
        steps=300,
    ),
    "palabras_cortas": Case(
        players=[2, 3, 4],
        options=[
            {"checking": "challenge"},
            {"checking": "challenge", "deck": "spanish", "refused_word": "against", "floor_zero": False},
            {"checking": "automatic", "two_player_bonus": "most"},
        ],
        lexicon=SPANISH,
        choose=choose_palabras_cortas,
        games=25,
        steps=250,
    ),
    "palabras_cortas_solitario": Case(
        options=[{"deck": "standard"}, {"deck": "spanish"}],
        lexicon=GENEROUS,
        choose=choose_solitario,
        games=60,
        steps=60,
    ),
}


def _grabble() -> Case:
    from . import grabble

    return Case(players=[2, 3, 4], options=grabble.OPTIONS, lexicon=grabble.LEXICON, choose=grabble.choose, games=30)


CASES["grabble"] = _grabble()


def case_for(slug: str) -> Case:
    return CASES.get(slug, Case())


# -- Palabra -------------------------------------------------------------------------------------------------------
PALABRA_LIST = [
    "a",
    "o",
    "an",
    "at",
    "as",
    "in",
    "is",
    "it",
    "on",
    "no",
    "to",
    "so",
    "do",
    "go",
    "he",
    "me",
    "we",
    "be",
    "or",
    "of",
    "cat",
    "act",
    "tea",
    "eat",
    "ate",
    "rat",
    "tar",
    "art",
    "ten",
    "net",
    "tin",
    "ran",
    "red",
    "den",
    "end",
    "and",
    "one",
    "toe",
    "lot",
    "rot",
    "sat",
    "sea",
    "set",
    "sit",
    "tan",
    "east",
    "seat",
    "rate",
    "tear",
    "note",
    "tone",
    "stone",
    "rates",
    "stare",
    "lane",
    "line",
    "nail",
    "rain",
    "tail",
]
PALABRA_WORDS = WordSet(PALABRA_LIST)
_VOWEL_LETTERS = "AEIOUY"


def _spell_from_hand(word: str, hand: list[dict[str, Any]]) -> list[Any] | None:
    """``word`` spelled with cards of ``hand`` (letter cards first, then wild and vowel cards), or None."""
    free = list(hand)
    spelled: list[Any] = []
    for letter in word.upper():
        card = next((c for c in free if c["kind"] == "letter" and c["letter"] == letter), None)
        if card is None:
            card = next((c for c in free if c["kind"] == "vowel" and letter in _VOWEL_LETTERS), None)
        if card is None:
            card = next((c for c in free if c["kind"] == "wild"), None)
        if card is None:
            return None
        free.remove(card)
        spelled.append(card["id"] if card["kind"] == "letter" else {"card": card["id"], "letter": letter})
    return spelled


def _palabra_choose(rules: Game, view: dict[str, Any], spec: dict[str, Any], rng: random.Random) -> dict | None:
    """Fill an offered Palabra action from the view: words of the case's list spelled from the hand, builds that
    spell one around a word on the table, shaves from the view's shave options, flushes, vowels."""
    body, kind = view["body"], spec["type"]
    hand = body["hand"] or []
    words = list(PALABRA_LIST)
    rng.shuffle(words)
    if kind == "word":
        spelled = next((s for w in words if (s := _spell_from_hand(w, hand))), None)
        return {"type": "word", "cards": spelled or [c["id"] for c in hand[:2]]}
    if kind == "build":
        for word in body["table"]:
            if not word["build_target"]:
                continue
            old = "".join(word["letters"])
            for w in words:
                at = w.upper().find(old)
                if at < 0 or len(w) == len(old):
                    continue
                before = _spell_from_hand(w[:at], hand)
                after = _spell_from_hand(w[at + len(old) :], [c for c in hand if c["id"] not in _ids(before)])
                if before is not None and after is not None:
                    return {"type": "build", "seat": word["seat"], "before": before, "after": after}
        return {"type": "build", "seat": rng.choice(spec["fields"][0]["choices"]), "after": [hand[0]["id"]]}
    if kind == "shave":
        word = rng.choice([w for w in body["table"] if w["shave_options"]])
        option = rng.choice(word["shave_options"])
        return {"type": "shave", "seat": word["seat"], "cards": [{"card": option["cards"][0], "at": option["at"]}]}
    if kind == "straight":
        letters = sorted({c["letter"]: c for c in hand if c["kind"] == "letter"}.values(), key=lambda c: c["letter"])
        return {"type": "straight", "cards": [c["id"] for c in letters[:3]]}
    if kind == "flush":
        colour = max("RBGY", key=lambda k: sum(k in c["colors"] for c in hand if c["kind"] != "joker"))
        return {"type": "flush", "cards": [c["id"] for c in hand if c["kind"] != "joker" and colour in c["colors"]]}
    if kind == "vowels":
        vowels = [c["id"] for c in hand if c["kind"] in ("vowel", "wild") or c["letter"] in _VOWEL_LETTERS]
        return {"type": "vowels", "cards": vowels[:7]}
    if kind == "exchange":
        ids = [c["id"] for c in hand]
        return {"type": "exchange", "cards": rng.sample(ids, rng.randint(1, len(ids)))}
    return None  # the rest have no fields, or their legal values listed (joker targets, votes)


def _ids(spelled: list[Any] | None) -> set[int]:
    return {s["card"] if isinstance(s, dict) else s for s in spelled or []}


CASES["palabra"] = Case(
    players=[2, 3, 4, 6, 7],
    options=[
        {},
        {"checking": "auto", "shaving": "anyone"},
        {"impatient_timer": True, "final_multiplier": 3, "shaving": "last_and_next"},
        {"eliminate_high_score": True, "short_words": "common"},
        {"simultaneous": True, "double_deck": True},
    ],
    lexicon=PALABRA_WORDS,
    choose=_palabra_choose,
    games=30,
    steps=150,
)
