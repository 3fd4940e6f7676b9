"""The rules protocol every game implements, and the engine that runs it.

A game's rules are a :class:`Game` subclass in ``games/rules/<slug>/``: pure Python, no Django,
no I/O, no clock and no randomness of its own. The state is a JSON-ready ``dict`` owned by the
caller: :meth:`Game.apply` never mutates the state it is given, it returns a new one plus the events
that happened. Randomness comes from ``games.engine.rng`` (seeded, kept in the state); the time and
the lexicon come in through :class:`Context`, and anything an action learned from them is written
into its events, so a game replays from its move log.

Seats are numbered 0..players-1 in clockwise order. ``seat=None`` means the teacher (for
``apply``) or a spectator (for ``view``).

The engine owns what every game shares: dispatch (a game declares its actions with
:func:`games.engine.actions.action`; :meth:`Game.apply` checks type, fields, phase and actor before the handler
runs), the view envelope (:meth:`Game.view`: ``game``, ``seat``, ``phase``, ``to_act``, ``actions``, ``scores``,
``finished``, ``winners``, ``last_move`` and the game's own ``body``) and previews (:meth:`Game.preview`). A game
supplies its phases (through :meth:`Game.status`), its handlers, its body (:meth:`Game.body`) and its scores.
"""

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import orjson

from .actions import ANYONE, TEACHER, TURN, ActionSpec
from .encounters import WordEncounter
from .errors import (
    BAD_ACTION,
    CANNOT_SEAT,
    CANNOT_TIME_OUT,
    GAME_OVER,
    NOT_ALLOWED,
    NOT_YOUR_TURN,
    TEACHER_ONLY,
    WRONG_PHASE,
    AppError,
)
from .events import Event, censor
from .jsontext import json_bytes
from .lexicon import WordList
from .turns import active_seats, waiting_seats

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
    # A choice of languages whose default on the start form is the class's own language, where it is a choice
    # (Pala's colour names: a Spanish class says naranja without the teacher setting it).
    follows_class_language: bool = False

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
        raise AppError("bad_option", f"{self.label}: {value!r} is not an allowed value.")


@dataclass
class Context:
    """What the outside world tells the rules for one action: the table's lexicon and the time."""

    lexicon: WordList | None = None
    now: float = 0.0


SEAT_PLACEHOLDER = re.compile(r"\{seat:(\d+)\}")


def seat_ref(seat: int) -> str:
    """How a summary or a last move's text names a seat: a placeholder each reader fills with that player's name
    (the page with the names it shows, the dashboard with the students' names). Rules never know names."""
    return f"{{seat:{seat}}}"


def fill_names(text: str, name: Callable[[int], str]) -> str:
    """``text`` with every :func:`seat_ref` placeholder replaced by ``name(seat)``."""
    return SEAT_PLACEHOLDER.sub(lambda m: name(int(m.group(1))), text)


@dataclass(frozen=True)
class Status:
    """Where the game stands, for dashboards and the turn indicator. ``summary`` names seats only with
    :func:`seat_ref` placeholders ("{seat:2} to play"), never as numbers: readers fill in the names."""

    phase: str
    to_act: tuple[int, ...]  # seats whose action the game is waiting for
    finished: bool = False
    awaiting_teacher: bool = False
    summary: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Scores:
    """Every seat's score: ``total`` (what ranks the players) and named ``parts`` that add up to it where the game
    has them (Grabble: ``play``, ``learning``, ``teaching``). ``provisional`` while the final score is not yet known
    from what is shown (Grabble's play scores before the quiz)."""

    total: list[int]
    parts: dict[str, list[int]] = field(default_factory=dict)
    provisional: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "total": list(self.total),
            "parts": {k: list(v) for k, v in self.parts.items()},
            "provisional": self.provisional,
        }


def _refusal(code: str, spec: ActionSpec, seat: int | None) -> AppError:
    """The error of :meth:`Game._closed_by`'s ``code``, in words."""
    name = spec.label or spec.type.replace("_", " ")
    if code == WRONG_PHASE:
        return AppError(code, f"Not now: {name} is not possible at this point of the game.")
    if code == TEACHER_ONLY:
        return AppError(code, f"Only the teacher can {name}.")
    if code == NOT_YOUR_TURN:
        return AppError(code, "It is not your turn.")
    if seat is None:
        return AppError(code, "The teacher has no seat to play from.")
    return AppError(code, "That seat is not in the game.")


def private_copy(state: State, history: Iterable[str] = ()) -> State:
    """A copy of ``state`` sharing nothing with it, but the entries of its ``history`` lists (:attr:`Game.history`):
    those lists are new, their entries the same objects. States are JSON-ready by contract, and a JSON round trip
    copies them several times faster than ``copy.deepcopy`` (it is on every move's path); orjson's several times
    faster again than the standard library's (:func:`json_bytes`). Integer keys become strings, as the standard
    library's encoder makes them (and as the stored state reads back)."""
    shared = {key: state[key] for key in history if key in state}
    rest = {key: value for key, value in state.items() if key not in shared} if shared else state
    copy: State = orjson.loads(json_bytes(rest))
    for key, entries in shared.items():
        copy[key] = list(entries)
    return copy


def own_entry(state: State, key: str, index: int) -> dict[str, Any]:
    """Entry ``index`` of the history list ``state[key]`` (:attr:`Game.history`), made the state's own to change:
    the private copy shares history entries with the state it was made from, which must not change."""
    entry: dict[str, Any] = orjson.loads(json_bytes(state[key][index]))
    state[key][index] = entry
    return entry


def changed_entries(old: list[Any], new: list[Any]) -> list[int]:
    """The indexes of the entries of the history list ``new`` that a move changed or added against ``old``: those that
    are not the same objects (the private copy shares the others, and none is changed in place: :func:`own_entry`)."""
    return [i for i, entry in enumerate(new) if i >= len(old) or entry is not old[i]]


def added_entries(old: list[Any], new: list[Any]) -> list[int]:
    """The indexes of the entries a move added to a list that only grows (its entries never change once added)."""
    return list(range(len(old), len(new)))


def state_change(history: Iterable[str], before: State, after: State) -> dict[str, Any]:
    """What a move changed, for a copy of the state that holds ``before``: all of ``after`` but its ``history`` lists
    (:attr:`Game.history`), and of each of those its length and the entries that are not the same objects as before's
    (the private copy shares unchanged entries, and no entry is ever changed in place). So its size does not grow
    with the game: a long game's history is most of its state. :func:`with_state_change` is the other side."""
    keys = [key for key in history if key in after]
    rest = {key: value for key, value in after.items() if key not in keys}
    lists = {}
    for key in keys:
        new = after[key]
        changed = {str(i): new[i] for i in changed_entries(before.get(key, []), new)}
        lists[key] = {"length": len(new), "entries": changed}
    return {"rest": rest, "history": lists}


def with_state_change(before: State, change: dict[str, Any]) -> State:
    """The state after a move, from ``before`` and the move's :func:`state_change` (as JSON): ``before``'s history
    entries kept where the move left them, shared as the private copy shares them."""
    state: State = dict(change["rest"])
    for key, part in change["history"].items():
        entries = list(before.get(key, ())[: part["length"]])
        for index, entry in sorted(part["entries"].items(), key=lambda item: int(item[0])):
            if int(index) < len(entries):
                entries[int(index)] = entry
            else:
                entries.append(entry)
        if len(entries) != part["length"]:
            raise ValueError(f"the change to {key} does not fit the state it was made from")
        state[key] = entries
    return state


# How the server stores a state with a history (games.models.HistoryEntry): each entry of a history list apart, so
# that a move writes only the entries it changed or added, and the rest of the state with each list's length.
def stored_state(state: State, history: Collection[str]) -> State:
    """``state`` without its ``history`` lists' entries: each list replaced by its length."""
    if not any(key in state for key in history):
        return state
    return {key: len(value) if key in history else value for key, value in state.items()}


def whole_state(stored: State, history: Collection[str], entries: Mapping[str, Sequence[Any]]) -> State:
    """The state from its column's value and its history's ``entries`` (by key, in order). A list already whole in
    ``stored`` is kept as it is (a state written before its history was kept apart, or by ``QuerySet.update``)."""
    lengths = {key: stored[key] for key in history if isinstance(stored.get(key), int)}
    if not lengths:
        return stored
    state = dict(stored)
    for key, length in lengths.items():
        found = list(entries.get(key, ()))
        if len(found) != length:
            raise ValueError(f"table state: {key} has {len(found)} entries stored, not {length}")
        state[key] = found
    return state


def history_writes(
    history: Collection[str], saved: Mapping[str, list[Any]], state: State
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """What storing ``state`` writes of its history, against the ``saved`` lists (by key; a key missing: not known):
    the entries changed or added, as stored (``{"key", "number", "entry"}``; the others are the same objects,
    :func:`changed_entries`), and the length of each list that may have shrunk (its stored entries from there on go).
    Every entry of a list whose saved entries are not known."""
    writes: list[dict[str, Any]] = []
    trims: dict[str, int] = {}
    for key in history:
        new = state.get(key, [])
        old = saved.get(key)
        writes += [{"key": key, "number": i, "entry": new[i]} for i in changed_entries(old or [], new)]
        if old is None or len(old) > len(new):
            trims[key] = len(new)
    return writes, trims


# The engine's own table option, offered for every game: seconds per turn (0: no clock). The engine keeps it in the
# state as ``clock_seconds``; the server keeps the turn's deadline, and when it has passed anyone at the table may send
# ``{"type": "timeout"}``, which the engine applies as :meth:`Game.on_timeout` for the seat on turn.
CLOCK = Option(
    "clock_seconds",
    "Seconds per turn",
    "int",
    0,
    low=0,
    high=3600,
    help="0: no clock. When a turn's time runs out, the turn passes where the rules allow; otherwise you are alerted.",
)
ENGINE_OPTIONS = (CLOCK,)
TIMEOUT = "timeout"  # the engine's own action: a turn's time ran out


class Game:
    """Base class of every game's rules. Subclasses set the class attributes, declare their actions with
    :func:`~games.engine.actions.action` and implement ``_new``/``body``/``scores``/``status``/``_after_removal``;
    the engine does the dispatching, the copying and the envelope."""

    slug: ClassVar[str]
    title: ClassVar[str]
    language: ClassVar[str]  # lexicon language code: grc, spa, eng
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    renderer: ClassVar[str] = "generic"  # the page's renderer module: static/games/renderers/<renderer>.js
    stylesheet: ClassVar[str | None] = None  # a stylesheet of the game's own under static/games/, if any
    high_score_wins: ClassVar[bool] = True
    action_specs: ClassVar[dict[str, ActionSpec]] = {}
    # The action a seat on turn is taken to have sent when its time runs out (``None``: the teacher is alerted).
    timeout_action: ClassVar[str | None] = "pass"
    # A teacher's action that ends play by the rules' own end (Grabble: end the play and go to the quiz), which
    # ending a lesson may send; ``None``: the game has none (ending it means scoring it as it stands).
    end_action: ClassVar[str | None] = None
    # Actions whose rules may take long (a search, not a check): the server plays them off its event loop.
    long_actions: ClassVar[frozenset[str]] = frozenset()
    # Fields of views and events that name pieces by id: the contract suite looks there for hidden pieces.
    piece_fields: ClassVar[tuple[str, ...]] = ("id", "card", "cards", "tile", "tiles")
    # The body key of the game's record, a list with a row per turn that grows all game long (Grabble's score sheet),
    # or ``None``. The game supplies its rows (:meth:`record_row`, and :meth:`record_length` where they are not the
    # state's list of that name) and which rows a move may have changed (:meth:`changed_rows`); the engine puts them
    # in the body. A move's message carries only the changed rows (:meth:`views` with ``move`` and ``changed``) and a
    # page keeps the others, so that a move's message, and the work of making it, do not grow with the game
    # (docs/protocol.md, "What a move's message leaves out").
    record: ClassVar[str | None] = None
    # Body keys whose values never change during a game: they follow from the game, its options and its number of
    # players alone (Grabble's board size, keyboard and parse vocabulary: half of its early messages). A snapshot
    # carries them; a move's message leaves them out (:meth:`views` with ``move``) and the page keeps them from the
    # view it holds (docs/protocol.md, "What a move's message leaves out"). The contract suite checks every move.
    fixed: ClassVar[tuple[str, ...]] = ()
    # State keys of the game's history: lists that grow all game long (Grabble's plays, with every quiz answer) and
    # whose entries a move never changes in place. The rules' private copy shares their entries with the state it was
    # made from (:func:`private_copy`: copying a long game's history was most of its moves' cost), so a handler that
    # changes an entry first makes it its own (:func:`own_entry`). The contract suite checks that no move changes the
    # state it was given.
    history: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Collect the declared actions, a subclass's replacing its bases' of the same type (a variant overrides
        only what differs)."""
        super().__init_subclass__(**kwargs)
        specs: dict[str, ActionSpec] = {}
        for klass in reversed(cls.__mro__):
            for value in vars(klass).values():
                spec = getattr(value, "action_spec", None)
                if isinstance(spec, ActionSpec):
                    specs[spec.type] = spec
        cls.action_specs = specs

    # -- options -----------------------------------------------------------------------------
    def table_options(self) -> tuple[Option, ...]:
        """The game's own options and the engine's (the turn clock), as the start form offers them."""
        return (*self.options, *ENGINE_OPTIONS)

    def clean_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, every value checked; unknown names are an error, not ignored."""
        raw = dict(raw or {})
        known = {opt.name: opt for opt in self.table_options()}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise AppError("bad_option", f"Unknown option: {', '.join(unknown)}.")
        return {name: opt.clean(raw[name]) if name in raw else opt.default for name, opt in known.items()}

    # -- the protocol --------------------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> tuple[State, list[Event]]:
        if not self.min_players <= players <= self.max_players:
            raise AppError(
                "bad_players", f"{self.title} is for {self.min_players} to {self.max_players} players, not {players}."
            )
        cleaned = self.clean_options(options)
        engine = {opt.name for opt in ENGINE_OPTIONS}
        state, events = self._new(players, {k: v for k, v in cleaned.items() if k not in engine}, seed)
        if cleaned["clock_seconds"]:
            state["clock_seconds"] = cleaned["clock_seconds"]
        state["last_move"] = None
        return state, events

    def apply(self, state: State, seat: int | None, action: Action, ctx: Context) -> tuple[State, list[Event]]:
        """Apply ``action`` by ``seat`` (``None``: the teacher). Raises :class:`AppError`, and then the state
        given is untouched. ``{"type": "timeout"}`` is the engine's own: see :meth:`on_timeout`."""
        if isinstance(action, dict) and action.get("type") == TIMEOUT:
            return self._timeout(state, seat, action, ctx)
        spec = self.admit(state, seat, action)
        new_state = private_copy(state, self.history)
        events = getattr(self, spec.handler)(new_state, seat, action, ctx)
        new_state["last_move"] = self.last_move(new_state, seat, action, events)
        return new_state, events

    def preview(self, state: State, seat: int | None, action: Action, ctx: Context) -> dict[str, Any]:
        """What ``action`` would do, for its sender only: checked as :meth:`apply` checks it, never stored."""
        spec = self.admit(state, seat, action)
        if spec.preview is None:
            raise AppError(BAD_ACTION, f"{spec.type} has no preview.")
        result: dict[str, Any] = getattr(self, spec.preview)(private_copy(state, self.history), seat, action, ctx)
        return result

    def admit(self, state: State, seat: int | None, action: Any) -> ActionSpec:
        """The declaration of ``action`` once the engine has checked that ``seat`` may send it now; raises
        :class:`AppError` otherwise. Shape first (a malformed action is malformed whatever the state), then
        the game's state: over, phase, actor, and the action's own ``allowed`` check."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise AppError(BAD_ACTION, "An action needs a type.")
        spec = self.action_specs.get(action["type"])
        if spec is None:
            raise AppError(BAD_ACTION, f"Unknown action {action['type'][:40]!r}.")
        spec.check_fields(action)
        status = self.status(state)
        if status.finished:
            raise AppError(GAME_OVER, "The game is over.")
        self._check_open(spec, state, seat, status)
        return spec

    def _check_open(self, spec: ActionSpec, state: State, seat: int | None, status: Status) -> None:
        """Raise the refusal if ``spec`` is not open to ``seat`` now (phase, actor, turn, then the game's own
        ``allowed`` check)."""
        code = self._closed_by(spec, state, seat, status)
        if code is not None:
            raise _refusal(code, spec, seat)
        if spec.allowed is not None:
            getattr(self, spec.allowed)(state, seat)

    def _is_open(self, spec: ActionSpec, state: State, seat: int | None, status: Status) -> bool:
        """:meth:`_check_open` as a yes or no. The engine's own checks make no error to throw away: a view asks
        this of every action for every seat, on every move."""
        if self._closed_by(spec, state, seat, status) is not None:
            return False
        if spec.allowed is not None:
            try:
                getattr(self, spec.allowed)(state, seat)
            except AppError:
                return False
        return True

    def _closed_by(self, spec: ActionSpec, state: State, seat: int | None, status: Status) -> str | None:
        """The code of the engine's refusal of ``spec`` to ``seat`` now (phase, actor, turn), or ``None``."""
        if not spec.in_phase(status.phase):
            return WRONG_PHASE
        if seat is None:
            return None if spec.actor in (TEACHER, ANYONE) else NOT_ALLOWED
        if spec.actor == TEACHER:
            return TEACHER_ONLY
        if seat not in active_seats(state):
            return NOT_ALLOWED
        if spec.actor == TURN and seat not in status.to_act:
            return NOT_YOUR_TURN
        return None

    def actions(self, state: State, seat: int | None, status: Status | None = None) -> list[dict[str, Any]]:
        """What ``seat`` (``None``: the teacher) may do now, each with its fields and, where the game gives them,
        their legal values. Exactly the actions :meth:`apply` would not refuse for their type and actor."""
        status = self.status(state) if status is None else status
        if status.finished:
            return []
        offered = []
        for spec in self.action_specs.values():
            if not self._is_open(spec, state, seat, status):
                continue
            choices = getattr(self, spec.choices)(state, seat) if spec.choices else {}
            offered.append(spec.describe(choices))
        return offered

    # -- the turn clock ----------------------------------------------------------------------------------------
    def _timeout(self, state: State, seat: int | None, action: Action, ctx: Context) -> tuple[State, list[Event]]:
        """A turn's time ran out (the server checked the deadline; the action may carry the ``seq`` it was for)."""
        if set(action) - {"type", "seq"} or not isinstance(action.get("seq", 0), int):
            raise AppError(BAD_ACTION, "timeout takes only the seq it is for.")
        if not state.get("clock_seconds"):
            raise AppError(NOT_ALLOWED, "This table has no turn clock.")
        status = self.status(state)
        if status.finished:
            raise AppError(GAME_OVER, "The game is over.")
        if seat is not None and seat not in active_seats(state):
            raise AppError(NOT_ALLOWED, "That seat is not in the game.")
        if not status.to_act:
            raise AppError(CANNOT_TIME_OUT, "Nobody is on turn: the clock is not running.")
        on_turn = status.to_act[0]
        new_state = private_copy(state, self.history)
        events = self.on_timeout(new_state, on_turn, ctx)
        new_state["last_move"] = {"seat": on_turn, "type": TIMEOUT, "text": "ran out of time"}
        return new_state, events

    def on_timeout(self, state: State, seat: int, ctx: Context) -> list[Event]:
        """The time of ``seat``'s turn ran out: mutate the private copy ``state`` and return the events. The
        default sends the game's :attr:`timeout_action` (its pass) for them when the rules offer it now, and refuses
        with ``cannot_time_out`` otherwise (the server then alerts the teacher)."""
        name = self.timeout_action
        spec = self.action_specs.get(name) if name else None
        if spec is None or spec.fields or not self._is_open(spec, state, seat, self.status(state)):
            raise AppError(CANNOT_TIME_OUT, "The rules have no pass for this turn: the teacher decides.")
        events: list[Event] = getattr(self, spec.handler)(state, seat, {"type": spec.type}, ctx)
        return events

    # -- seating during a game -----------------------------------------------------------------------------
    def can_seat(self, state: State, seat: int | None) -> bool:
        """May a new player sit down now: in ``seat`` (a removed player's, taking over what it holds) or, with
        ``None``, in a new seat? The default refuses both; games that allow it override :meth:`_seat_player`
        and this."""
        return False

    def add_player(self, state: State, seat: int | None, ctx: Context) -> tuple[State, list[Event], int]:
        """Seat a new player (see :meth:`can_seat`); returns the new state, the events and the seat number. A seat
        taken over is back in the game at once; a new seat may wait (``waiting`` in the state: out of the turn
        order) until the rules deal it in."""
        if self.status(state).finished:
            raise AppError(GAME_OVER, "The game is over.")
        if not self.can_seat(state, seat):
            where = "a new seat" if seat is None else f"seat {seat}"
            raise AppError(CANNOT_SEAT, f"{self.title} cannot seat a player in {where} now.")
        new_state = private_copy(state, self.history)
        if seat is not None:
            new_state["removed"] = [s for s in new_state.get("removed", []) if s != seat]
        number, events = self._seat_player(new_state, seat, ctx)
        new_state["last_move"] = {"seat": number, "type": "seated", "text": "sat down at the table"}
        return new_state, events, number

    def _seat_player(self, state: State, seat: int | None, ctx: Context) -> tuple[int, list[Event]]:
        """Fix up the state for the player now in ``seat`` (``None``: add a seat); returns the seat and events."""
        raise AppError(CANNOT_SEAT, f"{self.title} cannot seat a player during the game.")

    def remove_player(self, state: State, seat: int, ctx: Context) -> tuple[State, list[Event]]:
        """The teacher removed the player in ``seat``: the default skips their seat from now on."""
        new_state = private_copy(state, self.history)
        removed = new_state.setdefault("removed", [])
        if seat not in removed:
            removed.append(seat)
        events = self._after_removal(new_state, seat, ctx)
        new_state["last_move"] = {"seat": seat, "type": "removed", "text": "was taken out of the game by the teacher"}
        return new_state, events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The envelope every page reads, then the game's own ``body`` (what ``seat`` may see; ``None``: a
        spectator or the teacher)."""
        return self.views(state, [seat])[seat]

    def views(
        self,
        state: State,
        seats: Iterable[int | None],
        changed: Collection[int] | None = None,
        *,
        move: bool = False,
    ) -> dict[int | None, dict[str, Any]]:
        """:meth:`view` for each of ``seats``; what every viewer shares (the status, the scores) is worked out once.
        ``move``: the views of a move's message, for pages that hold the view before the move. Their bodies leave
        out the :attr:`fixed` keys, and with ``changed`` (the rows of the :attr:`record` the move changed, from
        :meth:`changed_rows`) each body's record is ``{"length": n, "rows": {"i": row}}``: only those rows (the page
        keeps the others, and drops any from ``length`` on)."""
        status = self.status(state)
        scores = self.scores(state)
        shared = {
            "game": self.slug,
            "players": state["players"],
            "removed": list(state.get("removed", [])),
            "waiting": waiting_seats(state),
            "clock_seconds": state.get("clock_seconds", 0),
            "phase": status.phase,
            "to_act": list(status.to_act),
            "awaiting_teacher": status.awaiting_teacher,
            "summary": status.summary,
            "scores": scores.as_json(),
            "finished": status.finished,
            "winners": self.winners(state, scores) if status.finished else [],
            "last_move": state.get("last_move"),
            "record": self.record,
            "fixed": list(self.fixed),
        }
        common = self.common_body(state)
        left_out = self.fixed if move else ()
        found = {}
        for seat in seats:
            body = {**common, **self.body(state, seat)}
            for key in left_out:
                del body[key]
            if self.record is not None:
                body[self.record] = self._record_for(state, seat, changed if move else None)
            # Each view its own copy of the shared lists: a caller may change one view (the server empties a paused
            # table's actions) without touching another.
            found[seat] = {
                **shared,
                "seat": seat,
                "removed": list(shared["removed"]),
                "to_act": list(shared["to_act"]),
                "fixed": list(shared["fixed"]),
                "actions": self.actions(state, seat, status),
                "body": body,
            }
        return found

    def _record_for(self, state: State, seat: int | None, changed: Collection[int] | None) -> Any:
        length = self.record_length(state)
        if changed is None:
            return [self.record_row(state, i, seat) for i in range(length)]
        rows = {str(i): self.record_row(state, i, seat) for i in sorted(changed) if i < length}
        return {"length": length, "rows": rows}

    def record_length(self, state: State) -> int:
        """How many rows the :attr:`record` has now: by default, the length of the state's list of the same name (a
        game whose record is made from another list, as Grabble's sheet from its plays, says so)."""
        assert self.record is not None
        return len(state[self.record])

    def record_row(self, state: State, index: int, seat: int | None) -> dict[str, Any]:
        """Row ``index`` of the :attr:`record` as ``seat`` may see it. It depends on ``state`` only through what
        :meth:`changed_rows` compares."""
        raise NotImplementedError

    def changed_rows(self, before: State, after: State) -> list[int] | None:
        """The rows of the :attr:`record` that a move from ``before`` to ``after`` may have changed for some viewer
        (rows from the old length on included); ``None``: any of them. The contract suite checks every move's."""
        return None

    def winners(self, state: State, scores: Scores) -> list[int]:
        """The seats still in the game with the best total (highest, or lowest where lowest wins)."""
        seats = active_seats(state) or list(range(state["players"]))
        best = (max if self.high_score_wins else min)(scores.total[s] for s in seats)
        return [s for s in seats if scores.total[s] == best]

    def last_move(self, state: State, seat: int | None, action: Action, events: list[Event]) -> dict[str, Any]:
        """A short public summary of the move just made, for every viewer: who, what, and a line of text built
        only from what everyone may see. Games override :meth:`describe_move` for a better line."""
        public = [censor(ev, None) for ev in events]
        return {"seat": seat, "type": action["type"], "text": self.describe_move(state, seat, action, public)}

    def describe_move(self, state: State, seat: int | None, action: Action, public_events: list[Event]) -> str:
        return action["type"].replace("_", " ")

    def body(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see of the game beyond the envelope. Must hide everything hidden from them."""
        raise NotImplementedError

    def common_body(self, state: State) -> dict[str, Any]:
        """The part of the body that every viewer sees alike (a board, say), made once for all the viewers of a move
        instead of once for each; :meth:`body` adds each viewer's own part (a key in both is the viewer's). The
        viewers' bodies share its values: nothing may change them."""
        return {}

    def scores(self, state: State) -> Scores:
        raise NotImplementedError

    def status(self, state: State) -> Status:
        raise NotImplementedError

    def places(self, state: State) -> dict[str, list[int]]:
        """Where every piece (card, tile) is, by id: each id in exactly one place, the same ids all game long.
        The contract suite checks both; games without pieces return nothing."""
        return {}

    def visible_pieces(self, state: State, seat: int | None) -> set[int]:
        """The ids of the pieces ``seat`` may see now (``None``: a spectator). The contract suite checks that no
        view or event sent to ``seat`` names any other piece."""
        return set()

    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        """The words each seat met in one move, from that move's (uncensored) ``events``; ``state`` is the table's
        state when the move is recorded, which may be later than the move. Games without words return nothing."""
        return []

    # -- hooks for subclasses --------------------------------------------------------------------
    def _new(self, players: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event]]:
        raise NotImplementedError

    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        """Fix up the state after ``seat`` left (e.g. pass the turn on); returns the events."""
        raise NotImplementedError
