"""Action declarations: which actions a game has, in which phases, for whom, with which fields.

A game declares each action on its handler with :func:`action`::

    @action("discard", phases=("discard",), actor=TURN, fields=(Field("card", INT),), choices="_discard_choices")
    def _discard(self, state, seat, action, ctx) -> list[Event]: ...

The engine (:class:`games.engine.Game`) owns dispatch: before a handler runs it refuses, with the state untouched,
an unknown type, unknown or missing fields, fields of the wrong type or over their limit, a finished game, the
wrong phase, the wrong actor, and whatever the action's ``allowed`` check refuses. The same declarations build the
``actions`` of every view, so what a page offers and what the engine accepts are one thing.

Actors:

- ``TURN``: a seat the game is waiting for now (``Status.to_act``: the player on turn, the voters of a vote…);
- ``PLAYER``: any seat still in the game, on turn or not (Grabble's suggestions, Pablo's matches);
- ``TEACHER``: the teacher, who has no seat (``seat=None``);
- ``ANYONE``: any seat still in the game, or the teacher.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import BAD_ACTION, AppError

TURN = "turn"
PLAYER = "player"
TEACHER = "teacher"
ANYONE = "anyone"
ACTORS = (TURN, PLAYER, TEACHER, ANYONE)

ANY_PHASE = ("*",)  # an action open in every phase of a game not yet over

# Field types, as they travel in JSON.
INT = "int"
STR = "str"
BOOL = "bool"
INTS = "int_list"  # a list of whole numbers (card or tile ids, seats)
LIST = "list"  # a list of JSON values, checked in depth by the handler
OBJECT = "object"  # a JSON object, checked in depth by the handler
TYPES = (INT, STR, BOOL, INTS, LIST, OBJECT)

# Limits on what one field may hold, checked before any rule runs (a page never needs more).
MAX_STR = 200
MAX_ITEMS = 64
MAX_DEPTH = 6
MAX_NODES = 2_000


@dataclass(frozen=True)
class Field:
    """One field of an action: its name, JSON type, whether it must be given, and its limits."""

    name: str
    type: str
    required: bool = True
    max_length: int = MAX_STR  # characters of a str
    max_items: int = MAX_ITEMS  # items of a list
    help: str = ""

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"unknown field type {self.type!r}")

    def check(self, action_type: str, value: Any) -> None:
        """Refuse ``value`` unless it has this field's type and fits its limits."""
        where = f"{action_type}: {self.name}"
        if self.type == INT:
            _need(_is_int(value), f"{where} must be a whole number.")
        elif self.type == BOOL:
            _need(isinstance(value, bool), f"{where} must be true or false.")
        elif self.type == STR:
            _need(isinstance(value, str), f"{where} must be text.")
            _need(len(value) <= self.max_length, f"{where} is longer than {self.max_length} characters.")
            _need(clean_text(value), f"{where} holds a character that is not allowed.")
        elif self.type == INTS:
            _need(isinstance(value, list) and all(_is_int(v) for v in value), f"{where} must be a list of numbers.")
            _need(len(value) <= self.max_items, f"{where} has more than {self.max_items} items.")
        elif self.type == LIST:
            _need(isinstance(value, list), f"{where} must be a list.")
            _need(len(value) <= self.max_items, f"{where} has more than {self.max_items} items.")
            _check_json(where, value)
        else:
            _need(isinstance(value, dict), f"{where} must be an object.")
            _check_json(where, value)

    def describe(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"name": self.name, "type": self.type, "required": self.required}
        if self.help:
            shown["help"] = self.help
        return shown


@dataclass(frozen=True)
class ActionSpec:
    """What the engine knows of one action type. ``handler``, ``allowed``, ``choices`` and ``preview`` name methods
    of the game:

    - ``handler(state, seat, action, ctx) -> list[Event]`` mutates a private copy of the state;
    - ``allowed(state, seat) -> None`` raises :class:`AppError` when the action is not open to ``seat`` now (no
      hints left, an empty pile): it decides both what ``actions`` offers and what the engine refuses;
    - ``choices(state, seat) -> dict[field, list]``: the legal values of fields, where cheap to compute;
    - ``preview(state, seat, action, ctx) -> dict``: what the action would do (words formed, a score), answered to
      the sender only, never stored.
    """

    type: str
    phases: tuple[str, ...]
    actor: str
    handler: str
    fields: tuple[Field, ...] = ()
    label: str = ""
    allowed: str | None = None
    choices: str | None = None
    preview: str | None = None

    def __post_init__(self) -> None:
        if self.actor not in ACTORS:
            raise ValueError(f"unknown actor {self.actor!r}")
        if not self.phases:
            raise ValueError(f"{self.type}: name its phases (or ANY_PHASE)")

    def in_phase(self, phase: str) -> bool:
        return self.phases == ANY_PHASE or phase in self.phases

    def check_fields(self, action: dict[str, Any]) -> None:
        known = {f.name for f in self.fields}
        unknown = sorted(str(name) for name in action if name != "type" and name not in known)
        _need(not unknown, f"{self.type} does not take {', '.join(unknown)}.")
        for f in self.fields:
            if f.name in action and not (action[f.name] is None and not f.required):
                f.check(self.type, action[f.name])
            else:
                _need(not f.required, f"{self.type} needs {f.name}.")

    def describe(self, choices: dict[str, Any]) -> dict[str, Any]:
        """The action as a view offers it: type, label and fields, with legal values where the game gives them."""
        fields = []
        for f in self.fields:
            shown = f.describe()
            if f.name in choices:
                shown["choices"] = choices[f.name]
            fields.append(shown)
        return {"type": self.type, "label": self.label or self.type.replace("_", " "), "fields": fields}


F = TypeVar("F", bound=Callable[..., Any])


def action(
    type_: str,
    *,
    phases: tuple[str, ...],
    actor: str,
    fields: tuple[Field, ...] = (),
    label: str = "",
    allowed: str | None = None,
    choices: str | None = None,
    preview: str | None = None,
) -> Callable[[F], F]:
    """Declare the decorated method as the handler of action ``type_`` (see :class:`ActionSpec`)."""

    def declare(handler: F) -> F:
        spec = ActionSpec(type_, phases, actor, handler.__name__, fields, label, allowed, choices, preview)
        handler.action_spec = spec  # type: ignore[attr-defined]
        return handler

    return declare


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise AppError(BAD_ACTION, message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -(2**31) <= value < 2**31


def clean_text(text: str) -> bool:
    """No NUL (the database refuses it) and no lone surrogate (it cannot be stored or sent as UTF-8: encoding finds
    one at C speed, where a loop over the characters took most of a quiz answer's check)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_json(where: str, value: Any) -> None:
    """A nested field stays small, shallow and storable: bounded nodes and depth, clean text, finite numbers."""
    nodes = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        nodes += 1
        _need(nodes <= MAX_NODES, f"{where} is too large.")
        _need(depth <= MAX_DEPTH, f"{where} is nested too deeply.")
        if isinstance(item, dict):
            _need(all(isinstance(k, str) and clean_text(k) for k in item), f"{where} has a bad key.")
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, str):
            _need(len(item) <= MAX_STR and clean_text(item), f"{where} holds text that is too long or not allowed.")
        elif isinstance(item, float):
            _need(math.isfinite(item), f"{where} holds a number that is not finite.")
        else:
            _need(item is None or isinstance(item, (bool, int)), f"{where} holds a value of an unknown kind.")
