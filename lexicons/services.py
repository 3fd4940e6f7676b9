"""Every write to lexicons, and the word lists games check words against.

Imports stream records from :mod:`lexicons.loaders` into rows of a staged version in batches (COPY on PostgreSQL,
``executemany`` elsewhere), then swap versions in one short transaction (see :mod:`lexicons.models`). Word lists keep
the keys of each (lexicon, version) in memory once per process, as a frozenset: a key check is one set lookup.
"""

import hashlib
import json
import logging
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import connection, models, transaction
from django.db.models import F, ProtectedError
from django.utils import timezone

from config.celery import publish, send_lost_again
from config.yielding import Yielding, take_slot
from lexicons.loaders import (
    DEFAULT_MAX_BYTES,
    LexiconImportError,
    Limits,
    Progress,
    Record,
    check_files,
    read_records,
)
from lexicons.models import Entry, ImportJob, Lexicon
from lexicons.normalise import key_function

logger = logging.getLogger(__name__)

BATCH_SIZE = 5000
COPY_BATCH_SIZE = 50000  # PostgreSQL: fewer, larger COPYs (bench/lexicons)
MAX_FORM_LENGTH: int = Entry._meta.get_field("form").max_length or 0
# Columns with a length, in the words of an error message.
_LENGTHS: dict[str, tuple[int, str]] = {
    name: (cast("models.Field", Entry._meta.get_field(name)).max_length or 0, label)
    for name, label in (("form", "word"), ("key", "word's key"), ("lemma", "lemma"), ("pos", "part of speech"))
}
DATA_DIR = Path(__file__).resolve().parent / "data"
_COLUMNS = ("lexicon_id", "version", "form", "key", "lemma", "pos", "parse", "gloss", "frequency")

ProgressCallback = Callable[[float, int], None]
"""Called after each batch with (fraction of the input read, entries written so far)."""


@dataclass(frozen=True)
class EntryLimits:
    """How many entries one import may write, and one teacher own across their lexicons (None: no limit)."""

    per_upload: int | None = None
    per_teacher: int | None = None


def upload_limits() -> tuple[Limits, EntryLimits]:
    """The limits of a teacher's upload, from the settings (see the README's "Limits")."""
    return (
        Limits(
            text_bytes=settings.LEXICON_MAX_TEXT_BYTES,
            line_bytes=settings.LEXICON_MAX_LINE_BYTES,
            forms_per_stem=settings.LEXICON_MAX_FORMS_PER_STEM,
        ),
        EntryLimits(per_upload=settings.LEXICON_MAX_ENTRIES, per_teacher=settings.LEXICON_MAX_ENTRIES_PER_TEACHER),
    )


class LexiconNotReady(ValueError):
    """The lexicon has no complete version yet (its first import is running or failed)."""


# --- importing -------------------------------------------------------------------------------------------------------


def import_lexicon(
    lexicon: Lexicon,
    fmt: str,
    paths: Iterable[Path | str],
    *,
    on_progress: ProgressCallback | None = None,
    on_staged: Callable[[int], None] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    limits: Limits | None = None,
    entry_limits: EntryLimits | None = None,
) -> int:
    """Import ``paths`` (format ``fmt``) as the new version of ``lexicon``; returns the number of entries.

    ``limits`` bound what the files expand to and ``entry_limits`` the entries written, both checked as the rows
    stream in (so a refused upload stops early, never after writing everything).

    On any error the staged rows are deleted, the lexicon keeps serving its previous version, the error is recorded
    on the lexicon (``status`` becomes failed only if there is no previous version) and the error is raised again.
    """
    files = [Path(p) for p in paths]
    try:
        progress = Progress(check_files(files, max_bytes))
        staged = _claim_version(lexicon)
        if on_staged is not None:
            on_staged(staged)
    except LexiconImportError as exc:
        _record_failure(lexicon, exc)
        raise
    try:
        records = read_records(fmt, files, progress, lexicon.language, limits)
        ceiling = _entry_ceiling(lexicon, entry_limits or EntryLimits())
        count = _write_entries(lexicon, staged, records, progress, on_progress, ceiling)
        count -= _drop_repeats(lexicon.pk, staged)
        if count == 0:
            raise LexiconImportError("no words found: every line was blank, a comment, or not a game word")
    except BaseException as exc:
        _delete_version(lexicon.pk, staged)
        _record_failure(lexicon, exc)
        raise
    _swap_version(lexicon, staged, count, fmt)
    return count


def _entry_ceiling(lexicon: Lexicon, limits: EntryLimits) -> tuple[int, str] | None:
    """(most rows this import may write, why) from the limits per upload and per teacher."""
    ceilings: list[tuple[int, str]] = []
    if limits.per_upload is not None:
        ceilings.append((limits.per_upload, f"more than {limits.per_upload:,} entries, the limit of one lexicon"))
    if limits.per_teacher is not None and lexicon.owner_id is not None:
        others = (
            Lexicon.objects.filter(owner_id=lexicon.owner_id)
            .exclude(pk=lexicon.pk)
            .aggregate(total=models.Sum("entry_count"))["total"]
            or 0
        )
        ceilings.append(
            (
                max(limits.per_teacher - others, 0),
                f"more entries than your other lexicons leave room for ({others:,} of your limit of "
                f"{limits.per_teacher:,} entries are used; delete a lexicon you no longer need)",
            )
        )
    return min(ceilings) if ceilings else None


def _claim_version(lexicon: Lexicon) -> int:
    """A version number no other import of this lexicon uses."""
    Lexicon.objects.filter(pk=lexicon.pk).update(last_version=F("last_version") + 1)
    return Lexicon.objects.values_list("last_version", flat=True).get(pk=lexicon.pk)


def _record_failure(lexicon: Lexicon, exc: BaseException) -> None:
    message = str(exc) if isinstance(exc, LexiconImportError) else "the import stopped because of an internal error"
    lexicon.refresh_from_db()
    lexicon.error_message = message
    if not lexicon.is_usable:
        lexicon.status = Lexicon.Status.FAILED
    lexicon.save(update_fields=["error_message", "status", "updated"])


def _swap_version(lexicon: Lexicon, staged: int, count: int, fmt: str) -> None:
    with transaction.atomic():
        current = Lexicon.objects.select_for_update().get(pk=lexicon.pk)
        old = current.version
        current.version = staged
        current.entry_count = count
        current.status = Lexicon.Status.READY
        current.error_message = ""
        current.format = fmt
        current.save()
    # Outside the swap: no reader asks for the old version any more, so its rows can go at leisure.
    _delete_version(lexicon.pk, old)
    lexicon.refresh_from_db()


def _delete_version(lexicon_id: int, version: int) -> None:
    if version:
        Entry.objects.filter(lexicon_id=lexicon_id, version=version).delete()


def _rows(lexicon: Lexicon, version: int, records: Iterator[Record]) -> Iterator[tuple]:
    """Database rows for the records that are game words; others (hyphenated, abbreviations, numbers) are skipped."""
    key_of = key_function(lexicon.language)
    for record in records:
        form = unicodedata.normalize("NFC", record.form.strip())
        key = key_of(form)
        if not key.isalpha():
            continue
        for name, value in (("form", form), ("key", key), ("lemma", record.lemma), ("pos", record.pos)):
            longest, label = _LENGTHS[name]
            if len(value) > longest:
                raise LexiconImportError(
                    f"the {label} {value[:30]!r}… is {len(value)} characters long, over the limit of {longest}",
                    file=record.file or None,
                    line=record.line or None,
                )
        parse = json.dumps(record.parse, ensure_ascii=False)
        yield (lexicon.pk, version, form, key, record.lemma, record.pos, parse, record.gloss, record.frequency)


def _write_entries(
    lexicon: Lexicon,
    version: int,
    records: Iterator[Record],
    progress: Progress,
    on_progress: ProgressCallback | None,
    ceiling: tuple[int, str] | None = None,
) -> int:
    count = 0
    batch: list[tuple] = []
    size = COPY_BATCH_SIZE if connection.vendor == "postgresql" else BATCH_SIZE
    most, why = ceiling or (None, "")
    for written, row in enumerate(_rows(lexicon, version, records), 1):
        if most is not None and written > most:
            raise LexiconImportError(f"the upload expands to {why}")
        batch.append(row)
        if len(batch) >= size:
            count += _insert(batch)
            batch.clear()
            if on_progress:
                on_progress(progress.fraction, count)
    if batch:
        count += _insert(batch)
    if on_progress:
        on_progress(1.0, count)
    return count


def _drop_repeats(lexicon_id: int, version: int) -> int:
    """Delete the staged rows that repeat an analysis already there (a line uploaded twice, 300,000 times …), keeping
    the one with the highest frequency; returns how many went. Done in the database after the streamed insert, so
    memory stays bounded however many lines the upload has."""
    table = Entry._meta.db_table
    analysis = "key, form, lemma, pos, parse, gloss"
    sql = f"""
        DELETE FROM {table} WHERE id IN (
            SELECT id FROM (
                SELECT id, ROW_NUMBER() OVER (
                    PARTITION BY {analysis} ORDER BY frequency IS NULL, frequency DESC, id
                ) AS n
                FROM {table} WHERE lexicon_id = %s AND version = %s
            ) AS numbered WHERE n > 1
        )"""  # noqa: S608 - table and column names are ours, values are parameters
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, [lexicon_id, version])
        return max(cursor.rowcount, 0)


def _insert(rows: list[tuple]) -> int:
    """Insert one batch in its own transaction (in autocommit mode SQLite would commit, and sync, every row)."""
    table = Entry._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({', '.join(_COLUMNS)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            placeholders = ", ".join(["%s"] * len(_COLUMNS))
            cursor.executemany(f"INSERT INTO {table} ({', '.join(_COLUMNS)}) VALUES ({placeholders})", rows)  # noqa: S608
    return len(rows)


# --- uploads and the Celery job --------------------------------------------------------------------------------------


def start_upload(lexicon: Lexicon | None, name: str, language: str, fmt: str, paths: list[str], user: Any) -> ImportJob:
    """A teacher's upload: import ``paths`` into ``lexicon`` (replacing its words), or into a new lexicon of
    theirs called ``name`` when ``lexicon`` is None."""
    with transaction.atomic():
        if lexicon is None:
            lexicon = Lexicon.objects.create(
                name=name, language=language, owner=user, source="uploaded by " + user.get_username()
            )
        return start_import(lexicon, fmt, paths, user)


def start_import(lexicon: Lexicon, fmt: str, paths: list[str], user=None) -> ImportJob:
    """Record an import job and enqueue it once the current transaction commits (the task must see the job)."""
    job = ImportJob.objects.create(lexicon=lexicon, format=fmt, files=[str(p) for p in paths], created_by=user)
    transaction.on_commit(lambda: _send(job.pk))
    return job


def run_import_job(job_id: int) -> None:
    """Run one import job, recording progress and the outcome on the job row; removes the uploaded files."""
    job = ImportJob.objects.select_related("lexicon").get(pk=job_id)
    queued = ImportJob.objects.filter(pk=job.pk, status=ImportJob.Status.QUEUED)
    # Claimed by one worker only: a message delivered twice (sent again by the sweep, or redelivered after a
    # worker died) finds the job running, finished or failed, and leaves it alone, without waiting for a slot. A job
    # waits for a slot among the long jobs (config/yielding.py); meanwhile its heartbeat tells the sweep that it is
    # not lost.
    if not queued.exists():
        return
    claimed = take_slot(
        lambda: queued.update(status=ImportJob.Status.RUNNING, heartbeat=timezone.now()) == 1,
        waiting=lambda: queued.update(heartbeat=timezone.now()),
    )
    if not claimed:
        return

    yielding = Yielding(settings.LEXICON_IMPORT_TIME_LIMIT)

    def on_progress(fraction: float, entries: int) -> None:
        ImportJob.objects.filter(pk=job.pk).update(
            percent=min(int(fraction * 100), 99), entries_done=entries, heartbeat=timezone.now()
        )
        yielding.batch_done()  # a pause while tables are playing

    def on_staged(version: int) -> None:
        ImportJob.objects.filter(pk=job.pk).update(staged_version=version, heartbeat=timezone.now())

    limits, entry_limits = upload_limits()
    try:
        count = import_lexicon(
            job.lexicon,
            job.format,
            job.files,
            on_progress=on_progress,
            on_staged=on_staged,
            max_bytes=settings.LEXICON_UPLOAD_MAX_BYTES,
            limits=limits,
            entry_limits=entry_limits,
        )
    except LexiconImportError as exc:
        _finish(job, ImportJob.Status.FAILED, error=str(exc))
    except SoftTimeLimitExceeded:
        minutes = settings.LEXICON_IMPORT_TIME_LIMIT // 60
        _finish(job, ImportJob.Status.FAILED, error=f"The import took longer than its limit of {minutes} minutes.")
    except Exception:
        logger.exception("lexicon import job %s failed", job.pk)
        _finish(job, ImportJob.Status.FAILED, error="The import stopped because of an internal error.")
    else:
        _finish(job, ImportJob.Status.DONE, entries=count)
    finally:
        for path in job.files:
            Path(path).unlink(missing_ok=True)


WORKER_GONE = "The import stopped: the worker running it went away. Upload the files again to try once more."


def sweep_imports(job: ImportJob | None = None) -> None:
    """Put right what a dead worker or a lost message left (``job``, or every job): a running job whose worker has
    been silent past ``IMPORT_HEARTBEAT_TIMEOUT`` is marked failed and its staged rows deleted (the lexicon keeps
    its version), so the lexicon can be replaced again; a job still queued after ``JOB_RESEND_AFTER`` (its message
    lost while the broker was down) is sent again. Called by the progress page's polling and when a worker starts."""
    now = timezone.now()
    jobs = ImportJob.objects.filter(pk=job.pk) if job is not None else ImportJob.objects.all()
    silent = now - timedelta(seconds=settings.IMPORT_HEARTBEAT_TIMEOUT)
    for dead in jobs.filter(status=ImportJob.Status.RUNNING, heartbeat__lt=silent).select_related("lexicon"):
        with transaction.atomic():
            if not ImportJob.objects.filter(pk=dead.pk, status=ImportJob.Status.RUNNING).update(
                status=ImportJob.Status.FAILED, error_message=WORKER_GONE, finished=now
            ):
                continue  # someone else reaped it
            if dead.staged_version and dead.staged_version != dead.lexicon.version:
                _delete_version(dead.lexicon_id, dead.staged_version)
            _record_failure(dead.lexicon, LexiconImportError(WORKER_GONE))
    send_lost_again(jobs, now, _send)


def _send(job_id: int) -> None:
    """Publish the job's message; a broker that is down leaves the job queued for the next sweep."""
    from lexicons.tasks import run_import

    publish(run_import, job_id, what=f"import job {job_id} (it stays queued)")


def _finish(job: ImportJob, status: str, *, error: str = "", entries: int | None = None) -> None:
    update: dict[str, Any] = {"status": status, "error_message": error, "finished": timezone.now()}
    if status == ImportJob.Status.DONE:
        update.update(percent=100, entries_done=entries)
    ImportJob.objects.filter(pk=job.pk).update(**update)


class LexiconInUse(ValueError):
    """A lexicon that past or running lessons used cannot be deleted: their tables refer to it."""


def delete_lexicon(lexicon: Lexicon) -> None:
    """Delete a lexicon and its entries (callers check ownership). Raises :class:`LexiconInUse` when a lesson used
    it: its games' records (and their replays) keep the lexicon they were played with."""
    try:
        with transaction.atomic():
            lexicon.delete()
    except ProtectedError:
        raise LexiconInUse(
            f"{lexicon.name} cannot be deleted: lessons have been played with it, and their records keep it. "
            "Upload a new version to change its words instead."
        ) from None
    _forget(lexicon.pk)


# --- bundled lexicons ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bundled:
    slug: str
    name: str
    language: str
    file: str
    source: str
    licence: str
    frequency_kind: str

    @property
    def path(self) -> Path:
        return DATA_DIR / self.file

    def digest(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


BUNDLED: tuple[Bundled, ...] = (
    Bundled(
        "koine-greek",
        "Koine Greek (MorphGNT SBLGNT)",
        "grc",
        "grc-morphgnt.tsv.gz",
        "MorphGNT SBLGNT 6.x (forms, lemmas, parses; token counts as frequency); glosses from the MorphGNT "
        "morphological lexicon, James K. Tauber et al.",
        "CC BY-SA 3.0 (analysis, glosses); SBLGNT text CC BY 4.0",
        "count",
    ),
    Bundled(
        "spanish",
        "Spanish (hunspell-es)",
        "spa",
        "spa-hunspell.tsv.gz",
        "Debian hunspell-es (es_ES, LibreOffice dictionaries, Santiago Bosio) expanded with spylls; "
        "wordfreq zipf frequencies",
        "GPL-3+ or LGPL-3+ or MPL-1.1+ (word list); wordfreq data CC BY-SA 4.0",
        "zipf",
    ),
    Bundled(
        "english",
        "English (ENABLE)",
        "eng",
        "eng-enable.tsv.gz",
        "ENABLE2K word list; wordfreq zipf frequencies",
        "public domain (word list); wordfreq data CC BY-SA 4.0",
        "zipf",
    ),
)


# The bundled files are ours: only the memory bounds apply (a line, not a file, at a time).
_BUNDLED_LIMITS = Limits(text_bytes=1 << 34)


def load_bundled_lexicons(
    slugs: Iterable[str] | None = None,
    *,
    report: Callable[[str], None] | None = None,
    on_progress: Callable[[Bundled], ProgressCallback | None] | None = None,
) -> dict[str, Lexicon]:
    """Make sure each bundled lexicon is loaded from its current data file (idempotent: an up-to-date one is left
    alone). Returns the lexicons by slug."""
    wanted = set(slugs) if slugs is not None else {b.slug for b in BUNDLED}
    loaded: dict[str, Lexicon] = {}
    for bundle in BUNDLED:
        if bundle.slug not in wanted:
            continue
        digest = bundle.digest()
        lexicon, _ = Lexicon.objects.get_or_create(
            slug=bundle.slug, defaults={"name": bundle.name, "language": bundle.language}
        )
        if lexicon.is_usable and lexicon.bundle_digest == digest:
            if report:
                report(f"{bundle.name}: up to date ({lexicon.entry_count:,} entries)")
            loaded[bundle.slug] = lexicon
            continue
        if report:
            report(f"{bundle.name}: loading {bundle.file}")
        Lexicon.objects.filter(pk=lexicon.pk).update(
            name=bundle.name,
            language=bundle.language,
            source=bundle.source,
            licence=bundle.licence,
            frequency_kind=bundle.frequency_kind,
        )
        lexicon.refresh_from_db()
        callback = on_progress(bundle) if on_progress else None
        count = import_lexicon(
            lexicon, "csv", [bundle.path], on_progress=callback, max_bytes=1 << 30, limits=_BUNDLED_LIMITS
        )
        Lexicon.objects.filter(pk=lexicon.pk).update(bundle_digest=digest)
        lexicon.refresh_from_db()
        if report:
            report(f"{bundle.name}: {count:,} entries")
        loaded[bundle.slug] = lexicon
    return loaded


# --- word lists for games --------------------------------------------------------------------------------------------


class LexiconWordList:
    """The games engine's ``WordList`` over one version of a lexicon (see ``games/engine/lexicon.py``)."""

    is_word: Callable[[str], bool]

    def __init__(self, lexicon: Lexicon, keys: frozenset[str]) -> None:
        self.language = lexicon.language
        self.lexicon_id = lexicon.pk
        self.version = lexicon.version
        self.identity = _identity(lexicon)
        self.normalise = key_function(lexicon.language)
        # The set's own bound method, not a Python method calling it: a word check then costs one set lookup
        # (bench/lexicons measures it beside a plain set).
        self.is_word = keys.__contains__
        self.size = len(keys)
        self._keys = keys

    def keys(self) -> frozenset[str]:
        """The cached keys themselves (the Grabble move finder builds its trie from them)."""
        return self._keys

    def analyses(self, key: str) -> list[Mapping[str, Any]]:
        """Every distinct analysis of ``key``, most frequent first."""
        rows = (
            Entry.objects.filter(lexicon_id=self.lexicon_id, version=self.version, key=key)
            .order_by(F("frequency").desc(nulls_last=True), "form", "pk")
            .values("form", "lemma", "pos", "parse", "gloss", "frequency")
        )
        seen = set()
        found: list[Mapping[str, Any]] = []
        for row in rows:
            identity = (row["form"], row["lemma"], row["pos"], json.dumps(row["parse"], sort_keys=True), row["gloss"])
            if identity not in seen:
                seen.add(identity)
                found.append(row)
        return found


_cache: dict[int, LexiconWordList] = {}
_cache_lock = threading.Lock()


def word_list(lexicon: Lexicon | int) -> LexiconWordList:
    """The word list of a lexicon's current version; keys are loaded once per process and version.

    Pass a fresh ``Lexicon`` (or its id): a new version is noticed by comparing version numbers."""
    if not isinstance(lexicon, Lexicon):
        lexicon = Lexicon.objects.get(pk=lexicon)
    cached = loaded_word_list(lexicon)
    if cached is not None:
        return cached
    identity = _identity(lexicon)
    with _cache_lock:
        cached = _cache.get(lexicon.pk)
        if cached is None or cached.identity != identity:
            keys = Entry.objects.filter(lexicon_id=lexicon.pk, version=lexicon.version).values_list("key", flat=True)
            cached = LexiconWordList(lexicon, frozenset(keys.iterator(chunk_size=20000)))
            _cache[lexicon.pk] = cached
    return cached


def loaded_word_list(lexicon: Lexicon) -> LexiconWordList | None:
    """The word list of ``lexicon`` (as read, fresh) if this process has its keys loaded already; ``None`` if they
    would have to be read first. Reads nothing (the move on the event loop asks it)."""
    if not lexicon.is_usable:
        raise LexiconNotReady(f"{lexicon.name} has no complete import yet")
    cached = _cache.get(lexicon.pk)
    return cached if cached is not None and cached.identity == _identity(lexicon) else None


def _identity(lexicon: Lexicon) -> tuple:
    """What must match for cached keys to be this lexicon's current ones: a version number alone is not enough
    when a deleted lexicon's id is reused (its creation time tells them apart)."""
    return (lexicon.pk, lexicon.created, lexicon.version)


def _forget(lexicon_id: int) -> None:
    with _cache_lock:
        _cache.pop(lexicon_id, None)
