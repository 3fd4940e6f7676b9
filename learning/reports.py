"""Vocabulary reports: figures computed from the encounters, stored as snapshots in :class:`Report` rows.

A report is built by a Celery job (``learning.tasks.build_report``) when a lesson ends (:func:`lesson_ended`) or
when a teacher or student asks for one (:func:`request_report`), and shown as it was built: its figures are a
JSON snapshot, so later lexicon edits or new games never change a report already made. Each encounter row already
carries the lemma, gloss and rarity copied when it was recorded.

The figures, per student:

- **words met** (every distinct word, by key and lemma, of any kind of encounter) and **words played** (laid down
  by the student), each with lemma and gloss;
- **accuracy**: quiz answers, parses at play, and both together (``right / total`` of the marked encounters);
  for Greek also by part of speech, and **by field** (case, tense, voice, mood, …): a field is counted for every
  marked encounter whose part of speech has it (``lexicons.morphology.fields_for``) and is right unless the game
  named it wrong. **Confusions** count, per field, the value given against the right value ("imperfect for
  aorist"), most frequent first;
- **rare words used**: distinct words played that were rare when played (``learning.rarity`` has the thresholds);
- **learned (known) words**: a word is known when the memory model of the review list (``learning.srs``) predicts
  at least a 90% chance that the student recalls it today; each word shows that estimate (``recall``, a percentage;
  empty for a word never reviewed). **Fading** words are words reviewed at least once whose predicted recall has
  fallen below 90%: the ones to review soon. Lessons still count per lesson, encounters outside any lesson per day;
- **to review next**: the first words of the student's review list, due soonest (``learning.srs``);
- **progress over lessons**: per lesson, words played and marked answers right.

The class report adds the class at a glance: the most-missed words (most wrong answers across the class), the
class's accuracy by field and most frequent confusions, and one summary row per active student (with words known
and words fading).
"""

import json
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from config.yielding import Yielding, take_slot
from lexicons import morphology

from . import srs
from .encounters import record_lesson
from .models import Classroom, Encounter, Report, ReviewItem, Student

logger = logging.getLogger(__name__)

TOP = 10  # how many most-missed words, confusions and review words a report lists
STALE_JOB = timedelta(minutes=10)  # an unfinished job older than this is presumed lost and may be asked again

JSON_FIELDS = ("expected", "given", "wrong_fields")
ROW = (
    "student_id",
    "key",
    "form",
    "lemma",
    "pos",
    "gloss",
    "rare",
    "kind",
    "correct",
    "expected",
    "given",
    "wrong_fields",
    "lesson_id",
    "practice",
    "created",
)


def percent(right: int, total: int) -> int | None:
    return round(100 * right / total) if total else None


def _score(right: int, total: int) -> dict[str, Any]:
    return {"right": right, "total": total, "percent": percent(right, total)}


def _pos_label(pos: str) -> str:
    return morphology.POS.get(pos, pos)


def _value_label(field: str, value: str) -> str:
    return morphology.label(field, value) if value else "(nothing)"


class _Word:
    """One word of one student: counts per kind, marked answers and the lessons that count towards learning it."""

    __slots__ = (
        "form",
        "gloss",
        "key",
        "kinds",
        "last",
        "lemma",
        "lessons",
        "pos",
        "rare_played",
        "recall",
        "right",
        "wrong",
    )

    def __init__(self, key: str, form: str, lemma: str, pos: str, gloss: str) -> None:
        self.key, self.form, self.lemma, self.pos, self.gloss = key, form, lemma, pos, gloss
        self.rare_played = False
        self.kinds: Counter[str] = Counter()
        self.right = self.wrong = 0
        self.lessons: set[Any] = set()
        self.last: bool | None = None  # the latest marked answer
        self.recall: float | None = None  # the model's predicted recall today; None: never reviewed

    @property
    def learned(self) -> bool:
        return self.recall is not None and self.recall >= srs.KNOWN

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "form": self.form,
            "lemma": self.lemma,
            "pos": self.pos,
            "gloss": self.gloss,
            "played": self.kinds[Encounter.Kind.PLAYED],
            "met": sum(self.kinds.values()),
            "right": self.right,
            "wrong": self.wrong,
            "rare": self.rare_played,
            "learned": self.learned,
            "recall": None if self.recall is None else round(100 * self.recall),
        }


class _Lesson:
    __slots__ = ("date", "played", "right", "total")

    def __init__(self, date: datetime) -> None:
        self.date = date
        self.played: set[tuple[str, str]] = set()
        self.right = self.total = 0


class StudentTally:
    """Every figure of one student's report, accumulated one encounter row (in time order) at a time."""

    def __init__(self, student: Student, greek: bool) -> None:
        self.student = student
        self.greek = greek
        self.words: dict[tuple[str, str], _Word] = {}
        self.quiz = [0, 0]
        self.parse = [0, 0]
        self.marked = [0, 0]
        self.by_pos: dict[str, list[int]] = {}
        self.by_field: dict[str, list[int]] = {}
        self.confusions: Counter[tuple[str, str, str]] = Counter()
        self.lessons: dict[Any, _Lesson] = {}
        self.practice_words: set[tuple[str, str]] = set()  # met in practice games against robots

    def add(self, row: tuple) -> None:
        (
            _,
            key,
            form,
            lemma,
            pos,
            gloss,
            rare,
            kind,
            correct,
            expected,
            given,
            wrong_fields,
            lesson_id,
            practice,
            created,
        ) = row
        word_id = (key, lemma)
        if practice:
            self.practice_words.add(word_id)
        word = self.words.get(word_id)
        if word is None:
            word = self.words[word_id] = _Word(key, form, lemma, pos, gloss)
        word.kinds[kind] += 1
        lesson_key = lesson_id if lesson_id is not None else f"day-{created.date().isoformat()}"
        lesson = self.lessons.get(lesson_key)
        if lesson is None:
            lesson = self.lessons[lesson_key] = _Lesson(created)
        if kind == Encounter.Kind.PLAYED:
            word.lessons.add(lesson_key)
            word.rare_played = word.rare_played or rare
            lesson.played.add(word_id)
        if correct is None:
            return
        word.last = correct
        if correct:
            word.right += 1
            word.lessons.add(lesson_key)
        else:
            word.wrong += 1
        lesson.total += 1
        lesson.right += correct
        self.marked[0] += correct
        self.marked[1] += 1
        if kind == Encounter.Kind.QUIZZED:
            self.quiz[0] += correct
            self.quiz[1] += 1
        elif kind == Encounter.Kind.PARSED:
            self.parse[0] += correct
            self.parse[1] += 1
        wrong_fields = () if correct else json.loads(wrong_fields)
        if self.greek and pos:
            self._add_parse(pos, correct, json.loads(expected), given, wrong_fields)

    def _add_parse(self, pos: str, correct: bool, expected: dict, given: str, wrong_fields: Sequence[str]) -> None:
        tally = self.by_pos.setdefault(pos, [0, 0])
        tally[0] += correct
        tally[1] += 1
        try:
            fields = morphology.fields_for(pos, expected) if expected else ()
        except ValueError:
            return  # a part of speech the Greek vocabulary does not know: no fields to count
        given_fields = json.loads(given) if wrong_fields else {}
        for field in fields:
            tally = self.by_field.setdefault(field, [0, 0])
            tally[1] += 1
            if field in wrong_fields:
                self.confusions[(field, given_fields.get(field, ""), expected.get(field, ""))] += 1
            else:
                tally[0] += 1

    def figures(self, review_next: list[dict[str, Any]], lesson_order: list[Any]) -> dict[str, Any]:
        words = sorted(self.words.values(), key=lambda w: (w.form.casefold(), w.lemma))
        played = [w for w in words if w.kinds[Encounter.Kind.PLAYED]]
        return {
            "student": {"id": self.student.pk, "name": self.student.display_name},
            "greek": self.greek,
            "counts": {
                "words_met": len(words),
                "words_played": len(played),
                "rare_played": sum(w.rare_played for w in played),
                "learned": sum(w.learned for w in words),
                "fading": sum(w.recall is not None and not w.learned for w in words),
                "lessons": len(self.lessons),
            },
            "practice": {"words_met": len(self.practice_words)},
            "accuracy": {"quiz": _score(*self.quiz), "parse": _score(*self.parse), "all": _score(*self.marked)},
            "by_pos": [
                {"pos": pos, "label": _pos_label(pos), **_score(*tally)} for pos, tally in sorted(self.by_pos.items())
            ],
            "by_field": _fields_table(self.by_field),
            "confusions": _confusions_table(self.confusions),
            "words": [w.as_dict() for w in words],
            # forms only: the words themselves are in "words", and a class's figures are stored 30 times over
            "rare_words": [w.form for w in played if w.rare_played],
            "learned_words": [w.form for w in words if w.learned],
            "review_next": review_next,
            "lessons": [
                {
                    "lesson": str(key),
                    "date": self.lessons[key].date.date().isoformat(),
                    "played": len(self.lessons[key].played),
                    **_score(self.lessons[key].right, self.lessons[key].total),
                }
                if key in self.lessons
                else None
                for key in lesson_order
            ],
        }


def _fields_table(by_field: dict[str, list[int]]) -> list[dict[str, Any]]:
    return [
        {"field": field, **_score(*by_field[field])} for field in morphology.FIELDS if by_field.get(field, [0, 0])[1]
    ]


def _confusions_table(confusions: Counter[tuple[str, str, str]]) -> list[dict[str, Any]]:
    ranked = sorted(confusions.items(), key=lambda item: (-item[1], morphology.FIELDS.index(item[0][0]), item[0]))
    return [
        {
            "field": field,
            "given": given,
            "correct": correct,
            "given_label": _value_label(field, given),
            "correct_label": _value_label(field, correct),
            "count": count,
        }
        for (field, given, correct), count in ranked[:TOP]
    ]


def _review_lists(tallies: dict[int, StudentTally]) -> dict[int, list[dict[str, Any]]]:
    """Each student's words due soonest (to review next), and every reviewed word's predicted recall today set on the
    student's words (one query over the class's review lists)."""
    found: dict[int, list[dict[str, Any]]] = {}
    items = (
        ReviewItem.objects.filter(student_id__in=list(tallies))
        .order_by("student_id", "due", "stability", "form", "pk")
        .values_list("student_id", "key", "form", "lemma", "gloss", "stability", "last_reviewed", "due")
    )
    now = timezone.now()
    for student_id, key, form, lemma, gloss, stability, last_reviewed, due in items.iterator(chunk_size=5000):
        recall = srs.recall(stability, last_reviewed, now) if stability else None
        word = tallies[student_id].words.get((key, lemma))
        if word is not None:
            word.recall = recall
        listed = found.setdefault(student_id, [])
        if len(listed) < TOP:
            listed.append(
                {"form": form, "lemma": lemma, "gloss": gloss, "due": due.isoformat()}
                | {"recall": None if recall is None else round(100 * recall)}
            )
    return found


def compute(
    classroom: Classroom, students: list[Student], on_progress: Callable[[float], None] | None = None
) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The class figures and each student's figures, from one pass over the class's encounters in time order."""
    greek = classroom.language == Classroom.Language.GREEK
    tallies = {s.pk: StudentTally(s, greek) for s in students}
    # The JSON fields come as text and are decoded only for the marked rows that need them: decoding every row's
    # JSON was most of the time of a 100,000-encounter report.
    rows = (
        Encounter.objects.filter(classroom=classroom, student_id__in=list(tallies))
        .annotate(**{f"{name}_text": Cast(name, TextField()) for name in JSON_FIELDS})
        .order_by("created", "id")
        .values_list(*(f"{name}_text" if name in JSON_FIELDS else name for name in ROW))
    )
    total = rows.count() if on_progress else 0
    lesson_dates: dict[Any, datetime] = {}
    for done, row in enumerate(rows.iterator(chunk_size=5000), start=1):
        tallies[row[0]].add(row)
        lesson_key = row[12] if row[12] is not None else f"day-{row[-1].date().isoformat()}"
        lesson_dates.setdefault(lesson_key, row[-1])
        if on_progress and done % 5000 == 0:
            on_progress(done / total)
    lesson_order = sorted(lesson_dates, key=lambda key: lesson_dates[key])
    review = _review_lists(tallies)
    per_student = {sid: tally.figures(review.get(sid, []), lesson_order) for sid, tally in tallies.items()}
    return _class_figures(classroom, tallies, per_student, lesson_order, lesson_dates), per_student


def _class_figures(
    classroom: Classroom,
    tallies: dict[int, StudentTally],
    per_student: dict[int, dict[str, Any]],
    lesson_order: list[Any],
    lesson_dates: dict[Any, datetime],
) -> dict[str, Any]:
    by_field: dict[str, list[int]] = {}
    confusions: Counter[tuple[str, str, str]] = Counter()
    missed: dict[tuple[str, str], dict[str, Any]] = {}
    for tally in tallies.values():
        for field, (right, total) in tally.by_field.items():
            sums = by_field.setdefault(field, [0, 0])
            sums[0] += right
            sums[1] += total
        confusions.update(tally.confusions)
        for word_id, word in tally.words.items():
            if not word.right and not word.wrong:
                continue
            entry = missed.get(word_id)
            if entry is None:
                entry = missed[word_id] = {"form": word.form, "lemma": word.lemma, "gloss": word.gloss}
                entry.update(wrong=0, right=0, students=0)
            entry["wrong"] += word.wrong
            entry["right"] += word.right
            entry["students"] += bool(word.wrong)
    ranked = sorted(missed.values(), key=lambda w: (-w["wrong"], w["form"].casefold(), w["lemma"]))
    most_missed = [w for w in ranked if w["wrong"]][:TOP]
    students = sorted(per_student.values(), key=lambda f: f["student"]["name"].casefold())
    return {
        "classroom": {"id": classroom.pk, "name": classroom.name, "language": classroom.language},
        "greek": classroom.language == Classroom.Language.GREEK,
        "lessons": [{"lesson": str(key), "date": lesson_dates[key].date().isoformat()} for key in lesson_order],
        "most_missed": most_missed,
        "by_field": _fields_table(by_field),
        "confusions": _confusions_table(confusions),
        "students": [
            {
                "id": f["student"]["id"],
                "name": f["student"]["name"],
                **f["counts"],
                "quiz": f["accuracy"]["quiz"]["percent"],
                "parse": f["accuracy"]["parse"]["percent"],
                "all": f["accuracy"]["all"]["percent"],
                "progress": [None if lesson is None else lesson["percent"] for lesson in f["lessons"]],
                "played_per_lesson": [0 if lesson is None else lesson["played"] for lesson in f["lessons"]],
            }
            for f in students
        ],
    }


# -- jobs ------------------------------------------------------------------------------------------------------------
def _set_progress(report_id: int, percent_done: int) -> None:
    Report.objects.filter(pk=report_id).update(
        status=Report.Status.RUNNING, percent=percent_done, heartbeat=timezone.now()
    )


def build_report(report_id: int) -> None:
    """Build a report (the Celery job's body). Idempotent: a finished report is left alone, and a job run again
    after a crash rebuilds the same report (a class report's student reports are replaced, not added)."""
    report = Report.objects.select_related("classroom", "student").filter(pk=report_id).first()
    fresh = timezone.now() - timedelta(seconds=settings.REPORT_HEARTBEAT_TIMEOUT)
    unclaimed = (
        Report.objects.filter(pk=report_id)
        .exclude(status=Report.Status.DONE)
        .exclude(status=Report.Status.RUNNING, heartbeat__gt=fresh)  # another worker is building it
    )
    # Claimed by one worker only: a message delivered twice (sent again while the report ran, or after it was done)
    # leaves it alone, without waiting for a slot. A report waits for a slot among the long jobs
    # (config/yielding.py); meanwhile its heartbeat tells the sweep that it is not lost.
    if report is None or not unclaimed.exists():
        return
    claimed = take_slot(
        lambda: unclaimed.update(status=Report.Status.RUNNING, percent=2, heartbeat=timezone.now()) == 1,
        waiting=lambda: Report.objects.filter(pk=report.pk, status=Report.Status.QUEUED).update(
            heartbeat=timezone.now()
        ),
    )
    if not claimed:
        return
    yielding = Yielding(settings.REPORT_TIME_LIMIT)  # pauses between batches while tables are playing

    def on_progress(fraction: float) -> None:
        _set_progress(report.pk, 10 + int(80 * fraction))
        yielding.batch_done()

    try:
        if report.lesson_id is not None:
            record_lesson(report.lesson_id)
        _set_progress(report.pk, 10)
        if report.scope == Report.Scope.STUDENT:
            if report.student is None:
                raise ValueError(f"student report {report.pk} has no student")
            students = [report.student]
        else:
            students = list(report.classroom.students.filter(active=True))
        class_figures, per_student = compute(report.classroom, students, on_progress)
        _set_progress(report.pk, 90)
        now = timezone.now()
        with transaction.atomic():
            if report.scope == Report.Scope.CLASS:
                report.children.all().delete()
                # One insert per student: a bulk insert of large JSON values is much slower here (PostgreSQL bulk
                # inserts send each column as an array, and quoting arrays of long texts is slow).
                for student in students:
                    Report.objects.create(
                        scope=Report.Scope.STUDENT,
                        classroom=report.classroom,
                        student=student,
                        parent=report,
                        lesson_id=report.lesson_id,
                        status=Report.Status.DONE,
                        percent=100,
                        figures=per_student[student.pk],
                        finished=now,
                    )
                    yielding.batch_done()
                report.figures = class_figures
            else:
                report.figures = per_student[students[0].pk]
            report.status, report.percent, report.finished, report.error_message = Report.Status.DONE, 100, now, ""
            report.save(update_fields=["figures", "status", "percent", "finished", "error_message"])
    except SoftTimeLimitExceeded:
        minutes = settings.REPORT_TIME_LIMIT // 60
        Report.objects.filter(pk=report_id).update(
            status=Report.Status.FAILED,
            error_message=f"The report took longer than its limit of {minutes} minutes and was stopped.",
            finished=timezone.now(),
        )
    except Exception as error:
        logger.exception("report %s failed", report_id)
        Report.objects.filter(pk=report_id).update(
            status=Report.Status.FAILED, error_message=str(error)[:500] or type(error).__name__, finished=timezone.now()
        )


def latest(classroom: Classroom, student: Student | None = None) -> Report | None:
    """The newest finished report of the class (``student`` None) or of one student."""
    reports = Report.objects.filter(classroom=classroom, status=Report.Status.DONE)
    if student is None:
        reports = reports.filter(scope=Report.Scope.CLASS)
    else:
        reports = reports.filter(scope=Report.Scope.STUDENT, student=student)
    return reports.order_by("-finished", "-id").first()


def pending(classroom: Classroom, student: Student | None = None) -> Report | None:
    """A job for this report still under way, if any (the page then shows its progress)."""
    scope = Report.Scope.STUDENT if student else Report.Scope.CLASS
    return (
        Report.objects.filter(classroom=classroom, scope=scope, student=student, parent=None)
        .filter(status__in=(Report.Status.QUEUED, Report.Status.RUNNING), created__gte=timezone.now() - STALE_JOB)
        .order_by("-created")
        .first()
    )


# -- CSV exports -----------------------------------------------------------------------------------------------------
WORD_COLUMNS = ("form", "lemma", "gloss", "pos", "played", "met", "right", "wrong", "rare", "learned", "recall")
STUDENT_COLUMNS = (
    "name",
    "words_met",
    "words_played",
    "rare_played",
    "learned",
    "fading",
    "lessons",
    "quiz",
    "parse",
    "all",
)


def _cell(value: Any) -> Any:
    """Spreadsheets run a cell starting with = + - @ as a formula: a name or gloss must stay text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value


def student_words_rows(figures: dict[str, Any]) -> Iterable[list[Any]]:
    """A student report's words as CSV rows, header first."""
    yield ["student", *WORD_COLUMNS]
    name = figures["student"]["name"]
    for word in figures["words"]:
        yield [_cell(name), *(_cell(word.get(c)) for c in WORD_COLUMNS)]  # reports built before a column: empty


def class_students_rows(figures: dict[str, Any]) -> Iterable[list[Any]]:
    """A class report's per-student summary as CSV rows, header first (percentages of marked answers)."""
    yield [*STUDENT_COLUMNS[:7], "quiz_percent", "parse_percent", "all_percent"]
    for row in figures["students"]:
        yield [_cell(row.get(c)) for c in STUDENT_COLUMNS]


def class_words_rows(children: Iterable[Report]) -> Iterable[list[Any]]:
    """Every student's words of one class report (its student reports) as CSV rows, header first."""
    yield ["student", *WORD_COLUMNS]
    for child in children:
        yield from list(student_words_rows(child.figures))[1:]
