"""Reads for lessons and tables: who may see a table and as whom, snapshots, dashboard rows, replays."""

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone

from games.engine import AppError, Context, Game, WordList, censor_all, fill_names
from games.models import Lesson, Move, Seat, Table
from games.rules import GAMES
from learning.models import Classroom, User
from learning.selectors import student_of
from lexicons import services as lexicon_services
from lexicons.models import Lexicon


def word_list_for(lexicon_id: int | None, lexicon: Lexicon | None = None) -> WordList | None:
    """The word list a table's rules check words against (``None``: no lexicon). It is read when the rules first
    use it, and raises ``LexiconNotReady`` then if the lexicon has no complete import. ``lexicon``: its row as just
    read, where nothing more may be read (a move on the event loop): see :class:`LoadedWordList`."""
    if lexicon_id is None:
        return None
    return TableWordList(lexicon_id) if lexicon is None else LoadedWordList(lexicon)


class NeedsDatabase(Exception):
    """A :class:`LoadedWordList` was asked for what only the database has."""


class TableWordList:
    """A table's word list, looked up in the lexicons only when the rules first ask: most moves (draws, discards,
    passes) check no word, and the move path should not read the lexicon's row for them."""

    def __init__(self, lexicon_id: int) -> None:
        self.lexicon_id = lexicon_id
        self._words: WordList | None = None

    @property
    def words(self) -> WordList:
        if self._words is None:
            self._words = self._load()
        return self._words

    def _load(self) -> WordList:
        return lexicon_services.word_list(self.lexicon_id)

    @property
    def language(self) -> str:
        return self.words.language

    def normalise(self, text: str) -> str:
        return self.words.normalise(text)

    def is_word(self, key: str) -> bool:
        return self.words.is_word(key)

    def analyses(self, key: str) -> list[Mapping[str, Any]]:
        return self.words.analyses(key)

    def keys(self) -> frozenset[str]:
        return self.words.keys()


class LoadedWordList(TableWordList):
    """A table's word list where nothing may be read from the database: the keys this process has loaded already,
    checked against the lexicon's row read with the table (so a new version is never missed). Keys not loaded yet,
    or a word's analyses (read from the lexicon's entries), raise :class:`NeedsDatabase`."""

    def __init__(self, lexicon: Lexicon) -> None:
        super().__init__(lexicon.pk)
        self._lexicon = lexicon

    def _load(self) -> WordList:
        words = lexicon_services.loaded_word_list(self._lexicon)
        if words is None:
            raise NeedsDatabase(f"the keys of lexicon {self.lexicon_id} are not loaded in this process")
        return words

    def analyses(self, key: str) -> list[Mapping[str, Any]]:
        raise NeedsDatabase("a word's analyses are read from the lexicon's entries")


@dataclass(frozen=True)
class Access:
    """How a user sits at a table: ``seat`` is theirs, or ``None`` for the teacher (who watches as a spectator
    and acts as moderator)."""

    seat: int | None

    @property
    def is_teacher(self) -> bool:
        return self.seat is None


def is_teacher_of(user: User, table: Table) -> bool:
    return (
        user.is_authenticated
        and user.is_teacher
        and Classroom.objects.filter(lessons__id=table.lesson_id, teacher=user).exists()
    )


def seats_of(table: Table) -> list[Seat]:
    """The table's seats in seat order, with their students: read once, they answer both :func:`access` and
    :func:`players` (the move path needs both and should not ask the database twice)."""
    return list(table.seats.select_related("student").order_by("number"))


def access(user: User, table: Table, seats: list[Seat] | None = None) -> Access | None:
    """The class's teacher, or an active student seated (and not removed) at the table; ``None`` for anyone else.
    ``seats``: the table's seats if already read (:func:`seats_of`)."""
    if not user.is_authenticated:
        return None
    if user.is_teacher:
        return Access(seat=None) if is_teacher_of(user, table) else None
    if seats is None:
        student = student_of(user)
        if student is None:
            return None
        seat = Seat.objects.filter(table=table, student=student, removed=False).values_list("number", flat=True).first()
    else:
        # The seats' students were read with the seats (under the table's lock on the move path), so a student
        # the teacher has just removed from the class is refused without reading the student again.
        seat = next(
            (
                s.number
                for s in seats
                if s.student is not None and s.student.user_id == user.id and s.student.active and not s.removed
            ),
            None,
        )
    return None if seat is None else Access(seat=seat)


def players(table: Table, seats: list[Seat] | None = None) -> list[dict[str, Any]]:
    """Who sits where; ``seats``: the table's seats if already read (:func:`seats_of`)."""
    seats = seats_of(table) if seats is None else seats
    robots = [s.number for s in seats if s.student is None]
    return [
        {
            "seat": s.number,
            "name": _seat_name(s, robots),
            "removed": s.removed,
            "student_id": s.student_id,
            "robot": s.robot,
        }
        for s in seats
    ]


def _seat_name(seat: Seat, robots: list[int]) -> str:
    """A student's name; a robot's level ("Steady robot"), numbered when the table has several robots."""
    if seat.student is not None:
        return seat.student.display_name
    label = Seat.Robot(seat.robot).label if seat.robot else "Robot"
    return f"{label} {robots.index(seat.number) + 1}" if len(robots) > 1 else label


def rules_of(slug: str) -> Game:
    """The rules of the game called ``slug``."""
    try:
        return GAMES[slug]
    except KeyError:
        raise AppError("unknown_game", f"There is no game called “{slug}”.") from None


def table_by_id(table_id: int) -> Table | None:
    """The table with its lesson and class (``None``: there is none)."""
    return Table.objects.select_related("lesson__classroom").filter(pk=table_id).first()


def game_table(table_id: int, game: str | None = None) -> Table:
    """The table (of ``game``, if given) for a page, or 404."""
    tables = Table.objects.select_related("lesson__classroom")
    if game is not None:
        tables = tables.filter(game=game)
    return get_object_or_404(tables, pk=table_id)


def lesson_of_table(teacher: User, table_id: int) -> Lesson | None:
    """The lesson of one of ``teacher``'s classes that has this table."""
    return Lesson.objects.filter(tables__pk=table_id, classroom__teacher=teacher).first()


def game_title(slug: str) -> str:
    rules = GAMES.get(slug)
    return rules.title if rules else slug


def table_info(table: Table, seated: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What every page of the table shows besides the game itself (the same for every recipient). ``seated``:
    :func:`players` if already built."""
    return {
        "id": table.id,
        "number": table.number,
        "game": table.game,
        "title": game_title(table.game),
        "status": table.status,
        "players": players(table) if seated is None else seated,
        "clock": clock_of(table),
    }


def clock_of(table: Table) -> dict[str, Any] | None:
    """The turn clock as pages show it (``None``: the table has none): seconds per turn, when the turn on now runs
    out (epoch seconds; ``None`` while stopped), the seconds it had left when stopped, the server's time now (pages
    correct their own clock by it), and whether it ran out where the rules have no pass."""
    seconds = table.state.get("clock_seconds", 0)
    if not seconds:
        return None
    return {
        "seconds": seconds,
        "deadline": table.turn_deadline.timestamp() if table.turn_deadline else None,
        "left": table.clock_left,
        "now": timezone.now().timestamp(),
        "timed_out": table.timed_out,
    }


def table_view(rules: Game, state: dict[str, Any], table_status: str, seat: int | None) -> dict[str, Any]:
    """The view envelope for ``seat`` at a table whose status is ``table_status``. While the teacher has paused the
    table, or once it is finished, nothing can be played there, so the view offers no action to anyone: every page
    reads what it may offer from ``actions`` alone, and no game has to know about the table's status."""
    return table_views(rules, state, table_status, [seat])[seat]


def table_views(
    rules: Game,
    state: dict[str, Any],
    table_status: str,
    seats: list[int | None],
    changed: list[int] | None = None,
    *,
    move: bool = False,
) -> dict[int | None, dict[str, Any]]:
    """:func:`table_view` for each of ``seats``; ``move``: as a move's message carries them, without what the pages
    hold already (the game's fixed parts, and its record's rows but the ``changed`` ones: ``Game.views``)."""
    views = rules.views(state, seats, changed, move=move)
    if table_status != Table.Status.PLAYING:
        for view in views.values():
            view["actions"] = []
    return views


def open_seats_of(student_id: int) -> list[tuple[int, int]]:
    """(table id, seat) of every game not yet finished where the student still has a seat."""
    return list(
        Seat.objects.filter(student_id=student_id, removed=False)
        .exclude(table__status=Table.Status.FINISHED)
        .values_list("table_id", "number")
    )


def table_version(table_id: int) -> int | None:
    """The table's sequence number (its last move), or None if there is no such table."""
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


LOG_MOVES = 60  # how many of the last moves a page's "What happened" is rebuilt from


def move_log(table: Table, seat: int | None, limit: int = LOG_MOVES) -> list[dict[str, Any]]:
    """The table's last ``limit`` moves as ``seat`` may see them (``None``: spectator and teacher), oldest first:
    ``{seq, seat, kind, events}`` with each move's events censored for that seat, exactly as they were sent live
    (a seat never sees another's hidden cards here either)."""
    moves = table.moves.order_by("-seq").values("seq", "seat", "kind", "events")[:limit]
    return [
        {"seq": m["seq"], "seat": m["seat"], "kind": m["kind"], "events": censor_all(m["events"], seat)}
        for m in reversed(list(moves))
    ]


def snapshot(table: Table, seat: int | None, *, log: bool = False) -> dict[str, Any]:
    """The live protocol's ``state`` message for ``seat`` (``None``: spectator and teacher); with ``log``, also the
    last moves (:func:`move_log`) the page rebuilds its log from."""
    message = {
        "type": "state",
        "seq": table.version,
        "view": table_view(rules_of(table.game), table.state, table.status, seat),
        "table": table_info(table),
    }
    if log:
        message["log"] = move_log(table, seat)
    return message


def snapshot_of(table_id: int, seat: int | None, *, log: bool = False) -> dict[str, Any]:
    """:func:`snapshot` of the table with this id as it is now."""
    return snapshot(Table.objects.get(pk=table_id), seat, log=log)


def table_url(table_id: int) -> str:
    """The table's page: ``reverse()``, kept per table (the dashboard row of every move has it, and reversing cost
    a move as much as its rules did)."""
    return _table_url(table_id, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)


@functools.lru_cache(maxsize=4096)
def _table_url(table_id: int, prefix: str, urlconf: Any) -> str:
    return reverse("games:table", args=[table_id])


def dashboard_row(table: Table, seated: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One table on the teacher's dashboard: players, phase, scores and whose turn it is. ``seated``:
    :func:`players` if already built."""
    rules = rules_of(table.game)
    status = rules.status(table.state)
    seated = players(table) if seated is None else seated
    names = {p["seat"]: p["name"] for p in seated}
    scores = rules.scores(table.state)
    total = scores.total

    def name(seat: int) -> str:
        return names.get(seat, f"Player {seat + 1}")

    last = table.state.get("last_move")
    text = fill_names(last.get("text", ""), name) if last else ""
    if last and last.get("seat") is not None:
        last_move = f"{name(last['seat'])} {text}".strip()
    elif last:
        last_move = f"The teacher {text}".strip()
    else:
        last_move = ""
    winners = rules.winners(table.state, scores) if status.finished else []
    return {
        "id": table.id,
        "number": table.number,
        "url": table_url(table.id),
        "status": table.status,
        "phase": status.phase,
        "summary": fill_names(status.summary, name),
        "finished": status.finished,
        "awaiting_teacher": status.awaiting_teacher,
        "to_act": [name(s) for s in status.to_act],
        "last_move": last_move,
        "winners": [name(s) for s in winners],
        "players": [{**p, "score": total[p["seat"]] if p["seat"] < len(total) else 0} for p in seated],
        "provisional": scores.provisional,
        "high_score_wins": rules.high_score_wins,
        "seq": table.version,
        "game": table.game,
        "title": rules.title,
        "clock": clock_of(table),
        "seat_options": _seat_options(rules, table, seated),
    }


def _seat_options(rules: Game, table: Table, seated: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where the rules let a new player sit now: a removed player's seat to take over, or a new seat."""
    if table.status == Table.Status.FINISHED:
        return []
    found: list[dict[str, Any]] = [
        {"seat": p["seat"], "label": f"in {p['name']}'s seat"}
        for p in seated
        if p["removed"] and rules.can_seat(table.state, p["seat"])
    ]
    if rules.can_seat(table.state, None):
        found.append({"seat": None, "label": "in a new seat"})
    return found


def dashboard_rows(lesson: Lesson) -> list[dict[str, Any]]:
    return [dashboard_row(t) for t in lesson.tables.order_by("number").prefetch_related("history")]


def teachers_lesson(teacher: User, lesson_id: int) -> Lesson | None:
    """One lesson of ``teacher``'s classes, with its class (``None``: not theirs, or no such lesson)."""
    if not teacher.is_teacher:
        return None
    return lessons_of(teacher).select_related("classroom").filter(pk=lesson_id).first()


def running_lesson(classroom: Classroom) -> Lesson | None:
    return classroom.lessons.filter(ended__isnull=True, practice=False).first()


def kept_tables(classroom: Classroom) -> QuerySet[Table]:
    """The class's unfinished games kept at the end of a lesson, to resume in its next one."""
    return Table.objects.filter(lesson__classroom=classroom, status=Table.Status.KEPT)


def lessons_of(teacher: User) -> QuerySet[Lesson]:
    return Lesson.objects.filter(classroom__teacher=teacher, practice=False)


def my_table_url(user: User, classroom: Classroom) -> str:
    """The page of ``user``'s table in the class's running lesson, or "" (teachers, students without a seat)."""
    lesson = running_lesson(classroom)
    table = table_of(user, lesson) if lesson is not None and not user.is_teacher else None
    return table_url(table.id) if table is not None else ""


def table_of(user: User, lesson: Lesson) -> Table | None:
    """The table of the lesson where ``user`` (a student) has a seat they were not removed from."""
    student = student_of(user)
    if student is None:
        return None
    return lesson.tables.filter(seats__student=student, seats__removed=False).first()


def replayed_state(table: Table) -> dict[str, Any]:
    """The table's state rebuilt from its seed, options and move log alone (what a restart or an audit relies on).

    Each action gets back the time it was applied at; the lexicon is the table's (its current version)."""
    return replay_states(table)[-1]


def starting_players(table: Table, moves: list[Move]) -> int:
    """How many seats the game was dealt for: the start entry says (older ones do not: then the seats, less those
    added during the game)."""
    players = moves[0].action.get("players") if moves else None
    if isinstance(players, int):
        return players
    added = sum(1 for m in moves if m.kind == Move.Kind.SEATED and m.action.get("seat") is None)
    return table.seats.count() - added


def replay_states(table: Table, upto: int | None = None) -> list[dict[str, Any]]:
    """The table's state after each entry of its move log (index = seq), replayed from its seed and options alone,
    up to seq ``upto`` (``None``: all)."""
    rules: Game = GAMES[table.game]
    moves = list(table.moves.order_by("seq"))
    if not moves or moves[0].kind != Move.Kind.START:
        raise ValueError(f"table {table.id} has no start in its move log")
    state, _ = rules.new_game(starting_players(table, moves), table.options, table.seed)
    states = [state]
    lexicon = word_list_for(table.lexicon_id)
    for move in moves[1:]:
        if upto is not None and move.seq > upto:
            break
        ctx = Context(lexicon, move.created.timestamp())
        if move.kind == Move.Kind.REMOVAL:
            state, _ = rules.remove_player(state, move.action["seat"], ctx)
        elif move.kind == Move.Kind.SEATED:
            state, _, _ = rules.add_player(state, move.action.get("seat"), ctx)
        else:
            state, _ = rules.apply(state, move.seat, move.action, ctx)
        states.append(state)
    return states


def replay_seats(table: Table, access: Access) -> list[int | None]:
    """Whose view of each step a viewer may see in a replay: the teacher every seat's and the spectator's (nothing
    hidden from them); a player, while the game is on, only their own seat's (what they saw then); once the game is
    over, its players every seat's (every hand and rack as it was at each move)."""
    seats: list[int] = list(table.seats.order_by("number").values_list("number", flat=True))
    if access.is_teacher:
        return [None, *seats]
    if table.status == Table.Status.FINISHED:
        return [access.seat, *(s for s in seats if s != access.seat), None]
    return [access.seat]


def replay_step(table: Table, access: Access, step: int, as_seat: int | None) -> dict[str, Any]:
    """The replay page's frame: the view of the state after move ``step`` as ``as_seat`` saw it (refused unless
    :func:`replay_seats` allows that seat to this viewer), with the move's public summary."""
    allowed = replay_seats(table, access)
    if as_seat not in allowed:
        raise AppError("forbidden", "That view of the game is not yours to see now.")
    last = table.version
    step = max(0, min(step, last))
    state = replay_states(table, step)[-1]
    view = GAMES[table.game].view(state, as_seat)
    view["actions"] = []  # a replay offers nothing to play
    return {"type": "replay", "step": step, "last": last, "seat": as_seat, "view": view, "table": table_info(table)}


def grabble_sheet(table: Table, seat: int | None) -> dict[str, Any]:
    """The Grabble score sheet the rulebook has players keep: each turn's words and base score, each player's
    learning points, the placer's teaching points, and the totals. Read from ``seat``'s view (``None``: the
    teacher), so a turn's analyses, the answers of its quiz question, are shown only as the rules show them:
    to its placer and the teacher until the quiz, to everyone once the turn is marked."""
    view = GAMES["grabble"].view(table.state, seat)
    seated = players(table)
    names = {p["seat"]: p["name"] for p in seated}
    seats = [p["seat"] for p in seated]
    turns = [
        {
            "turn": play["turn"],
            "player": names.get(play["seat"], f"seat {play['seat']}"),
            "words": play["words"],
            "bonus": play["bonus"],
            "base": play["base"],
            "marked": play["marked"],
            "learning": [play["learning"].get(str(s)) for s in seats],
            "teaching": play["teaching"],
        }
        for play in view["body"]["sheet"]
    ]
    scores = view["scores"]
    return {
        "players": seated,
        "turns": turns,
        "learning": [scores["parts"]["learning"][s] for s in seats],
        "teaching": [scores["parts"]["teaching"][s] for s in seats],
        "final": [scores["total"][s] for s in seats],
        "phase": view["phase"],
        "any_reading": view["body"]["options"].get("quiz_readings", "any") == "any",
    }
