"""What every game shares: the rules protocol, seeded randomness, decks, turn order, events, errors.

Pure Python: nothing here (nor in ``games/rules/``) may import Django or do I/O.
"""

from .actions import ANY_PHASE, ANYONE, BOOL, INT, INTS, LIST, OBJECT, PLAYER, STR, TEACHER, TURN, Field, action
from .errors import AppError
from .events import Event, censor, censor_all, event, private, score, score_totals
from .game import Action, Context, Game, Option, Scores, State, Status, fill_names, seat_ref
from .lexicon import WordList, WordSet

__all__ = [
    "ANYONE",
    "ANY_PHASE",
    "BOOL",
    "INT",
    "INTS",
    "LIST",
    "OBJECT",
    "PLAYER",
    "STR",
    "TEACHER",
    "TURN",
    "Action",
    "AppError",
    "Context",
    "Event",
    "Field",
    "Game",
    "Option",
    "Scores",
    "State",
    "Status",
    "WordList",
    "WordSet",
    "action",
    "censor",
    "censor_all",
    "event",
    "fill_names",
    "private",
    "score",
    "score_totals",
    "seat_ref",
]
