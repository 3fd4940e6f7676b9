"""Games: lessons, their tables, the seats at them and each table's move log.

The rules (``games/rules``) are pure; these rows are what makes a game survive a restart. A table keeps its current
state and version; the move log keeps every action with the events it caused (uncensored), so the state can also be
rebuilt by replaying the log from the table's seed and options. ``services.py`` does every write.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone


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
    state = models.JSONField()
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
