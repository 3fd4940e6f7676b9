"""Every write to lessons and tables. Views and consumers call these; nothing else writes.

An action is applied in one transaction: the table row is locked, the version checked, the pure rules run, the move
appended and the new state saved. Only after the commit are the events broadcast, each recipient getting their own
censored copy and their own view (the teacher watches as a spectator). A table has one channel-layer group: its
message carries every seat's censored copy, and each connection forwards only its own seat's to its browser, so no
browser ever receives what it may not see, while a move costs one group send instead of one per seat (each costs
channels-redis four Redis commands on the sender's event loop; bench/live measured them). Broadcasts are best
effort — the database is the truth and a client that misses one resyncs by sequence number.

The websocket consumer plays through :func:`apply_action_deferred`: the same transaction, but the committed move's
broadcasts come back to it to be sent from its event loop, instead of being sent one by one from the database thread
while that thread (which every table of the server process shares) waits on Redis.
"""

import asyncio
import logging
import secrets
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from config.celery import app as celery_app
from games import selectors
from games.engine import Action, AppError, Context, Event, Game, censor_all
from games.models import Lesson, Move, Seat, Table
from games.rules import GAMES
from learning import services as learning_services
from learning.models import Classroom, Student, User
from learning.services import classroom_group
from lexicons import services as lexicon_services
from lexicons.models import Lexicon

logger = logging.getLogger(__name__)

# Our own error codes (the rules' codes pass through unchanged).
FORBIDDEN = "forbidden"
NOT_FOUND = "not_found"
STALE = "stale"
PAUSED = "paused"
FINISHED = "finished"


class TableError(Exception):
    """Something that cannot be done at a table or lesson; ``message`` says why, in plain words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def table_group(table_id: int) -> str:
    """The channel-layer group of everyone with the table open: its seats, its spectators and the teacher."""
    return f"table-{table_id}"


def recipient(seat: int | None) -> str:
    """The key of a seat's own copy in a table's broadcast (``None``: the spectators' and the teacher's)."""
    return "spectators" if seat is None else str(seat)


def lesson_group(lesson_id: int) -> str:
    return f"lesson-{lesson_id}"


def rules_of(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        raise TableError("unknown_game", f"There is no game called “{slug}”.") from None


def _run_rules(
    play: Callable[[Context], tuple[dict[str, Any], list[Event]]], lexicon_id: int | None, now: datetime
) -> tuple[dict[str, Any], list[Event]]:
    """Run one rules call with the table's lexicon; the rules' refusals become :class:`TableError`."""
    try:
        return play(Context(selectors.word_list_for(lexicon_id), now.timestamp()))
    except AppError as error:
        raise TableError(error.code, error.message) from error
    except lexicon_services.LexiconNotReady:
        raise TableError("lexicon_not_ready", "The table's lexicon is being imported; try again shortly.") from None


# -- playing ---------------------------------------------------------------------------------------------------
@dataclass
class Deferred:
    """What a committed move left for its async caller to do: ``messages`` to send (group, message), then the
    ``later`` work (the learning job's publish), which no seat waits for."""

    messages: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    later: list[Callable[[], None]] = field(default_factory=list)


# Set while apply_action_deferred runs: the commit hooks fill it instead of sending.
_deferred: ContextVar[Deferred | None] = ContextVar("deferred_broadcasts", default=None)


def apply_action_deferred(
    table_id: int, user: User, action: Action, expected_version: int | None = None
) -> tuple[Move, Deferred]:
    """:func:`apply_action` for the websocket consumer: the broadcasts are prepared on commit as usual but handed
    back instead of sent; the caller sends them with :func:`send_deferred`. Nothing comes back for an action that
    failed (it raises). Inside a caller's own transaction nothing is deferred: that commit is not ours to wait for."""
    if transaction.get_connection().in_atomic_block:
        return apply_action(table_id, user, action, expected_version), Deferred()
    deferred = Deferred()
    token = _deferred.set(deferred)
    try:
        move = apply_action(table_id, user, action, expected_version)
    finally:
        _deferred.reset(token)
    return move, deferred


async def send_deferred(deferred: Deferred) -> None:
    """Send a move's broadcasts all at once from the event loop, then do its later work (publishing the recording
    job) in a worker thread: not the database thread, which every table of this server process waits for, unless
    Celery runs eagerly (no broker configured) and the job itself is done there and then."""
    layer = get_channel_layer()
    results = await asyncio.gather(
        *(layer.group_send(group, message) for group, message in deferred.messages), return_exceptions=True
    )
    for (group, _), result in zip(deferred.messages, results, strict=True):
        if isinstance(result, BaseException):
            logger.error("could not broadcast to %s", group, exc_info=result)
    if deferred.later:
        if celery_app.conf.task_always_eager:
            await database_sync_to_async(_run_all)(deferred.later)
        else:
            await sync_to_async(_run_all, thread_sensitive=False)(deferred.later)


def _run_all(work: list[Callable[[], None]]) -> None:
    for job in work:
        job()


def apply_action(table_id: int, user: User, action: Action, expected_version: int | None = None) -> Move:
    """Apply ``action`` by ``user`` (a seated student, or the class's teacher acting as moderator) to the table.

    Raises :class:`TableError` (the rules' :class:`AppError` codes pass through) and then nothing has changed.
    ``expected_version``: refuse with ``stale`` unless the table is still at that sequence number.
    """
    if not isinstance(action, dict):
        raise TableError("bad_action", "An action must be a JSON object with a type.")
    with transaction.atomic():
        table = _locked_table(table_id)
        seats = selectors.seats_of(table)
        seat = _acting_seat(table, user, seats)
        if table.status == Table.Status.PAUSED:
            raise TableError(PAUSED, "The teacher has paused this table; wait until it resumes.")
        if table.status == Table.Status.FINISHED:
            raise TableError(FINISHED, "This game is over.")
        if expected_version is not None and expected_version != table.version:
            raise TableError(STALE, "Someone moved first: the table has changed, look again and retry.")
        rules = rules_of(table.game)
        now = timezone.now()
        state, events = _run_rules(partial(rules.apply, table.state, seat, action), table.lexicon_id, now)
        return _record(
            table,
            rules,
            state,
            events,
            kind=Move.Kind.ACTION,
            seat=seat,
            actor=user,
            action=action,
            now=now,
            seated=selectors.players(table, seats),
        )


def preview_action(table_id: int, user: User, action: Action) -> dict[str, Any]:
    """What ``action`` by ``user`` would do at the table now (words formed, a score), for the sender only: the
    rules check it as they would a move, but nothing is locked, stored or broadcast."""
    if not isinstance(action, dict):
        raise TableError("bad_action", "An action must be a JSON object with a type.")
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError(NOT_FOUND, "There is no such table.")
    seat = _acting_seat(table, user, selectors.seats_of(table))
    if table.status != Table.Status.PLAYING:
        raise TableError(PAUSED if table.status == Table.Status.PAUSED else FINISHED, "Nothing can be played now.")
    rules = rules_of(table.game)
    ctx = Context(selectors.word_list_for(table.lexicon_id), timezone.now().timestamp())
    try:
        return rules.preview(table.state, seat, action, ctx)
    except AppError as error:
        raise TableError(error.code, error.message) from error


def _locked_table(table_id: int) -> Table:
    if connection.vendor == "sqlite":
        # SQLite has no row locks and fails (rather than waits) when two readers both try to write; an empty
        # update takes its write lock first, so racing transactions queue on the busy timeout instead.
        Table.objects.filter(pk=table_id).update(version=F("version"))
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise TableError(NOT_FOUND, "There is no such table.")
    return table


def _acting_seat(table: Table, user: User, seats: list[Seat]) -> int | None:
    access = selectors.access(user, table, seats)
    if access is None:
        raise TableError(FORBIDDEN, "You do not play at this table.")
    return access.seat


def _record(
    table: Table,
    rules: Game,
    state: dict[str, Any],
    events: list[Event],
    *,
    kind: str,
    seat: int | None,
    actor: User | None,
    action: Action,
    now,
    seated: list[dict[str, Any]] | None = None,
) -> Move:
    """Save the new state and log the move; on commit, broadcast it and have its encounters recorded. ``seated``:
    the table's players as read under the lock (``None``: read them when broadcasting)."""
    table.version += 1
    table.state = state
    if rules.status(state).finished:
        table.status = Table.Status.FINISHED
    table.save(update_fields=["state", "version", "status", "updated"])
    move = Move.objects.create(
        table=table, seq=table.version, kind=kind, seat=seat, actor=actor, action=action, events=events, created=now
    )
    _broadcast_events(table, rules, state, events, seated)
    _enqueue_recording(move)
    return move


def _enqueue_recording(move: Move) -> None:
    """The learning job is published after the broadcasts: when deferred, once the consumer has sent them."""
    deferred = _deferred.get()
    if deferred is None:
        learning_services.enqueue_recording(move)
    else:
        transaction.on_commit(lambda: deferred.later.append(partial(learning_services.publish_recording, move.pk)))


# -- the teacher's lesson --------------------------------------------------------------------------------------
Seating = int | Sequence[Sequence[int]]


def start_lesson(
    teacher: User,
    classroom: Classroom,
    game: str,
    lexicon: Lexicon | None,
    options: dict[str, Any] | None,
    seating: Seating,
) -> Lesson:
    """Start ``game`` for the class: tables filled by ``seating`` — a table size (the active students are shuffled
    and split as evenly as the game allows) or a list of tables, each a list of student ids. Students on the class
    page are then sent to their own table."""
    if not teacher.is_teacher or classroom.teacher_id != teacher.id:
        raise TableError(FORBIDDEN, "Only the class's teacher can start a lesson.")
    rules = rules_of(game)
    try:
        options = rules.clean_options(options)
    except AppError as error:
        raise TableError(error.code, error.message) from error
    _check_lexicon(teacher, classroom, rules, lexicon)
    with transaction.atomic():
        Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
        if Lesson.objects.filter(classroom=classroom, ended__isnull=True).exists():
            raise TableError("lesson_running", "A lesson is already running in this class: end it first.")
        students = {s.id: s for s in classroom.students.filter(active=True)}
        if isinstance(seating, int):
            groups = split_into_tables(list(students), seating, rules.min_players, rules.max_players)
            table_size = seating
        else:
            groups = _hand_seating(seating, students, rules)
            table_size = None
        try:
            lesson = Lesson.objects.create(
                classroom=classroom,
                game=game,
                lexicon=lexicon,
                options=options,
                table_size=table_size,
                started_by=teacher,
            )
        except IntegrityError:
            raise TableError("lesson_running", "A lesson is already running in this class: end it first.") from None
        urls = {}
        for number, ids in enumerate(groups, start=1):
            table = _new_table(lesson, number, rules, [students[i] for i in ids])
            for i in ids:
                urls[str(students[i].user_id)] = reverse("games:table", args=[table.id])
    transaction.on_commit(lambda: _group_send(classroom_group(classroom.pk), {"type": "lesson.started", "urls": urls}))
    return lesson


def _check_lexicon(teacher: User, classroom: Classroom, rules: Game, lexicon: Lexicon | None) -> None:
    if lexicon is None:
        return
    if lexicon.owner_id not in (None, teacher.id):
        raise TableError(FORBIDDEN, "That lexicon belongs to another teacher.")
    if not lexicon.is_usable:
        raise TableError("lexicon_not_ready", f"{lexicon.name} has not finished importing yet.")
    if lexicon.language not in (rules.language, classroom.language):
        raise TableError("wrong_language", f"{lexicon.name} is not in the language of {rules.title} or of the class.")


def split_into_tables(student_ids: list[int], size: int, min_players: int, max_players: int) -> list[list[int]]:
    """Shuffle the students and seat them at as few tables of at most ``size`` as possible, sizes differing by at
    most one; fewer, fuller tables when even splitting would leave a table short of the game's minimum."""
    if not min_players <= size <= max_players:
        raise TableError("bad_table_size", f"Tables for this game seat {min_players} to {max_players} players.")
    count = len(student_ids)
    if count < min_players:
        raise TableError(
            "too_few_students", f"This game needs at least {min_players} players; {count} students are in the class."
        )
    tables = -(-count // size)
    while tables > 1 and count // tables < min_players:
        tables -= 1
    if -(-count // tables) > max_players:
        raise TableError(
            "bad_table_size", f"{count} students cannot be seated at tables of {min_players}–{max_players}."
        )
    ids = list(student_ids)
    secrets.SystemRandom().shuffle(ids)
    base, extra = divmod(count, tables)
    groups, start = [], 0
    for t in range(tables):
        end = start + base + (1 if t < extra else 0)
        groups.append(ids[start:end])
        start = end
    return groups


def _hand_seating(seating: Sequence[Sequence[int]], students: dict[int, Student], rules: Game) -> list[list[int]]:
    groups = [list(group) for group in seating if group]
    if not groups:
        raise TableError("no_tables", "Seat at least one table.")
    seated = [i for group in groups for i in group]
    if len(set(seated)) != len(seated):
        raise TableError("bad_seating", "A student can sit at only one table.")
    unknown = [i for i in seated if i not in students]
    if unknown:
        raise TableError("bad_seating", "Only active students of this class can be seated.")
    for number, group in enumerate(groups, start=1):
        if not rules.min_players <= len(group) <= rules.max_players:
            raise TableError(
                "bad_table_size",
                f"Table {number} has {len(group)} players; {rules.title} is for {rules.min_players} to "
                f"{rules.max_players}.",
            )
    return groups


def _new_table(lesson: Lesson, number: int, rules: Game, students: list[Student]) -> Table:
    seed = secrets.randbits(62)
    try:
        state, events = rules.new_game(len(students), lesson.options, seed)
    except AppError as error:
        raise TableError(error.code, error.message) from error
    table = Table.objects.create(
        lesson=lesson,
        number=number,
        game=lesson.game,
        lexicon=lesson.lexicon,
        options=lesson.options,
        seed=seed,
        state=state,
        version=0,
    )
    Seat.objects.bulk_create([Seat(table=table, number=n, student=s) for n, s in enumerate(students)])
    Move.objects.create(table=table, seq=0, kind=Move.Kind.START, events=events, created=table.created)
    return table


@transaction.atomic
def end_lesson(teacher: User, lesson_id: int) -> Lesson:
    """End the lesson and every game still being played in it."""
    lesson = Lesson.objects.select_for_update().filter(pk=lesson_id, classroom__teacher=teacher).first()
    if lesson is None:
        raise TableError(NOT_FOUND, "That is not a lesson of one of your classes.")
    if lesson.ended is not None:
        raise TableError(FINISHED, "This lesson has ended already.")
    for table in lesson.tables.select_for_update().exclude(status=Table.Status.FINISHED):
        _set_status(table, Table.Status.FINISHED)
    lesson.ended = timezone.now()
    lesson.save(update_fields=["ended"])
    learning_services.lesson_ended(lesson.id)
    return lesson


# -- moderating one table --------------------------------------------------------------------------------------
def _teachers_table(teacher: User, table_id: int) -> Table:
    table = _locked_table(table_id)
    if not selectors.is_teacher_of(teacher, table):
        raise TableError(FORBIDDEN, "Only the class's teacher can do that.")
    return table


@transaction.atomic
def pause_table(teacher: User, table_id: int) -> Table:
    table = _teachers_table(teacher, table_id)
    if table.status != Table.Status.PLAYING:
        raise TableError("not_playing", "Only a game being played can be paused.")
    return _set_status(table, Table.Status.PAUSED)


@transaction.atomic
def resume_table(teacher: User, table_id: int) -> Table:
    table = _teachers_table(teacher, table_id)
    if table.status != Table.Status.PAUSED:
        raise TableError("not_paused", "This table is not paused.")
    return _set_status(table, Table.Status.PLAYING)


@transaction.atomic
def end_table(teacher: User, table_id: int) -> Table:
    """End the game now; the scores stand as they are."""
    table = _teachers_table(teacher, table_id)
    if table.status == Table.Status.FINISHED:
        raise TableError(FINISHED, "This game is over already.")
    return _set_status(table, Table.Status.FINISHED)


def _set_status(table: Table, status: str) -> Table:
    table.status = status
    table.save(update_fields=["status", "updated"])
    _broadcast_refresh(table)
    return table


@transaction.atomic
def remove_player(teacher: User, table_id: int, seat: int) -> Move:
    """Take the student in ``seat`` out of the game (the rules decide what happens to their cards and turn)."""
    table = _teachers_table(teacher, table_id)
    if table.status == Table.Status.FINISHED:
        raise TableError(FINISHED, "This game is over.")
    seat_row = table.seats.filter(number=seat, removed=False).first()
    if seat_row is None:
        raise TableError(NOT_FOUND, "Nobody plays in that seat.")
    rules = rules_of(table.game)
    now = timezone.now()
    state, events = _run_rules(partial(rules.remove_player, table.state, seat), table.lexicon_id, now)
    seat_row.removed = True
    seat_row.save(update_fields=["removed"])
    transaction.on_commit(lambda: _group_send(table_group(table.id), {"type": "table.removed", "seat": seat}))
    action = {"type": "remove_player", "seat": seat}
    return _record(
        table, rules, state, events, kind=Move.Kind.REMOVAL, seat=None, actor=teacher, action=action, now=now
    )


# -- broadcasting ------------------------------------------------------------------------------------------------
def _broadcast_events(
    table: Table, rules: Game, state: dict[str, Any], events: list[Event], seated: list[dict[str, Any]] | None
) -> None:
    """After the commit: each seat still playing, and the spectators, get their censored events and their view."""
    seq = table.version

    def send() -> None:
        players = selectors.players(table) if seated is None else seated
        info = selectors.table_info(table, players)
        recipients = [p["seat"] for p in players if not p["removed"]] + [None]
        copies = {
            recipient(seat): {"events": censor_all(events, seat), "view": rules.view(state, seat)}
            for seat in recipients
        }
        _group_send(table_group(table.id), {"type": "table.event", "seq": seq, "copies": copies, "table": info})
        _send_dashboard_row(table, players)

    transaction.on_commit(send)


def _broadcast_refresh(table: Table) -> None:
    """The table's status changed (not its game state): every open page fetches a fresh snapshot."""

    def send() -> None:
        _group_send(table_group(table.id), {"type": "table.refresh"})
        _send_dashboard_row(table)

    transaction.on_commit(send)


def _send_dashboard_row(table: Table, seated: list[dict[str, Any]] | None = None) -> None:
    """``table`` as saved (it is the row we locked and wrote, so there is nothing to read again)."""
    row = selectors.dashboard_row(table, seated)
    _group_send(lesson_group(table.lesson_id), {"type": "lesson.row", "row": row})


def _group_send(group: str, message: dict) -> None:
    """Best effort: a channel layer that is down must not fail the change that was committed. During
    :func:`apply_action_deferred` the message is handed back to its caller instead."""
    deferred = _deferred.get()
    if deferred is not None:
        deferred.messages.append((group, message))
        return
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except Exception:
        logger.exception("could not broadcast to %s", group)
