"""Robot players: pure brains that choose an action from a seat's view.

A robot is a seat like any other. Its brain is given exactly what that seat's page gets (the view envelope:
``actions`` with their legal ``choices``, and the ``body`` the rules show that seat) plus the table's word list,
and answers the actions it would send, best first; the services (:mod:`games.services.robots`) send them through
the same move path as a student's, one per transaction. No brain ever sees the game's state.

Three levels, named for teachers: ``beginner`` (short, safe plays; often misses a chance; answers quiz questions
about half right), ``steady`` (reasonable plays, a middle score; mostly right) and ``strong`` (the best play it
finds; almost always right). Each game's brain is ``games/robots/<slug>.py``: ``decide(view, words, level, rng)``.
Pure Python, like the rules: no Django, no I/O; randomness from the ``random.Random`` it is given.
"""

import random
from collections.abc import Callable
from typing import Any

from games.engine import WordList

from . import common, grabble, pablo, pala, palabra, palabras_cortas, palabras_cortas_solitario

BEGINNER = "beginner"
STEADY = "steady"
STRONG = "strong"
LEVELS: tuple[str, ...] = (BEGINNER, STEADY, STRONG)
LEVEL_LABELS: dict[str, str] = {
    BEGINNER: "Beginner robot",
    STEADY: "Steady robot",
    STRONG: "Strong robot",
}
LEVEL_CHOICES: tuple[tuple[str, str], ...] = tuple(LEVEL_LABELS.items())

Action = dict[str, Any]
Brain = Callable[[dict[str, Any], WordList | None, str, random.Random], list[Action]]

BRAINS: dict[str, Brain] = {
    "grabble": grabble.decide,
    "palabra": palabra.decide,
    "palabras_cortas": palabras_cortas.decide,
    "palabras_cortas_solitario": palabras_cortas_solitario.decide,
    "pala": pala.decide,
    "pablo": pablo.decide,
}


def decide(view: dict[str, Any], words: WordList | None, level: str, rng: random.Random) -> list[Action]:
    """The actions a robot of ``level`` would send from ``view``, best first (the service tries them in order until
    one is accepted). Empty: the robot does nothing now (nothing offered, or only things it chooses not to do, such
    as an optional challenge). Only actions the view offers are ever answered."""
    if level not in LEVELS:
        raise ValueError(f"unknown robot level {level!r}")
    if not view["actions"] or view["finished"]:
        return []
    brain = BRAINS.get(view["game"], common.fallback_brain)
    chosen = brain(view, words, level, rng)
    offered = {spec["type"] for spec in view["actions"]}
    return [a for a in chosen if a.get("type") in offered]


def teacher_stand_in(view: dict[str, Any]) -> Action | None:
    """At a table with no teacher (a practice game), what the teacher's view offers that keeps the game going:
    closing a quiz, finishing a review, advancing after a challenge review, checking a disputed word, approving a
    word the lexicon lacks. ``None`` when nothing is needed."""
    offered = {spec["type"] for spec in view["actions"]}
    if not view["awaiting_teacher"]:
        return None
    for kind in ("check", "advance", "close", "finish", "reject"):
        if kind in offered:
            return {"type": kind}
    return None


__all__ = ["BEGINNER", "LEVELS", "LEVEL_CHOICES", "LEVEL_LABELS", "STEADY", "STRONG", "decide", "teacher_stand_in"]
