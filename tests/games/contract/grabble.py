"""Grabble's case for the contract suite: a small Greek word list with analyses, and a ``choose`` that plays real
words found on the view's board and rack (with the move finder, pure code), parses them (mostly right), and answers
the quiz, so random games reach the approval, the quiz, the credit and the end."""

import random
from typing import Any

from games.engine import Game, WordSet
from games.rules.grabble.moves import BoardTile, RackTile, plays_on
from lexicons.morphology import parse_from_code
from lexicons.normalise import greek_key


def _entry(form: str, lemma: str, pos: str, code: str) -> dict[str, Any]:
    return {"form": form, "lemma": lemma, "pos": pos, "parse": parse_from_code(pos, code), "gloss": ""}


_ENTRIES = [
    _entry("λόγος", "λόγος", "N", "----NSM-"),
    _entry("ἀρχή", "ἀρχή", "N", "----NSF-"),
    _entry("θεός", "θεός", "N", "----NSM-"),
    _entry("ὁδός", "ὁδός", "N", "----NSF-"),
    _entry("νόμος", "νόμος", "N", "----NSM-"),
    _entry("ἔτος", "ἔτος", "N", "----NSN-"),
    _entry("ὄνομα", "ὄνομα", "N", "----NSN-"),
    _entry("ὅς", "ὅς", "RR", "----NSM-"),
    _entry("ἥν", "ὅς", "RR", "----ASF-"),
    _entry("ἦν", "εἰμί", "V", "3IAI-S--"),
    _entry("ἐστι", "εἰμί", "V", "3PAI-S--"),
    _entry("εἶ", "εἰμί", "V", "2PAI-S--"),
    _entry("τό", "ὁ", "RA", "----NSN-"),
    _entry("τό", "ὁ", "RA", "----ASN-"),
    _entry("τά", "ὁ", "RA", "----NPN-"),
    _entry("τόν", "ὁ", "RA", "----ASM-"),
    _entry("τήν", "ὁ", "RA", "----ASF-"),
    _entry("τῆς", "ὁ", "RA", "----GSF-"),
    _entry("τοῦ", "ὁ", "RA", "----GSM-"),
    _entry("οἱ", "ὁ", "RA", "----NPM-"),
    _entry("αἱ", "ὁ", "RA", "----NPF-"),
    _entry("ἐν", "ἐν", "P", "--------"),
    _entry("εἰς", "εἰς", "P", "--------"),
    _entry("ἐκ", "ἐκ", "P", "--------"),
    _entry("ἐπί", "ἐπί", "P", "--------"),
    _entry("καί", "καί", "C", "--------"),
    _entry("δέ", "δέ", "C", "--------"),
    _entry("τε", "τε", "C", "--------"),
    _entry("ἄν", "ἄν", "X", "--------"),
    _entry("οὐ", "οὐ", "D", "--------"),
    _entry("νῦν", "νῦν", "D", "--------"),
    _entry("σύ", "σύ", "RP", "----NS--"),
    _entry("με", "ἐγώ", "RP", "----AS--"),
    _entry("σε", "σύ", "RP", "----AS--"),
    _entry("τίς", "τίς", "RI", "----NSM-"),
    _entry("τι", "τις", "RI", "----NSN-"),
]
ANALYSES: dict[str, list[dict[str, Any]]] = {}
for _item in _ENTRIES:
    ANALYSES.setdefault(greek_key(_item["form"]), []).append(_item)
# Words the list knows without an analysis: playing one waits for the teacher (or is refused at strict tables).
UNPARSED = ["ΑΙΑ", "ΟΙΝΟΣ", "ΤΟΙ", "ΝΗ"]
LEXICON = WordSet(UNPARSED, language="grc", analyses=ANALYSES, normalise=greek_key)

OPTIONS = [
    {},
    {"open_racks": False},
    {"unknown_words": "strict", "hints": 1},
    {"open_racks": False, "hints": 0, "bag": "large"},
]


def _parse_of(word: str, rng: random.Random, right: float) -> dict[str, Any]:
    """A parse of ``word``: one of its analyses (right with probability ``right``, else with a wrong case, lemma
    or part of speech); for a word without analyses, a parse of the player's own (the teacher may approve it)."""
    analyses = ANALYSES.get(word)
    if not analyses:
        return {"word": word, "lemma": word.lower(), "pos": "N", "parse": {"case": "N", "number": "S", "gender": "M"}}
    analysis = rng.choice(analyses)
    parse = {"word": word, "lemma": analysis["lemma"], "pos": analysis["pos"], "parse": dict(analysis["parse"])}
    if rng.random() >= right:
        spoil = rng.choice(["lemma", "pos", "case"])
        if spoil == "lemma":
            parse["lemma"] = "xyz"
        elif spoil == "pos":
            parse["pos"] = "I" if analysis["pos"] != "I" else "N"
        else:
            parse["parse"]["case"] = "V"
    if rng.random() < 0.2:  # the lemma in Beta Code now and then (ἀρχή → a)rxh/ is not needed: keys compare)
        parse["lemma"] = {"λόγος": "lo/gos", "ὅς": "o(/s", "καί": "kai/", "ὁ": "o("}.get(parse["lemma"], parse["lemma"])
    return parse


def _a_play(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A legal play of the viewer's rack on the view's board, its words parsed; ``None`` when none fits."""
    body = view["body"]
    rack = [RackTile(t["id"], t["letter"], t["value"]) for t in body["racks"].get(str(view["seat"]), [])]
    board = {name: BoardTile(sq["letter"], sq["value"]) for name, sq in body["board"].items()}
    plays = plays_on(board, rack, LEXICON)
    if not plays:
        return None
    play = rng.choice(plays)
    words = list(dict.fromkeys(w.word for w in play.words))
    return {"type": "play", "tiles": play.action_tiles(), "parses": [_parse_of(w, rng, 0.85) for w in words]}


def choose(rules: Game, view: dict[str, Any], spec: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """Fill an offered action from the view; ``None`` leaves it to the harness's defaults."""
    kind = spec["type"]
    offered = {a["type"] for a in view["actions"]}
    body = view["body"]
    if kind in ("play", "pass", "exchange") and "play" in offered and (kind == "play" or rng.random() < 0.7):
        found = _a_play(view, rng)
        if found is not None:
            return found
    if kind == "exchange":
        rack = [t["id"] for t in body["racks"].get(str(view["seat"]), [])]
        return {"type": "exchange", "tiles": rng.sample(rack, rng.randint(1, min(3, len(rack))))}
    if kind == "end_play" and "suggest" in offered and rng.random() < 0.9:
        return {"type": "suggest", "text": "λόγος"}  # let the players play a while before the teacher ends it
    if kind == "answer":
        play = body["sheet"][body["quiz"]["play"]]
        words = list(dict.fromkeys(w["word"] for w in play["words"]))
        return {"type": "answer", "parses": [_parse_of(w, rng, 0.7) for w in words]}
    if kind == "credit":
        number = rng.choice(next(f["choices"] for f in spec["fields"] if f["name"] == "play"))
        seat = rng.choice(next(f["choices"] for f in spec["fields"] if f["name"] == "seat"))
        return {"type": "credit", "play": number, "seat": seat, "points": rng.randint(0, body["sheet"][number]["base"])}
    return None
