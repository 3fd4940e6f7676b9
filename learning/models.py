"""Classes, their students, and the people who use the platform."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower


class User(AbstractUser):
    """Every account. Teachers sign up with a password; students are created when they join a class
    and log in with their rejoin code (they have no e-mail and no usable password)."""

    class Role(models.TextChoices):
        TEACHER = "teacher", "Teacher"
        STUDENT = "student", "Student"

    role = models.CharField(max_length=10, choices=Role.choices, default=Role.TEACHER)

    @property
    def is_teacher(self) -> bool:
        return self.role == self.Role.TEACHER

    @property
    def is_student(self) -> bool:
        return self.role == self.Role.STUDENT


class Classroom(models.Model):
    """A teacher's class. Students join it with ``join_code`` unless the teacher has locked it."""

    class Language(models.TextChoices):
        GREEK = "grc", "Koine Greek"
        SPANISH = "spa", "Spanish"
        ENGLISH = "eng", "English"

    teacher = models.ForeignKey(User, on_delete=models.CASCADE, related_name="classrooms")
    name = models.CharField(max_length=100)
    language = models.CharField(max_length=3, choices=Language.choices)
    join_code = models.CharField(max_length=8, unique=True)
    locked = models.BooleanField(default=False, help_text="A locked class accepts no new students.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class Student(models.Model):
    """A student's place in one class. Removing a student deactivates them rather than deleting them,
    so what they learned stays in the class's records."""

    NAME_MAX_LENGTH = 30

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="student")
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="students")
    display_name = models.CharField(max_length=NAME_MAX_LENGTH)
    rejoin_code = models.CharField(max_length=12, unique=True)
    active = models.BooleanField(default=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                "classroom",
                condition=models.Q(active=True),
                name="unique_active_student_name_per_class",
            )
        ]

    def __str__(self) -> str:
        return self.display_name


# -- learning records ----------------------------------------------------------------------------------------------
# Games report what each player met in a move as ``games.engine.encounters.WordEncounter``s; ``learning.encounters``
# stores them here, for every game alike. Games' rows are referred to by plain ids (lesson, table, move): the records
# outlive tables and must not tie this app's migrations to the games app's.


class Encounter(models.Model):
    """One student meeting one word in one move. The word's lemma, part of speech, gloss and frequency are copied
    from the lexicon when recorded, so later lexicon edits (or re-imports, which replace every entry) never rewrite
    what a student did; ``entry`` is the entry matched at the time and may no longer exist."""

    class Kind(models.TextChoices):
        PLAYED = "played", "Played"
        SEEN = "seen", "Seen on the table"
        PARSED = "parsed", "Parsed at play"
        QUIZZED = "quizzed", "Quizzed"
        TAUGHT = "taught", "Taught to others"

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="encounters")
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="encounters")
    lexicon = models.ForeignKey("lexicons.Lexicon", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # DO_NOTHING and no database constraint: a lexicon re-import deletes its entries in bulk, and must stay fast.
    entry = models.ForeignKey(
        "lexicons.Entry", null=True, blank=True, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    key = models.CharField(max_length=100)
    form = models.CharField(max_length=100, help_text="As shown in the game, NFC.")
    lemma = models.CharField(max_length=100, blank=True)
    pos = models.CharField(max_length=30, blank=True)
    gloss = models.TextField(blank=True)
    frequency = models.FloatField(null=True, blank=True)
    rare = models.BooleanField(default=False, help_text="Rare by the lexicon's frequencies (learning.reports).")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    correct = models.BooleanField(null=True, blank=True, help_text="Empty when nothing was marked.")
    expected = models.JSONField(default=dict, blank=True, help_text="The correct parse fields (Greek).")
    given = models.JSONField(default=dict, blank=True, help_text="The parse fields the student gave.")
    wrong_fields = models.JSONField(default=list, blank=True)
    game = models.CharField(max_length=50)
    lesson_id = models.BigIntegerField(null=True, blank=True)
    table_id = models.BigIntegerField(null=True, blank=True)
    move_id = models.BigIntegerField(null=True, blank=True)
    turn = models.PositiveIntegerField(null=True, blank=True)
    practice = models.BooleanField(default=False, help_text="Met in a practice game against robots.")
    created = models.DateTimeField(help_text="When the move was made.")

    class Meta:
        ordering = ["created", "id"]
        constraints = [
            models.UniqueConstraint(fields=["move_id", "student", "key", "kind"], name="one_encounter_per_move_word")
        ]
        indexes = [
            models.Index(fields=["classroom", "student"], name="learning_enc_class_student"),
            models.Index(fields=["student", "key"], name="learning_enc_student_key"),
        ]

    def __str__(self) -> str:
        return f"{self.student} {self.kind} {self.form}"


class RecordedMove(models.Model):
    """Marks a move whose encounters are stored, so a retried or repeated recording job changes nothing."""

    move_id = models.BigIntegerField(unique=True)
    encounters = models.PositiveIntegerField(default=0)
    recorded = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"move {self.move_id}: {self.encounters} encounters"


class ReviewItem(models.Model):
    """A word on a student's review list with its memory model's card (``learning.srs`` has the schedule): stability
    in days, difficulty 1–10, state (0 new, then the FSRS states 1 learning, 2 review, 3 relearning), due day."""

    NEW = 0

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="review_items")
    lexicon = models.ForeignKey("lexicons.Lexicon", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    language = models.CharField(max_length=3)
    key = models.CharField(max_length=100)
    form = models.CharField(max_length=100)
    lemma = models.CharField(max_length=100, blank=True)
    pos = models.CharField(max_length=30, blank=True)
    parse = models.JSONField(default=dict, blank=True)
    gloss = models.TextField(blank=True)
    state = models.PositiveSmallIntegerField(default=NEW)
    stability = models.FloatField(null=True, blank=True, help_text="Days until predicted recall falls to 90%.")
    difficulty = models.FloatField(null=True, blank=True)
    due = models.DateField()
    reviews = models.PositiveIntegerField(default=0)
    right = models.PositiveIntegerField(default=0)
    last_reviewed = models.DateTimeField(null=True, blank=True)
    added = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["due", "stability", "form"]
        constraints = [models.UniqueConstraint(fields=["student", "key", "lemma"], name="one_review_item_per_word")]
        indexes = [models.Index(fields=["student", "due"], name="learning_review_due")]

    def __str__(self) -> str:
        return f"{self.form} (due {self.due})"


class Report(models.Model):
    """A report job and, once built, its figures: a stored snapshot, never recomputed when shown.

    A class report is built with one report per student of the class (``parent`` is the class report); a
    student's report can also be built on its own. ``lesson_id`` is the lesson whose end built it (at most one
    class report per lesson), empty for reports built on demand."""

    class Scope(models.TextChoices):
        CLASS = "class", "Class"
        STUDENT = "student", "Student"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    scope = models.CharField(max_length=10, choices=Scope.choices)
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="reports")
    student = models.ForeignKey(Student, null=True, blank=True, on_delete=models.CASCADE, related_name="reports")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="children")
    lesson_id = models.BigIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    percent = models.PositiveSmallIntegerField(default=0)
    figures = models.JSONField(default=dict, blank=True)
    error_message = models.TextField(blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True, help_text="While running: the worker's last progress.")
    requested_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["classroom", "lesson_id"],
                condition=models.Q(scope="class", lesson_id__isnull=False),
                name="one_class_report_per_lesson",
            )
        ]
        indexes = [models.Index(fields=["classroom", "scope", "status"], name="learning_report_lookup")]

    def __str__(self) -> str:
        return f"{self.scope} report {self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
