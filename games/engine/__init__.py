"""What every game shares: the rules protocol, seeded randomness, decks, turn order, events, errors.

Pure Python: nothing here (nor in ``games/rules/``) may import Django or do I/O.
"""

from .errors import RuleError
from .events import Event, censor, censor_all, event, private, score, score_totals
from .game import Action, Context, Game, Option, State, Status
from .lexicon import WordList, WordSet

__all__ = [
    "Action",
    "Context",
    "Event",
    "Game",
    "Option",
    "RuleError",
    "State",
    "Status",
    "WordList",
    "WordSet",
    "censor",
    "censor_all",
    "event",
    "private",
    "score",
    "score_totals",
]
