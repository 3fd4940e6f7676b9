"""The rules protocol every game implements.

A game's rules are a :class:`Game` subclass in ``games/rules/<slug>.py``: pure Python, no Django,
no I/O, no clock and no randomness of its own. The state is a JSON-ready ``dict`` owned by the
caller: :meth:`Game.apply` never mutates the state it is given, it returns a new one plus the events
that happened. Randomness comes from ``games.engine.rng`` (seeded, kept in the state); the time and
the lexicon come in through :class:`Context`, and anything an action learned from them is written
into its events, so a game replays from its move log.

Seats are numbered 0..players-1 in clockwise order. ``seat=None`` means the teacher (for
``apply``) or a spectator (for ``view``).
"""

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .encounters import WordEncounter
from .errors import BAD_ACTION, RuleError
from .events import Event
from .lexicon import WordList

State = dict[str, Any]
Action = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """A table option the teacher chooses when starting a game.

    ``kind`` is ``"bool"``, ``"choice"`` (one of ``choices``, a tuple of (value, label)) or ``"int"``
    (between ``low`` and ``high``).
    """

    name: str
    label: str
    kind: str
    default: Any
    choices: tuple[tuple[Any, str], ...] = ()
    low: int | None = None
    high: int | None = None
    help: str = ""

    def clean(self, value: Any) -> Any:
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in {"true", "on", "1", "false", "off", "0", ""}:
                return value.lower() in {"true", "on", "1"}
        elif self.kind == "choice":
            for choice, _label in self.choices:
                if value == choice or (isinstance(value, str) and value == str(choice)):
                    return choice
        elif self.kind == "int":
            try:
                number = int(value)
            except (TypeError, ValueError):
                number = None
            if (
                number is not None
                and (self.low is None or number >= self.low)
                and (self.high is None or number <= self.high)
            ):
                return number
        raise RuleError("bad_option", f"{self.label}: {value!r} is not an allowed value.")


@dataclass
class Context:
    """What the outside world tells the rules for one action: the table's lexicon and the time."""

    lexicon: WordList | None = None
    now: float = 0.0


@dataclass(frozen=True)
class Status:
    """Where the game stands, for dashboards and the turn indicator."""

    phase: str
    to_act: tuple[int, ...]  # seats whose action the game is waiting for
    finished: bool = False
    awaiting_teacher: bool = False
    summary: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def private_copy(state: State) -> State:
    """A copy of ``state`` sharing nothing with it. States are JSON-ready by contract, and a JSON round
    trip copies them several times faster than ``copy.deepcopy`` (it is on every move's path)."""
    return json.loads(json.dumps(state))


class Game:
    """Base class of every game's rules. Subclasses set the class attributes and implement the
    ``_new``/``_apply``/``view``/``scores``/``status`` hooks; :meth:`apply` does the copying."""

    slug: ClassVar[str]
    title: ClassVar[str]
    language: ClassVar[str]  # lexicon language code: grc, spa, eng
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()

    # -- options -----------------------------------------------------------------------------
    def clean_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, every value checked; unknown names are an error, not ignored."""
        raw = dict(raw or {})
        known = {opt.name: opt for opt in self.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise RuleError("bad_option", f"Unknown option: {', '.join(unknown)}.")
        return {name: opt.clean(raw[name]) if name in raw else opt.default for name, opt in known.items()}

    # -- the protocol --------------------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> tuple[State, list[Event]]:
        if not self.min_players <= players <= self.max_players:
            raise RuleError(
                "bad_players", f"{self.title} is for {self.min_players} to {self.max_players} players, not {players}."
            )
        return self._new(players, self.clean_options(options), seed)

    def apply(self, state: State, seat: int | None, action: Action, ctx: Context) -> tuple[State, list[Event]]:
        """Apply ``action`` by ``seat`` (``None``: the teacher). Raises :class:`RuleError`."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise RuleError(BAD_ACTION, "An action needs a type.")
        new_state = private_copy(state)
        events = self._apply(new_state, seat, action, ctx)
        return new_state, events

    def remove_player(self, state: State, seat: int, ctx: Context) -> tuple[State, list[Event]]:
        """The teacher removed the player in ``seat``: the default skips their seat from now on."""
        new_state = private_copy(state)
        removed = new_state.setdefault("removed", [])
        if seat not in removed:
            removed.append(seat)
        return new_state, self._after_removal(new_state, seat, ctx)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). Must hide everything hidden from them."""
        raise NotImplementedError

    def scores(self, state: State) -> list[int]:
        raise NotImplementedError

    def status(self, state: State) -> Status:
        raise NotImplementedError

    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        """The words each seat met in one move, from that move's (uncensored) ``events``; ``state`` is the table's
        state when the move is recorded, which may be later than the move. Games without words return nothing."""
        return []

    # -- hooks for subclasses --------------------------------------------------------------------
    def _new(self, players: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event]]:
        raise NotImplementedError

    def _apply(self, state: State, seat: int | None, action: Action, ctx: Context) -> list[Event]:
        """Mutate ``state`` (already a private copy) and return the events."""
        raise NotImplementedError

    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        """Fix up the state after ``seat`` left (e.g. pass the turn on); returns the events."""
        raise NotImplementedError
