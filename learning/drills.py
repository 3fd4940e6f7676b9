"""Short drills built from a student's own mistakes; their answers are encounters like any other.

**Greek**: the student's most frequent confusion is found as the reports find it (``learning.reports``: per parse
field, the value given against the right value of their wrong answers, "imperfect for aorist"). The drill is up to
:data:`SIZE` *other* forms, from the lexicon's analyses, of the lemmas the student met in play, each a form whose
analysis has the confused field with one of the two confused values (the right one first: "parse these five
aorists"), to parse in full.

**Spanish, English** (any language without parse fields): a meaning drill of the words the student missed or played
(missed first, then the most played), each with its meaning to choose among a few.

A drill's answers are stored as ``quizzed`` encounters of the game ``drill`` (outside any lesson) and feed the
review schedule exactly as a game's answers do (``learning.srs.add_from_encounters``).
"""

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from lexicons import morphology
from lexicons.models import Entry

from . import srs
from .models import Encounter, Student

SIZE = 5
GAME = "drill"


@dataclass(frozen=True)
class Confusion:
    field: str
    given: str
    correct: str
    count: int

    @property
    def title(self) -> str:
        label = morphology.label
        return f"{label(self.field, self.given)} for {label(self.field, self.correct)}"


@dataclass
class Question:
    """One drill question: a form to parse (``fields``) or a word whose meaning to choose (``meanings``)."""

    key: str
    form: str
    lemma: str
    pos: str = ""
    parse: dict[str, str] = field(default_factory=dict)
    gloss: str = ""
    entry_id: int | None = None
    lexicon_id: int | None = None
    fields: tuple[str, ...] = ()
    meanings: list[str] = field(default_factory=list)


@dataclass
class Drill:
    kind: str  # "parse" or "meaning"
    title: str
    questions: list[Question]
    confusion: Confusion | None = None


def confusions(student: Student) -> list[Confusion]:
    """The student's confusions, most frequent first (ties by field order, then values)."""
    counts: Counter[tuple[str, str, str]] = Counter()
    rows = Encounter.objects.filter(student=student, correct=False).exclude(pos="")
    for pos, expected, given, wrong_fields in rows.values_list("pos", "expected", "given", "wrong_fields"):
        try:
            fields = morphology.fields_for(pos, expected) if expected else ()
        except ValueError:
            continue
        for name in fields:
            if name in wrong_fields:
                counts[(name, str(given.get(name, "")), str(expected.get(name, "")))] += 1
    ranked = sorted(counts.items(), key=lambda item: (-item[1], morphology.FIELDS.index(item[0][0]), item[0]))
    return [Confusion(f, g, c, n) for (f, g, c), n in ranked if g and c]


def build(student: Student, today: Any = None) -> Drill | None:
    """Today's drill for ``student`` (the same all day), or None when there is nothing to drill yet."""
    rng = random.Random(f"{student.pk}:{today or timezone.localdate()}")
    if student.classroom.language == "grc":
        for confusion in confusions(student)[:3]:
            questions = _parse_questions(student, confusion, rng)
            if questions:
                title = f"Parse these forms: you gave {confusion.title} {confusion.count}×"
                return Drill("parse", title, questions, confusion)
    questions = _meaning_questions(student, rng)
    if questions:
        return Drill("meaning", "What do these words mean? Words you missed or played", questions)
    return None


def signature(drill: Drill) -> str:
    """What identifies a drill's questions, so answers are graded against the drill they were given for."""
    return "|".join(f"{q.key}/{q.lemma}/{q.entry_id or ''}" for q in drill.questions)


def _parse_questions(student: Student, confusion: Confusion, rng: random.Random) -> list[Question]:
    met = Encounter.objects.filter(student=student).exclude(lemma="")
    lemmas = set(met.values_list("lemma", flat=True))
    lexicons = set(met.exclude(lexicon=None).values_list("lexicon_id", flat=True))
    seen_keys = set(met.values_list("key", flat=True))
    if not lemmas or not lexicons:
        return []
    candidates = []
    entries = Entry.objects.filter(lexicon_id__in=lexicons, lemma__in=lemmas, version=F("lexicon__version"))
    for entry in entries.order_by("-frequency", "pk"):
        value = entry.parse.get(confusion.field) if isinstance(entry.parse, dict) else None
        if value not in (confusion.correct, confusion.given):
            continue
        try:
            fields = morphology.fields_for(entry.pos, entry.parse)
        except ValueError:
            continue
        if confusion.field in fields:
            candidates.append((entry, fields))
    # other forms than those met first, then forms with the right value of the confused field first
    candidates.sort(key=lambda c: (c[0].key in seen_keys, c[0].parse.get(confusion.field) != confusion.correct))
    picked, keys = [], set()
    for entry, fields in candidates:
        if entry.key in keys:
            continue
        keys.add(entry.key)
        picked.append(
            Question(
                key=entry.key, form=entry.form, lemma=entry.lemma, pos=entry.pos, parse=dict(entry.parse),
                gloss=entry.gloss, entry_id=entry.pk, lexicon_id=entry.lexicon_id, fields=fields,
            )
        )  # fmt: skip
        if len(picked) == SIZE:
            break
    rng.shuffle(picked)
    return picked


def _meaning_questions(student: Student, rng: random.Random) -> list[Question]:
    words = (
        Encounter.objects.filter(student=student)
        .exclude(gloss="")
        .exclude(kind=Encounter.Kind.SEEN)
        .values("key", "lemma")
        .annotate(missed=Count("pk", filter=Q(correct=False)), played=Count("pk", filter=Q(kind="played")))
        .filter(Q(missed__gt=0) | Q(played__gt=0))
        .order_by("-missed", "-played", "key")
    )
    chosen = list(words[:SIZE])
    if not chosen:
        return []
    glosses = _glosses(student)
    all_glosses = sorted({g for g in glosses.values() if g})
    questions = []
    for word in chosen:
        gloss, form, lexicon_id = glosses.get((word["key"], word["lemma"]), ""), "", None
        latest = Encounter.objects.filter(student=student, key=word["key"], lemma=word["lemma"]).order_by("-created")
        row: dict[str, Any] = dict(latest.values("form", "lexicon_id").first() or {})
        form, lexicon_id = row.get("form", word["key"]), row.get("lexicon_id")
        others = [g for g in all_glosses if g.casefold() != gloss.casefold()]
        if len(others) < srs.CHOICES - 1 and lexicon_id is not None:
            extra = Entry.objects.filter(lexicon_id=lexicon_id).exclude(gloss="").order_by("-frequency", "pk")
            others += [g for g in extra.values_list("gloss", flat=True)[:40] if g.casefold() != gloss.casefold()]
        others = sorted(set(others))
        rng.shuffle(others)
        meanings = [gloss, *others[: srs.CHOICES - 1]]
        rng.shuffle(meanings)
        questions.append(
            Question(key=word["key"], form=form, lemma=word["lemma"], gloss=gloss, lexicon_id=lexicon_id,
                     meanings=meanings)
        )  # fmt: skip
    return questions


def _glosses(student: Student) -> dict[tuple[str, str], str]:
    """The latest meaning recorded for each word the student met."""
    found: dict[tuple[str, str], str] = {}
    rows = Encounter.objects.filter(student=student).exclude(gloss="").order_by("created", "pk")
    for key, lemma, gloss in rows.values_list("key", "lemma", "gloss"):
        found[(key, lemma)] = gloss
    return found


# -- answers ----------------------------------------------------------------------------------------------------------
def grade(student: Student, drill: Drill, answers: dict[str, str]) -> list[dict[str, Any]]:
    """Grade a drill's answers (``q<i>-<field>`` for parse fields, ``q<i>-meaning``), store them as encounters and
    feed the review schedule. Returns per question ``{question, right, wrong_fields, given}``."""
    now = timezone.now()
    results, rows = [], []
    for i, question in enumerate(drill.questions):
        if drill.kind == "parse":
            given = {name: answers.get(f"q{i}-{name}", "") for name in question.fields}
            wrong = morphology.compare(given, {"pos": question.pos, "parse": question.parse})
            right = not wrong
        else:
            given = {"meaning": answers.get(f"q{i}-meaning", "")}
            right = given["meaning"].strip().casefold() == question.gloss.strip().casefold()
            wrong = [] if right else ["meaning"]
        results.append({"question": question, "right": right, "wrong_fields": wrong, "given": given})
        rows.append(
            Encounter(
                student=student, classroom_id=student.classroom_id, lexicon_id=question.lexicon_id,
                entry_id=question.entry_id, key=question.key, form=question.form, lemma=question.lemma,
                pos=question.pos, gloss=question.gloss, kind=Encounter.Kind.QUIZZED, correct=right,
                expected=question.parse, given=given if drill.kind == "parse" else {},
                wrong_fields=[w for w in wrong if w != "meaning"], game=GAME, created=now,
            )
        )  # fmt: skip
    with transaction.atomic():
        Encounter.objects.bulk_create(rows)
        srs.add_from_encounters(rows, student.classroom.language, now)
    return results
