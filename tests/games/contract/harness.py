"""The perft-style harness every game runs through: random games played only from the view envelope's ``actions``.

A game registered in ``games.rules.GAMES`` is played here with no strategy of its own: each step a random actor
(a seat still in the game, or the teacher) picks one of the actions its view offers and fills its fields from the
legal values the view lists, or from :mod:`.cases` where a game gives better values, or at random. After every
step the contract's invariants are checked (see :func:`check_step`), and at the end the game is replayed from its
log. A game registered tomorrow gets all of this by registering.
"""

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games.engine import AppError, Context, Event, Game, State, censor_all
from games.engine.errors import BAD_ACTION
from games.engine.game import history_writes, state_change, stored_state, whole_state, with_state_change
from games.engine.turns import active_seats

from .cases import Case


@dataclass
class Played:
    """One random game: its seed, players and options, and every accepted move as (seat, action) or a removal."""

    rules: Game
    players: int
    options: dict[str, Any]
    seed: int
    state: State
    log: list[tuple[str, int | None, dict[str, Any]]] = field(default_factory=list)
    score_events: list[int] = field(default_factory=list)
    refused: int = 0
    accepted: int = 0
    # Every viewer's view of ``state`` as its page holds it (JSON): what a move's message is completed from.
    views: dict[int | None, Any] = field(default_factory=dict)


def piece_ids(rules: Game, obj: Any) -> Iterator[int]:
    """Every id named under the game's piece fields anywhere in a JSON value."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in rules.piece_fields:
                    if isinstance(value, int) and not isinstance(value, bool):
                        yield value
                    elif isinstance(value, list):
                        yield from (v for v in value if isinstance(v, int) and not isinstance(v, bool))
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)


def fill(spec: dict[str, Any], case: Case, rules: Game, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An action of the offered ``spec`` with values: the game's case's, else a legal value listed, else random."""
    chosen = case.choose(rules, view, spec, rng) if case.choose else None
    if chosen is not None:
        return chosen
    action: dict[str, Any] = {"type": spec["type"]}
    for f in spec["fields"]:
        if not f["required"] and rng.random() < 0.3:
            continue
        if f.get("choices"):
            action[f["name"]] = rng.choice(f["choices"])
        else:
            action[f["name"]] = random_value(f["type"], rng, list(piece_ids(rules, view["body"])))
    return action


def random_value(kind: str, rng: random.Random, seen_ids: list[int]) -> Any:
    if kind == "int":
        return rng.choice(seen_ids) if seen_ids and rng.random() < 0.7 else rng.randint(-1, 12)
    if kind == "str":
        return rng.choice(["", "a", "ΛΟΓΟΣ", "casa", "word"])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int_list":
        return rng.sample(seen_ids, k=min(len(seen_ids), rng.randint(0, 3))) if seen_ids else []
    if kind == "list":
        return []
    return {}


def new_played(rules: Game, case: Case, rng: random.Random) -> Played:
    for _ in range(50):  # some options need some player counts (Palabra's simultaneous play six or more): draw again
        players = rng.choice(case.players or list(range(rules.min_players, min(rules.max_players, 5) + 1)))
        options = rng.choice(case.options) if case.options else {}
        seed = rng.randrange(2**31)
        try:
            state, events = rules.new_game(players, options, seed)
        except AppError:
            continue
        break
    else:
        raise AssertionError("no player count of the case fits its options")
    played = Played(rules, players, options, seed, state)
    played.score_events = totals(events, players)
    check_state(played, state, events, before=None)
    return played


def totals(events: list[Event], players: int, into: list[int] | None = None) -> list[int]:
    into = list(into) if into is not None else [0] * players
    for ev in events:
        if ev["type"] == "score":
            into[ev["seat"]] += ev["points"]
    return into


def step(played: Played, case: Case, rng: random.Random, ctx: Context) -> bool:
    """One random move (or removal); False when nobody can act any more."""
    rules, state = played.rules, played.state
    actors: list[int | None] = [*active_seats(state), None]
    offers = {actor: rules.view(state, actor)["actions"] for actor in actors}
    able = [actor for actor in actors if offers[actor]]
    if not able:
        return False
    if case.removals and rng.random() < 0.01 and len(active_seats(state)) > rules.min_players:
        seat = rng.choice(active_seats(state))
        before = json.dumps(state, sort_keys=True)
        new_state, events = rules.remove_player(state, seat, ctx)
        assert json.dumps(state, sort_keys=True) == before, "removal mutated the state it was given"
        accept(played, ("remove", seat, {}), new_state, events)
        return True
    actor = rng.choice(able)
    view = rules.view(state, actor)
    offered = {spec["type"] for spec in view["actions"]}
    check_refusals(played, actor, offered, case, rng, ctx)
    spec = rng.choice(view["actions"])
    action = fill(spec, case, rules, view, rng)
    junk = {**action, "zz_not_a_field": "x" * 50}
    refuse(played, actor, junk, ctx, BAD_ACTION)
    before = json.dumps(state, sort_keys=True)
    try:
        new_state, events = rules.apply(state, actor, action, ctx)
    except AppError as error:
        assert error.code, "a refusal has a code"
        assert error.message, "a refusal says why"
        assert json.dumps(state, sort_keys=True) == before, "a refused action changed the state"
        played.refused += 1
        return True
    assert json.dumps(state, sort_keys=True) == before, "apply mutated the state it was given"
    check_key_order(played, state, actor, action, ctx, new_state, events)
    accept(played, ("action", actor, action), new_state, events)
    return True


def check_key_order(
    played: Played,
    state: State,
    actor: int | None,
    action: dict[str, Any],
    ctx: Context,
    new_state: State,
    events: list[Event],
) -> None:
    """The rules decide the same from the state as stored: PostgreSQL orders an object's keys its own way (shorter
    first), and a process may play the next move on the state its own move made, in the order the rules made it."""
    stored = json.loads(json.dumps(_reordered(state)))
    again, again_events = played.rules.apply(stored, actor, action, ctx)
    assert json.dumps(again, sort_keys=True) == json.dumps(new_state, sort_keys=True), "the keys' order decided"
    assert json.dumps(again_events, sort_keys=True) == json.dumps(events, sort_keys=True), "the keys' order decided"


def _reordered(value: Any) -> Any:
    """``value`` with every object's keys as PostgreSQL's jsonb orders them (by length, then by their bytes)."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
        return {k: _reordered(value[k]) for k in keys}
    if isinstance(value, list):
        return [_reordered(v) for v in value]
    return value


def check_refusals(
    played: Played, actor: int | None, offered: set[str], case: Case, rng: random.Random, ctx: Context
) -> None:
    """An action type the view does not offer this actor is refused, with the state unchanged."""
    rules = played.rules
    for kind in sorted(set(rules.action_specs) - offered):
        spec = rules.action_specs[kind].describe({})
        action = {"type": kind}
        for f in spec["fields"]:
            action[f["name"]] = random_value(f["type"], rng, [])
        refuse(played, actor, action, ctx)


def refuse(played: Played, actor: int | None, action: dict[str, Any], ctx: Context, code: str | None = None) -> None:
    before = json.dumps(played.state, sort_keys=True)
    try:
        played.rules.apply(played.state, actor, action, ctx)
    except AppError as error:
        assert code is None or error.code == code, (action, error)
    else:
        raise AssertionError(f"{action} by {actor} should have been refused")
    assert json.dumps(played.state, sort_keys=True) == before


def accept(played: Played, move: tuple[str, int | None, dict[str, Any]], state: State, events: list[Event]) -> None:
    before = played.state
    played.state = state
    played.log.append(move)
    played.accepted += 1
    played.score_events = totals(events, played.players, played.score_events)
    check_state(played, state, events, before)
    check_state_change(played.rules, before, state)


def check_state_change(rules: Game, before: State, state: State) -> None:
    """Another process holding ``before`` makes the state from the move's change alone, as sent (JSON)."""
    if not rules.history:
        return
    change = json.loads(json.dumps(state_change(rules.history, before, state)))
    assert json.dumps(with_state_change(before, change), sort_keys=True) == json.dumps(state, sort_keys=True)
    # Stored apart (games.models.HistoryEntry): the entries held for ``before``, with the move's writes, and the
    # state's column make the state.
    held = {key: list(before[key]) for key in rules.history if key in before}
    writes, trims = history_writes(rules.history, held, state)
    stored = {key: [json.loads(json.dumps(e)) for e in entries] for key, entries in held.items()}
    for key, length in trims.items():
        del stored.setdefault(key, [])[length:]
    for row in writes:
        entries = stored.setdefault(row["key"], [])
        entries[row["number"] : row["number"] + 1] = [json.loads(json.dumps(row["entry"]))]
    column = json.loads(json.dumps(stored_state(state, rules.history)))
    made = whole_state(column, rules.history, stored)
    assert json.dumps(made, sort_keys=True) == json.dumps(state, sort_keys=True)


def check_state(played: Played, state: State, events: list[Event], before: State | None) -> None:
    """The invariants after every move."""
    rules = played.rules
    assert json.loads(json.dumps(state)) == state, "the state is JSON"
    # A process keeps the state its move made for its next move, after the move's views were made from it.
    unchanged = json.dumps(state, sort_keys=True)
    places = rules.places(state)
    everywhere = Counter(i for ids in places.values() for i in ids)
    doubled = [i for i, n in everywhere.items() if n > 1]
    assert not doubled, f"pieces in two places: {doubled}"
    if before is not None:
        assert sorted(everywhere) == sorted(i for ids in rules.places(before).values() for i in ids), "pieces conserved"
    assert rules.scores(state).total == played.score_events, "every score is the sum of its score events"
    views = {}
    for seat in [*range(state["players"]), None]:
        view = rules.view(state, seat)
        views[seat] = json.loads(json.dumps(view))
        assert views[seat] == view
        seen = set(rules.visible_pieces(state, seat))
        leaked = set(piece_ids(rules, view["body"])) - seen
        assert not leaked, f"seat {seat}'s view shows hidden pieces {sorted(leaked)}"
        earlier = set(rules.visible_pieces(before, seat)) if before is not None else set()
        leaked = set(piece_ids(rules, censor_all(events, seat))) - seen - earlier
        assert not leaked, f"seat {seat}'s events show hidden pieces {sorted(leaked)}"
    if before is not None and (rules.record is not None or rules.fixed):
        check_completion(rules, before, state, played.views, views)
    assert json.dumps(state, sort_keys=True) == unchanged, "a view changed the state"
    played.views = views


def check_completion(
    rules: Game, before: State, state: State, held: dict[int | None, Any], views: dict[int | None, Any]
) -> None:
    """A move's message leaves out the game's fixed parts and the record's rows the game says it did not change: every
    viewer's page, completing it from the view it ``held`` before the move (as static/games/completion.js does),
    holds exactly the view after it."""
    sent = rules.views(state, list(views), rules.changed_rows(before, state), move=True)
    for seat, view in views.items():
        assert not set(rules.fixed) & set(sent[seat]["body"]), "a move's message carries the fixed parts"
        if seat not in held:
            continue  # a seat this move added: its page starts from a snapshot
        completed = completed_view(held[seat], json.loads(json.dumps(sent[seat])))
        assert completed == view, f"seat {seat}'s view, completed, is not the whole view"


def completed_view(previous: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The page's completion of ``view`` from ``previous`` (static/games/completion.js)."""
    body = {**view["body"]}
    for key in view["fixed"]:
        assert previous["game"] == view["game"], "a view of another game"
        body.setdefault(key, previous["body"][key])
    key = view["record"]
    change = body.get(key) if key is not None else None
    if change is None or isinstance(change, list):
        return {**view, "body": body}
    rows = previous["body"][key][: change["length"]]
    for index, row in sorted(change["rows"].items(), key=lambda item: int(item[0])):
        if int(index) < len(rows):
            rows[int(index)] = row
        else:
            assert int(index) == len(rows), "a new row after a gap"
            rows.append(row)
    assert len(rows) == change["length"], "rows missing at the end of the record"
    return {**view, "body": {**body, key: rows}}


def replay(played: Played, ctx: Context) -> State:
    """The game rebuilt from its seed, options and log alone."""
    rules = played.rules
    state, _ = rules.new_game(played.players, played.options, played.seed)
    for kind, seat, action in played.log:
        if kind == "remove":
            assert seat is not None
            state, _ = rules.remove_player(state, seat, ctx)
        else:
            state, _ = rules.apply(state, seat, action, ctx)
    return state
