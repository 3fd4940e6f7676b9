"""Word encounters: what a move taught each player about which words, as games report it.

Learning records are built from the move log, not by each game writing its own tables: every game's rules
override :meth:`games.engine.Game.encounters`, turning one move's events into a list of
:class:`WordEncounter`. ``learning`` stores them (one service for every game), so the rules stay pure and
the reports need know nothing about any game.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PLAYED = "played"  # the player laid the word down themselves
SEEN = "seen"  # someone else's word appeared on the table
PARSED = "parsed"  # the player parsed the word when playing it (Grabble)
QUIZZED = "quizzed"  # the player answered a quiz on the word (correct or not)
TAUGHT = "taught"  # the player's word was quizzed to the others (Grabble teaching points)

KINDS: tuple[str, ...] = (PLAYED, SEEN, PARSED, QUIZZED, TAUGHT)


@dataclass(frozen=True)
class WordEncounter:
    """One player meeting one word in one move.

    ``key`` is the lexicon key the word was looked up by, ``form`` the word as shown (NFC, accents kept).
    ``analysis`` is the lexicon analysis the word was checked against or taught as (``lemma``, ``pos``,
    ``parse`` field dict, ``gloss``: the keys :meth:`WordList.analyses` returns), empty when none applies;
    ``given`` is the player's own answer for parses and quizzes (``lemma``, ``pos``, ``parse``).
    ``correct`` is ``None`` when nothing was marked; ``wrong_fields`` names the parse fields that were
    wrong (``lexicons.morphology.FIELDS`` names, plus ``"lemma"`` or ``"pos"`` when those were wrong).
    ``turn`` is the game's own turn or play number, for people reading the record.
    """

    seat: int
    kind: str
    key: str
    form: str
    lemma: str = ""
    analysis: Mapping[str, Any] = field(default_factory=dict)
    given: Mapping[str, Any] = field(default_factory=dict)
    correct: bool | None = None
    wrong_fields: tuple[str, ...] = ()
    turn: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown encounter kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if not isinstance(self.seat, int) or isinstance(self.seat, bool) or self.seat < 0:
            raise ValueError(f"a seat is a number from 0, not {self.seat!r}")
        if not self.key or not self.form:
            raise ValueError("an encounter needs the word's key and form")
        if self.wrong_fields and self.correct is not False:
            raise ValueError("only a wrong answer has wrong fields")
        # A list would make the frozen dataclass unhashable and break equality with replayed encounters.
        object.__setattr__(self, "wrong_fields", tuple(self.wrong_fields))


def played_and_seen(seats: list[int], player: int, key: str, form: str, **details: Any) -> list[WordEncounter]:
    """A word laid where everyone can see it: ``played`` for its player, ``seen`` for every other seat."""
    return [WordEncounter(seat=s, kind=PLAYED if s == player else SEEN, key=key, form=form, **details) for s in seats]
