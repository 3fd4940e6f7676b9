"""Games: lessons, their tables, the seats at them and each table's move log.

The rules (``games/rules``) are pure; these rows are what makes a game survive a restart. A table keeps its current
state and version; the move log keeps every action with the events it caused (uncensored), so the state can also be
rebuilt by replaying the log from the table's seed and options. A game's history (``Game.history``: Grabble's plays)
is kept apart from the rest of its state, an entry per row (:class:`HistoryEntry`). ``services/`` does every write.
"""

from typing import Any

from django.conf import settings
from django.db import models, router, transaction
from django.utils import timezone

from games.engine.game import history_writes, stored_state, whole_state
from games.rules import GAMES


class Lesson(models.Model):
    """A set of tables of one game started together for a class; running until ``ended`` is set."""

    classroom = models.ForeignKey("learning.Classroom", on_delete=models.CASCADE, related_name="lessons")
    game = models.CharField(max_length=50, help_text="A slug of games.rules.GAMES.")
    lexicon = models.ForeignKey("lexicons.Lexicon", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty when seated by hand.")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)
    practice = models.BooleanField(
        default=False, help_text="A student's practice game against robots (one table), outside any lesson."
    )

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["classroom"],
                condition=models.Q(ended__isnull=True, practice=False),
                name="one_running_lesson_per_class",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} for {self.classroom} ({self.created:%Y-%m-%d %H:%M})"


def history_of(game: str) -> tuple[str, ...]:
    """The keys of the game's history lists (:attr:`games.engine.Game.history`)."""
    rules = GAMES.get(game)
    return rules.history if rules is not None else ()


class _StateDescriptor:
    """``Table.state``: always the whole state. A table read through the ORM holds its column's value until the state
    is first asked for; then its history entries are read: from the table's prefetched ``history``
    (``prefetch_related("history")``, for many tables at once), else in one query."""

    def __init__(self, field: models.Field) -> None:
        pass  # Django hands every field's descriptor its field; this one needs nothing of it

    def __get__(self, instance: "Table | None", owner: type | None = None) -> Any:
        if instance is None:
            return self
        data = instance.__dict__
        if "state" not in data:  # deferred
            instance.refresh_from_db(fields=["state"])
        if data.pop("_state_stored", False):
            instance._read_history()
        return data["state"]

    def __set__(self, instance: "Table", value: Any) -> None:
        instance.__dict__["state"] = value
        instance.__dict__.pop("_state_stored", None)


class StateField(models.JSONField):
    """A table's state, saved without its history entries (:func:`stored_state`; they are saved as rows of
    :class:`HistoryEntry` by :meth:`Table.save` and by the move path's own statement)."""

    descriptor_class = _StateDescriptor

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        return stored_state(getattr(model_instance, self.attname), history_of(model_instance.game))  # type: ignore[attr-defined]


class Table(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"
        KEPT = "kept", "Kept for the next lesson"

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(help_text="Table 1, 2, … within its lesson.")
    game = models.CharField(max_length=50)
    lexicon = models.ForeignKey("lexicons.Lexicon", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    options = models.JSONField(default=dict, blank=True, help_text="Cleaned by the rules: every option is present.")
    seed = models.BigIntegerField()
    state = StateField()
    version = models.PositiveIntegerField(default=0, help_text="The seq of the last move applied.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    carried_from = models.ForeignKey(
        Lesson,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="carried_tables",
        help_text="The lesson this unfinished game was kept from (it then resumed in ``lesson``).",
    )
    # The turn clock (the engine's ``clock_seconds`` option): when the turn on now runs out, or, while the table
    # is paused or kept, how many seconds it had left; ``timed_out``: it ran out where the rules have no pass.
    turn_deadline = models.DateTimeField(null=True, blank=True)
    clock_left = models.FloatField(null=True, blank=True)
    timed_out = models.BooleanField(default=False)

    class Meta:
        ordering = ["lesson", "number"]
        constraints = [models.UniqueConstraint(fields=["lesson", "number"], name="unique_table_number_per_lesson")]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.game})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """The row, and with the state the history entries it changed (:class:`HistoryEntry`), in one transaction."""
        update_fields = kwargs.get("update_fields")
        if (update_fields is not None and "state" not in update_fields) or not history_of(self.game):
            super().save(*args, **kwargs)
            return
        using = kwargs.get("using") or router.db_for_write(Table, instance=self)
        with transaction.atomic(using=using, savepoint=False):
            super().save(*args, **kwargs)
            writes, trims = self.history_writes()
            for key, length in trims.items():
                HistoryEntry.objects.using(using).filter(table=self, key=key, number__gte=length).delete()
            HistoryEntry.objects.using(using).bulk_create(
                [HistoryEntry(table=self, **row) for row in writes],
                update_conflicts=True,
                unique_fields=["table", "key", "number"],
                update_fields=["entry"],
            )
        self.history_saved()

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any, **kwargs: Any) -> "Table":
        table = super().from_db(db, field_names, values, **kwargs)
        if "state" in table.__dict__:
            table.__dict__["_state_stored"] = True  # its history is read when the state is first asked for
        return table

    def _read_history(self) -> None:
        """The whole state from the column's value and the history entries (:class:`_StateDescriptor`)."""
        stored, history = self.__dict__["state"], history_of(self.game)
        if any(isinstance(stored.get(key), int) for key in history):
            cache = getattr(self, "_prefetched_objects_cache", {}).get("history")
            rows = sorted(cache, key=lambda e: e.number) if cache is not None else self.history.order_by("number")
            entries: dict[str, list[Any]] = {}
            for row in rows:
                entries.setdefault(row.key, []).append(row.entry)
            self.__dict__["state"] = whole_state(stored, history, entries)
        self.history_saved()

    def history_saved(self) -> None:
        """Mark the history lists of the state as those the database holds (what :meth:`history_writes` compares)."""
        history = history_of(self.game)
        state = self.state if history else {}
        self.__dict__["_history_saved"] = {key: list(state[key]) for key in history if key in state}

    def history_writes(self) -> tuple[list[dict[str, Any]], dict[str, int]]:
        """What saving the state writes of its history: the entries changed or added since it was read or last saved,
        as rows (``{"key", "number", "entry"}``; entries are never changed in place, ``games.engine.game.own_entry``),
        and the length of each list that may have shrunk (its entries from there on go). Every entry, when the history
        saved is not known."""
        return history_writes(history_of(self.game), self.__dict__.get("_history_saved", {}), self.state)


class HistoryEntry(models.Model):
    """One entry of a table's history list (``Game.history``: a Grabble turn's play, with its quiz), kept apart from
    the rest of the state. A long game's history is most of its state, and a move changes or adds one entry of it:
    written whole with the state, it made a move's write grow with the game (bench/README.md). ``Table.state`` is
    always the whole state; the table's column holds the rest, each history list's length in its place."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="history")
    key = models.CharField(max_length=50, help_text="The state's key of the list (Game.history).")
    number = models.PositiveIntegerField(help_text="The entry's place in its list, from 0.")
    entry = models.JSONField()

    class Meta:
        ordering = ["table", "key", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "key", "number"], name="unique_history_entry")]

    def __str__(self) -> str:
        return f"{self.key}[{self.number}] of {self.table}"


class Seat(models.Model):
    """A place at a table: a student's, or a robot's (``robot`` is its level, and it has no student). A removed
    player keeps the row (the seat numbers of the game stay fixed)."""

    class Robot(models.TextChoices):
        BEGINNER = "beginner", "Beginner robot"
        STEADY = "steady", "Steady robot"
        STRONG = "strong", "Strong robot"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    student = models.ForeignKey(
        "learning.Student", null=True, blank=True, on_delete=models.CASCADE, related_name="seats"
    )
    robot = models.CharField(max_length=10, blank=True, default="", choices=Robot.choices)
    removed = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_seat_number"),
            models.UniqueConstraint(fields=["table", "student"], name="one_seat_per_student_per_table"),
            models.CheckConstraint(
                condition=models.Q(student__isnull=False, robot="")
                | models.Q(student__isnull=True) & ~models.Q(robot=""),
                name="seat_is_a_student_or_a_robot",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.table}"


class Move(models.Model):
    """One entry of a table's append-only log. ``seq`` 0 is the deal (``new_game``); every later entry is an
    action or a removal, applied at the time ``created`` (which is also the ``now`` the rules were given)."""

    class Kind(models.TextChoices):
        START = "start", "Start"
        ACTION = "action", "Action"
        REMOVAL = "removal", "Player removed"
        SEATED = "seated", "Player seated"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ACTION)
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: the teacher.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.JSONField(default=dict, blank=True)
    events = models.JSONField(default=list, blank=True, help_text="Uncensored: never send these as they are.")
    created = models.DateTimeField(default=timezone.now)
    recordable = models.BooleanField(
        default=True,
        help_text="False: the move met no words (a draw, a discard), so learning has nothing to record of it.",
    )
    # Not saved: the rows of the game's record this move changed (``Game.changed_rows``; ``None``: any), which its
    # broadcast carries in place of the whole record.
    changed_rows: list[int] | None = None

    class Meta:
        ordering = ["table", "seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="unique_move_seq")]

    def __str__(self) -> str:
        return f"move {self.seq} of {self.table}"
