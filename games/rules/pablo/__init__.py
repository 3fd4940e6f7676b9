"""Pablo: the memory card game (no lexicon; number words for language classes). See :mod:`.game`."""

from .game import Pablo

RULES = Pablo()

__all__ = ["RULES", "Pablo"]
