"""Lexicons: named, versioned word lists games validate against.

An import writes its entries under a new *staged* version number while the lexicon keeps serving its current
``version``; only when every entry is in does one short transaction make the new version current and delete the old
entries. A failed import deletes its staged rows and leaves the previous version in place and usable.
"""

from django.conf import settings
from django.db import models

from lexicons.languages import language_name


class Lexicon(models.Model):
    class Status(models.TextChoices):
        IMPORTING = "importing", "Importing"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=50, unique=True, null=True, blank=True, help_text="Only bundled lexicons.")
    language = models.CharField(max_length=3, help_text="ISO 639-3 code: grc, spa, eng, …")
    version = models.PositiveIntegerField(default=0, help_text="The entries currently served; 0 = none yet.")
    last_version = models.PositiveIntegerField(default=0, help_text="The last version number given to an import.")
    source = models.CharField(max_length=300, blank=True)
    licence = models.CharField(max_length=300, blank=True)
    format = models.CharField(max_length=20, blank=True)
    frequency_kind = models.CharField(
        max_length=10, blank=True, help_text='What Entry.frequency means: "zipf", "count" or "" (given by the file).'
    )
    entry_count = models.PositiveIntegerField(default=0)
    bundle_digest = models.CharField(max_length=64, blank=True, help_text="Bundled lexicons: digest of the data file.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.IMPORTING)
    error_message = models.TextField(blank=True, help_text="Why the last import failed (empty when it did not).")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lexicons",
        help_text="Empty for bundled lexicons.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["language", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.language})"

    @property
    def language_name(self) -> str:
        """The language's name for pages ("Koine Greek", not "grc")."""
        return language_name(self.language)

    @property
    def is_usable(self) -> bool:
        """Whether games can use it: some version has been imported completely."""
        return self.version > 0

    @property
    def is_bundled(self) -> bool:
        return self.slug is not None


class Entry(models.Model):
    """One written form with one analysis. One key maps to many entries (ἡ, ἤ, ᾗ all have key Η)."""

    # No index of its own: the key index below begins with the lexicon, so it serves a lexicon's rows (its deletion,
    # a version's clean-up) as well, and a second index would slow every import's writes.
    lexicon = models.ForeignKey(Lexicon, on_delete=models.CASCADE, related_name="entries", db_index=False)
    version = models.PositiveIntegerField()
    form = models.CharField(max_length=100, help_text="As written, NFC.")
    key = models.CharField(max_length=100, help_text="The normalised form games look up (lexicons.normalise).")
    lemma = models.CharField(max_length=100, blank=True)
    pos = models.CharField(max_length=30, blank=True)
    parse = models.JSONField(default=dict, blank=True, help_text='Structured fields, e.g. {"case": "N"}.')
    gloss = models.TextField(blank=True)
    frequency = models.FloatField(null=True, blank=True)

    class Meta:
        indexes = [
            # The one index: every lookup goes by key (a form's key finds the form too), and a lexicon's rows by
            # its first column. Each extra index slows imports (bench/lexicons).
            models.Index(fields=["lexicon", "version", "key"], name="lexicons_entry_key"),
        ]

    def __str__(self) -> str:
        return self.form


class ImportJob(models.Model):
    """One import of files into a lexicon, run by a Celery task; the progress page polls it."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    lexicon = models.ForeignKey(Lexicon, on_delete=models.CASCADE, related_name="imports")
    format = models.CharField(max_length=20)
    files = models.JSONField(default=list, help_text="Paths of the uploaded files, deleted when the job ends.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    percent = models.PositiveSmallIntegerField(default=0)
    entries_done = models.PositiveIntegerField(default=0)
    error_message = models.TextField(blank=True)
    # While running: when the worker last reported progress (a job silent for long has lost its worker), and the
    # version its rows are staged under (deleted if it dies).
    heartbeat = models.DateTimeField(null=True, blank=True)
    staged_version = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"import into {self.lexicon} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
