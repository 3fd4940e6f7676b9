"""Grabble: plays from the move finder, parsed from the word list's analyses, and quiz answers by level.

A beginner prefers short common words (of its shortest plays, the one whose words the lexicon counts most
frequent); a steady robot a play from the middle of the scores; a strong one the best score. Every word a robot
plays is parsed from one of its analyses in the lexicon (as a student would, at play), and in the quiz it answers
each word right as often as its level says (about half, most, nearly all), a wrong answer having one field wrong.
With no play it sometimes exchanges a few tiles, else passes. Robots never ask for hints or suggest words, and
never play a word the lexicon lacks.
"""

import random
from collections.abc import Mapping
from typing import Any

from games.engine import WordList
from games.rules.grabble.moves import BoardTile, RackTile, plays_on
from lexicons import morphology

from .common import Action, View, accuracy, choices, offered

CANDIDATES = 300  # plays looked at, best first for the level, to find one whose words the lexicon parses


def decide(view: View, words: WordList | None, level: str, rng: random.Random) -> list[Action]:
    specs = offered(view)
    chosen: list[Action] = []
    body = view["body"]
    quiz = body.get("quiz")
    if "answer" in specs and words is not None and quiz is not None and view["seat"] not in quiz["answered"]:
        play = body["sheet"][body["quiz"]["play"]]
        keys = list(dict.fromkeys(w["word"] for w in play["words"]))
        chosen.append({"type": "answer", "parses": [parse_of(k, words, level, rng) for k in keys]})
    if "play" in specs and words is not None:
        found = _play(view, words, level, rng)
        if found is not None:
            chosen.append(found)
    if "exchange" in specs and not chosen and rng.random() < 0.3:
        rack = choices(view, "exchange", "tiles")
        if rack:
            chosen.append({"type": "exchange", "tiles": rng.sample(rack, min(len(rack), 3))})
    if "pass" in specs:
        chosen.append({"type": "pass"})
    return chosen


def _play(view: View, words: WordList, level: str, rng: random.Random) -> Action | None:
    body = view["body"]
    rack = [RackTile(t["id"], t["letter"], t["value"]) for t in body["racks"].get(str(view["seat"]), [])]
    board = {name: BoardTile(sq["letter"], sq["value"]) for name, sq in body["board"].items()}
    plays = plays_on(board, rack, words)
    if not plays:
        return None
    if level == "strong":
        plays.sort(key=lambda p: -p.score)
    elif level == "beginner":
        plays.sort(key=lambda p: (len(p.letters), p.score))
    else:
        plays.sort(key=lambda p: p.score)
        middle = int(len(plays) * 0.6)
        plays = plays[middle:] + plays[:middle][::-1]
    # Only words the lexicon can parse (a word without analyses would wait for the teacher's approval). A table's
    # lexicon reads analyses from the database, so they are read for the few plays looked at, each key once.
    known: dict[str, list[Mapping[str, Any]]] = {}

    def analyses(key: str) -> list[Mapping[str, Any]]:
        if key not in known:
            known[key] = words.analyses(key)
        return known[key]

    parsable = []
    for play in plays[:CANDIDATES]:
        if all(analyses(w.word) for w in play.words):
            parsable.append(play)
            if level != "beginner" or len(parsable) >= 12:
                break
    if not parsable:
        return None
    play = parsable[0]
    if level == "beginner":  # of its shortest plays, the one whose words are the most common
        play = max(parsable, key=lambda p: (min(_frequency(analyses(w.word)) for w in p.words), -len(p.letters)))
    keys = list(dict.fromkeys(w.word for w in play.words))
    parses = [_parse(k, analyses(k), "strong", rng, right=True) for k in keys]
    return {"type": "play", "tiles": play.action_tiles(), "parses": parses}


def _frequency(analyses: list[Mapping[str, Any]]) -> float:
    return max((float(a.get("frequency") or 0.0) for a in analyses), default=0.0)


def parse_of(key: str, words: WordList, level: str, rng: random.Random) -> dict[str, Any]:
    """A quiz answer for ``key`` from one of its analyses; wrong in one field as often as ``level`` errs."""
    return _parse(key, words.analyses(key), level, rng)


def _parse(
    key: str, analyses: list[Mapping[str, Any]], level: str, rng: random.Random, *, right: bool = False
) -> dict[str, Any]:
    """A parse of ``key`` from one of ``analyses`` (never wrong if ``right``: at play a robot parses its own words
    right)."""
    if not analyses:
        return {"word": key, "lemma": key.lower(), "pos": "N", "parse": {}}
    analysis = rng.choice(analyses)
    parse = {"word": key, "lemma": analysis["lemma"], "pos": analysis["pos"], "parse": dict(analysis["parse"])}
    if not right and rng.random() >= accuracy(level):
        fields = [name for name in parse["parse"] if parse["parse"][name]]
        name = rng.choice(fields) if fields else None
        others = [v for v in morphology.VALUES.get(name or "", {}) if v != parse["parse"].get(name or "")]
        if name is not None and others:
            parse["parse"][name] = rng.choice(sorted(others))
        else:
            parse["lemma"] = parse["lemma"] + "ς"
    return parse
