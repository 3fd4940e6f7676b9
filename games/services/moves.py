"""Playing at a table: applying an action, previewing one, and the move log with its broadcasts.

An action is applied in one transaction: the table row is locked, the version checked, the pure rules run, the move
appended and the new state saved. Only after the commit are the events broadcast, each recipient getting their own
censored copy and their own view (the teacher watches as a spectator). A table has one channel-layer group: its
message carries every seat's censored copy, serialised once as the text its pages receive, and each connection
forwards only its own seat's to its browser, so no
browser ever receives what it may not see, while a move costs one group send instead of one per seat (each costs
channels-redis four Redis commands on the sender's event loop; bench/live measured them). Broadcasts are best
effort (:mod:`config.transport`) — the database is the truth and a client that misses one resyncs by sequence
number.

The websocket consumer plays a student's move on its event loop (:mod:`games.services.loop_moves`, with this
module's :func:`play`, :func:`advance` and :func:`after_commit`), or, where it must, through
:func:`apply_action_deferred`: the same transaction, but the committed move's broadcasts come back to it to be sent
from its event loop, instead of being sent one by one from the database thread while that thread (which every table
of the server process shares) waits on Redis.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from config import transport
from config.transport import Deferred
from games import selectors
from games.engine import Action, AppError, Context, Event, Game, WordList, censor_all
from games.engine.errors import CANNOT_TIME_OUT
from games.engine.game import TIMEOUT
from games.models import Move, Seat, Table
from games.services import table_rows
from games.services.table_rows import NOT_FOUND
from learning import services as learning_services
from learning.models import User
from lexicons import services as lexicon_services

# Our own error codes (the rules' codes pass through unchanged).
FORBIDDEN = "forbidden"
STALE = "stale"
PAUSED = "paused"
FINISHED = "finished"
BAD_ACTION = "bad_action"


def run_rules(
    play: Callable[[Context], tuple[dict[str, Any], list[Event]]], lexicon_id: int | None, now: datetime
) -> tuple[dict[str, Any], list[Event]]:
    """Run one rules call with the table's lexicon (their refusals are :class:`AppError` already)."""
    return _run_rules(play, selectors.word_list_for(lexicon_id), now)


def _run_rules(
    play: Callable[[Context], tuple[dict[str, Any], list[Event]]], words: WordList | None, now: datetime
) -> tuple[dict[str, Any], list[Event]]:
    try:
        return play(Context(words, now.timestamp()))
    except lexicon_services.LexiconNotReady:
        raise AppError("lexicon_not_ready", "The table's lexicon is being imported; try again shortly.") from None


# -- playing ---------------------------------------------------------------------------------------------------
def apply_action_deferred(
    table_id: int, user: User, action: Action, expected_version: int | None = None
) -> tuple[Move, Deferred]:
    """:func:`apply_action` for the websocket consumer: the broadcasts are prepared on commit as usual but handed
    back instead of sent; the caller sends them with :func:`send_deferred`. Nothing comes back for an action that
    failed (it raises). Inside a caller's own transaction nothing is deferred: that commit is not ours to wait for."""
    if transaction.get_connection().in_atomic_block:
        return apply_action(table_id, user, action, expected_version), Deferred()
    try:
        with transport.deferring() as deferred:
            move = apply_action(table_id, user, action, expected_version)
    except AppError:
        # A refusal may follow a commit of its own (the turn clock's alert to the teacher), whose broadcasts nobody
        # would send: they go now.
        transport.send_now(deferred)
        raise
    return move, deferred


async def send_deferred(deferred: Deferred) -> None:
    """Send a deferred move's broadcasts from the event loop, then publish its recording job."""
    await transport.send_deferred(deferred)


def apply_action(table_id: int, user: User, action: Action, expected_version: int | None = None) -> Move:
    """Apply ``action`` by ``user`` (a seated student, or the class's teacher acting as moderator) to the table.

    Raises :class:`AppError` (ours, or the rules' codes unchanged) and then nothing has changed.
    ``expected_version``: refuse with ``stale`` unless the table is still at that sequence number.
    """
    return _apply(table_id, partial(acting_seat, user=user), user, action, expected_version)


def apply_robot_action(table_id: int, seat: int | None, action: Action, expected_version: int) -> Move:
    """:func:`apply_action` for the robot in ``seat`` (``games.services.robots``): the same checks, the same log,
    the same broadcasts, with no user behind it. ``seat=None``: the teacher's stand-in at a practice table."""

    def robot_seat(table: Table, seats: list[Seat]) -> int | None:
        if seat is None:
            if not table.lesson.practice:
                raise AppError(FORBIDDEN, "Only a practice table has no teacher.")
            return None
        if not any(s.number == seat and s.robot and not s.removed for s in seats):
            raise AppError(FORBIDDEN, "No robot plays in that seat.")
        return seat

    return _apply(table_id, robot_seat, None, action, expected_version)


def _apply(
    table_id: int,
    seat_of: Callable[[Table, list[Seat]], int | None],
    user: User | None,
    action: Action,
    expected_version: int | None,
) -> Move:
    check_shape(action)
    alert: AppError | None = None
    with table_rows.move_transaction():
        table, seats = table_rows.locked_with_seats(table_id)
        try:
            played = play(table, seats, seat_of, action, expected_version, selectors.word_list_for(table.lexicon_id))
        except AppError as error:
            if error.code != CANNOT_TIME_OUT:
                raise
            alert = error  # the turn cannot pass by the rules: stop the clock and tell the teacher (committed)
            table.turn_deadline, table.timed_out = None, True
            table.save(update_fields=["turn_deadline", "timed_out", "updated"])
            broadcast_refresh(table)
        else:
            move = advance(table, played, kind=Move.Kind.ACTION, actor=user, action=action)
            _save(table, played.rules, move, selectors.players(table, seats))
            return move
    raise alert or AppError(CANNOT_TIME_OUT, "The turn cannot pass.")


def check_shape(action: Action) -> None:
    if not isinstance(action, dict):
        raise AppError(BAD_ACTION, "An action must be a JSON object with a type.")


@dataclass(frozen=True)
class Played:
    """What the rules made of a change at the locked table (an action, a removal, a new player): the new state and
    its events, by ``seat`` at ``now``, not yet saved."""

    rules: Game
    state: dict[str, Any]
    events: list[Event]
    seat: int | None
    now: datetime


def play(
    table: Table,
    seats: list[Seat],
    seat_of: Callable[[Table, list[Seat]], int | None],
    action: Action,
    expected_version: int | None,
    words: WordList | None,
) -> Played:
    """Every check of an action at ``table`` (read under its lock, with its ``seats``), then its rules with the word
    list ``words``; raises :class:`AppError` and then nothing has changed. Whichever thread or loop plays it."""
    seat = seat_of(table, seats)
    if table.status == Table.Status.PAUSED:
        raise AppError(PAUSED, "The teacher has paused this table; wait until it resumes.")
    if table.status == Table.Status.KEPT:
        raise AppError(PAUSED, "This game is kept for the next lesson; it resumes then.")
    if table.status == Table.Status.FINISHED:
        raise AppError(FINISHED, "This game is over.")
    now = timezone.now()
    if action.get("type") == TIMEOUT:
        expected_version = _check_timeout(table, action, now)
    if expected_version is not None and expected_version != table.version:
        raise AppError(STALE, "Someone moved first: the table has changed, look again and retry.")
    rules = selectors.rules_of(table.game)
    state, events = _run_rules(partial(rules.apply, table.state, seat, action), words, now)
    return Played(rules, state, events, seat, now)


def _check_timeout(table: Table, action: Action, now: datetime) -> int:
    """A ``timeout`` is accepted once its turn's deadline has passed, and only for the move it names (``seq``):
    every page at the table may send it when its countdown ends, and the first to take the lock passes the turn;
    the others, and a player acting at the same moment, find the version moved on. Returns the version needed."""
    seq = action.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise AppError(BAD_ACTION, "timeout needs the seq of the move it is for.")
    if table.turn_deadline is None or now < table.turn_deadline:
        raise AppError("clock_running", "The turn's time has not run out.")
    return seq


def preview_action(table_id: int, user: User, action: Action) -> dict[str, Any]:
    """What ``action`` by ``user`` would do at the table now (words formed, a score), for the sender only: the
    rules check it as they would a move, but nothing is locked, stored or broadcast."""
    check_shape(action)
    table = selectors.table_by_id(table_id)
    if table is None:
        raise AppError(NOT_FOUND, "There is no such table.")
    seat = acting_seat(table, selectors.seats_of(table), user)
    if table.status != Table.Status.PLAYING:
        raise AppError(PAUSED if table.status == Table.Status.PAUSED else FINISHED, "Nothing can be played now.")
    rules = selectors.rules_of(table.game)
    ctx = Context(selectors.word_list_for(table.lexicon_id), timezone.now().timestamp())
    return rules.preview(table.state, seat, action, ctx)


def acting_seat(table: Table, seats: list[Seat], user: User) -> int | None:
    """``user``'s seat at the table (``None``: the class's teacher); refused for anyone else."""
    access = selectors.access(user, table, seats)
    if access is None:
        raise AppError(FORBIDDEN, "You do not play at this table.")
    return access.seat


# The table's fields a move saves.
SAVED_FIELDS = ("state", "version", "status", "updated", "turn_deadline", "clock_left", "timed_out")


def record(
    table: Table,
    rules: Game,
    state: dict[str, Any],
    events: list[Event],
    *,
    kind: str,
    seat: int | None,
    actor: User | None,
    action: Action,
    now: datetime,
    seated: list[dict[str, Any]] | None = None,
) -> Move:
    """Save the new state and log the move; on commit, broadcast it and have its encounters recorded. ``seated``:
    the table's players as read under the lock (``None``: read them when broadcasting)."""
    move = advance(table, Played(rules, state, events, seat, now), kind=kind, actor=actor, action=action)
    _save(table, rules, move, seated)
    return move


def _save(table: Table, rules: Game, move: Move, seated: list[dict[str, Any]] | None) -> None:
    table_rows.save_move(table, SAVED_FIELDS, move)
    for job in after_commit(table, rules, move, seated):
        transaction.on_commit(job)


def advance(table: Table, played: Played, *, kind: str, actor: User | None, action: Action) -> Move:
    """The table moved on to the ``played`` state (its version, status and clock; not saved) and the move that
    logs it."""
    rules, state, events, now = played.rules, played.state, played.events, played.now
    # Who was to act before the move: only a table with a turn clock needs it (a new turn restarts the clock).
    before = rules.status(table.state).to_act if table.state.get("clock_seconds") else ()
    changed_rows = rules.changed_rows(table.state, state) if rules.record else None
    table.version += 1
    table.state = state
    status = rules.status(state)
    if status.finished:
        table.status = Table.Status.FINISHED
    restart_clock(table, now, status.finished or before != status.to_act or action.get("type") == TIMEOUT)
    move = Move(
        table=table,
        seq=table.version,
        kind=kind,
        seat=played.seat,
        actor=actor,
        action=action,
        events=events,
        created=now,
    )
    # Most moves meet no word (a draw, a discard, a bid): they send learning no job at all, and its catch-up at a
    # lesson's end passes them over (the rules' encounters are pure, so asking now answers what the job would).
    move.recordable = bool(rules.encounters(state, events))
    move.changed_rows = changed_rows
    return move


def after_commit(
    table: Table,
    rules: Game,
    move: Move,
    seated: list[dict[str, Any]] | None,
    *,
    row_change: dict[str, Any] | None = None,
    made: "Broadcast | None" = None,
) -> list[Callable[[], None]]:
    """What a saved move leaves to do once it is committed, in order: its broadcasts, its learning job (if it met a
    word) and its robots' turn (if the table has robots). Each sends, or hands its work to a deferring caller
    (:func:`config.transport.deferring`). ``row_change``: the table's row as the move saved it, for the server
    processes' copies of it (the event loop's moves, :mod:`games.services.loop_moves`). ``made``: the move's
    :class:`Broadcast`, when the caller made it already (while its save was on its way)."""
    from games.services import robots  # robots play through this module

    jobs = [_broadcast(table, rules, move, seated, row_change, made)]
    if move.recordable:
        jobs.append(_recording(move))
    wake = robots.waking(table.id, table.version, seated)
    if wake is not None:
        jobs.append(wake)
    return jobs


def restart_clock(table: Table, now: datetime, new_turn: bool) -> None:
    """After a move: a new turn gets the full time (on the deadline while playing, kept aside while paused)."""
    seconds = table.state.get("clock_seconds", 0)
    if not seconds or table.status == Table.Status.FINISHED:
        table.turn_deadline, table.clock_left = None, None
        return
    if not new_turn:
        return
    table.timed_out = False
    if table.status == Table.Status.PLAYING:
        table.turn_deadline, table.clock_left = now + timedelta(seconds=seconds), None
    else:
        table.turn_deadline, table.clock_left = None, float(seconds)


def _recording(move: Move) -> Callable[[], None]:
    """The learning job is published after the broadcasts: when deferred, once the consumer has sent them."""
    return partial(transport.later, partial(learning_services.publish_recording, move.pk))


# -- broadcasting ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Broadcast:
    """What a committed move sends: the table's players, each recipient's copy (:func:`recipients_copies`) and the
    teacher's dashboard row. Nothing here is sent, so it may be made before the move is durable."""

    players: list[dict[str, Any]]
    copies: dict[str, str]
    dashboard: dict[str, Any]

    @classmethod
    def made(
        cls, table: Table, rules: Game, move: Move, players: list[dict[str, Any]], seq: int, state: dict[str, Any]
    ) -> "Broadcast":
        """The move's broadcast, ``state`` at version ``seq`` seen by ``players``."""
        copies = recipients_copies(table, rules, move, players, seq, state)
        return cls(players, copies, selectors.dashboard_row(table, players))


def recipients_copies(
    table: Table, rules: Game, move: Move, players: list[dict[str, Any]], seq: int, state: dict[str, Any]
) -> dict[str, str]:
    """What the move's broadcast carries to each seat still playing and to the spectators (``players``): their
    censored events and their view of ``state`` at version ``seq``, each serialised here, once, as the text its
    pages are sent (the group message then carries strings, cheap for the channel layer to pack and unpack, and a
    connection forwards its own). Nothing here is sent, so it may be made before the move is durable."""
    info = selectors.table_info(table, players)
    recipients: list[int | None] = [p["seat"] for p in players if not p["removed"]]
    recipients.append(None)
    # Each view leaves out what the pages hold already: the game's fixed parts, and its record's rows but those the
    # move changed.
    views = selectors.table_views(rules, state, table.status, recipients, move.changed_rows, move=True)
    return {
        transport.recipient(seat): transport.text(
            {"type": "event", "seq": seq, "events": censor_all(move.events, seat), "view": view, "table": info}
        )
        for seat, view in views.items()
    }


def _broadcast(
    table: Table,
    rules: Game,
    move: Move,
    seated: list[dict[str, Any]] | None,
    row_change: dict[str, Any] | None = None,
    made: Broadcast | None = None,
) -> Callable[[], None]:
    """After the commit: each seat still playing, and the spectators, get their :func:`recipients_copies`, and the
    teacher's dashboard the table's row (the :class:`Broadcast` ``made`` already, or made then). The message also
    carries ``row_change`` (the row as saved, with its state or what the move changed of it:
    it stays on the server, where each connection takes it for its process's copy of the row and forwards only its
    own seat's copy)."""
    seq, state = table.version, table.state  # as this move left them (a caller's transaction may move again)

    def send() -> None:
        if made is None:
            players = selectors.players(table) if seated is None else seated
            broadcast = Broadcast.made(table, rules, move, players, seq, state)
        else:
            broadcast = made
        message = {"type": "table.event", "seq": seq, "copies": broadcast.copies, "row": row_change}
        transport.group_send(transport.table_group(table.id), message)
        _send_lesson_row(table, broadcast.dashboard)

    return send


def broadcast_refresh(table: Table) -> None:
    """The table's status changed (not its game state): every open page fetches a fresh snapshot."""
    from games.services import robots

    def send() -> None:
        transport.group_send(transport.table_group(table.id), {"type": "table.refresh"})
        send_dashboard_row(table)

    transaction.on_commit(send)
    robots.after_commit(table.id, table.version, None)  # a resumed table's robots carry on


def send_dashboard_row(table: Table, seated: list[dict[str, Any]] | None = None) -> None:
    """``table`` as saved (it is the row we locked and wrote, so there is nothing to read again)."""
    _send_lesson_row(table, selectors.dashboard_row(table, seated))


def _send_lesson_row(table: Table, row: dict[str, Any]) -> None:
    transport.group_send(transport.lesson_group(table.lesson_id), {"type": "lesson.row", "row": row})
