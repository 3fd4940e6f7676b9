"""Recording word encounters: the one place every game's learning records are written.

A move's encounters come from its game's rules (``Game.encounters(state, events)``, pure); this module resolves each
word against the table's lexicon, copies what the reports need (lemma, part of speech, gloss, frequency, rarity) onto
the row so later lexicon edits never rewrite history, and feeds the review schedule. It runs in a Celery job after
the move has committed (``learning.services.enqueue_recording``), never on the move path.

Idempotent: a :class:`RecordedMove` marker is written in the same transaction as the move's encounters, so a
retried job, or a lesson's catch-up (:func:`record_lesson`), records each move once; the unique constraint on
(move, student, key, kind) backs it up.
"""

import logging
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction

from games.engine.encounters import WordEncounter
from games.models import Move, Seat
from games.rules import GAMES
from lexicons import morphology
from lexicons.models import Entry, Lexicon

from . import srs
from .models import Encounter, RecordedMove, Student
from .rarity import is_rare

logger = logging.getLogger(__name__)

TEXT_MAX = 100  # the CharField length of key, form and lemma


def _clip(text: Any) -> str:
    return unicodedata.normalize("NFC", str(text or ""))[:TEXT_MAX]


def _fields(value: Any) -> dict[str, str]:
    """A parse as a flat JSON-ready dict of field name to value (anything else is dropped as not a parse)."""
    if not isinstance(value, Mapping):
        return {}
    return {str(k): str(v) for k, v in value.items() if isinstance(v, str | int) and not isinstance(v, bool)}


def _pos(text: Any, language: str) -> str:
    """Greek parts of speech as MorphGNT codes (``"N-"`` and ``"N"`` are one part of speech)."""
    text = str(text or "").strip()
    if language == "grc" and text:
        try:
            return morphology.pos_code(text)
        except ValueError:
            return text[:30]
    return text[:30]


def _pick_entry(candidates: list[dict[str, Any]], lemma: str, analysis: Mapping[str, Any]) -> dict[str, Any] | None:
    """The lexicon entry this encounter was about: the analysis the game matched, else the lemma, else the most
    frequent reading of the key."""
    if not candidates:
        return None
    parse = _fields(analysis.get("parse"))
    for entry in candidates:
        if parse and entry["parse"] == parse and (not lemma or entry["lemma"] == lemma):
            return entry
    for entry in candidates:
        if lemma and entry["lemma"] == lemma:
            return entry
    return candidates[0]


def _entries(lexicon: Lexicon | None, keys: set[str]) -> dict[str, list[dict[str, Any]]]:
    if lexicon is None or not lexicon.is_usable or not keys:
        return {}
    found: dict[str, list[dict[str, Any]]] = {}
    rows = (
        Entry.objects.filter(lexicon=lexicon, version=lexicon.version, key__in=keys)
        .order_by("key", "-frequency", "pk")
        .values("id", "key", "lemma", "pos", "parse", "gloss", "frequency")
    )
    for row in rows:
        found.setdefault(row["key"], []).append(dict(row))
    return found


def record_encounters(
    encounters: Iterable[WordEncounter],
    *,
    students: Mapping[int, Student],
    lexicon: Lexicon | None,
    game: str,
    when: datetime,
    lesson_id: int | None = None,
    table_id: int | None = None,
    move_id: int | None = None,
    practice: bool = False,
) -> int:
    """Store ``encounters`` (seats mapped to students by ``students``) and update the students' review lists.

    Returns the number of encounters stored; 0 when ``move_id`` was recorded already. Encounters of seats with no
    student are logged and left out (a game must not report seats it does not have)."""
    encounters = list(encounters)
    language = lexicon.language if lexicon is not None else next((s.classroom.language for s in students.values()), "")
    entries = _entries(lexicon, {e.key for e in encounters})
    rows = []
    for enc in encounters:
        student = students.get(enc.seat)
        if student is None:
            logger.warning("move %s of %s: encounter for seat %s, which has no student", move_id, game, enc.seat)
            continue
        analysis = enc.analysis or {}
        entry = _pick_entry(entries.get(enc.key, []), enc.lemma or str(analysis.get("lemma") or ""), analysis)
        entry = entry or {}
        frequency = entry.get("frequency")
        rows.append(
            Encounter(
                student=student,
                classroom_id=student.classroom_id,
                lexicon=lexicon,
                entry_id=entry.get("id"),
                key=_clip(enc.key),
                form=_clip(enc.form),
                lemma=_clip(enc.lemma or analysis.get("lemma") or entry.get("lemma")),
                pos=_pos(analysis.get("pos") or entry.get("pos"), language),
                gloss=str(analysis.get("gloss") or entry.get("gloss") or ""),
                frequency=frequency,
                rare=is_rare(frequency, lexicon.frequency_kind if lexicon is not None else ""),
                kind=enc.kind,
                correct=enc.correct,
                expected=_fields(analysis.get("parse")) or _fields(entry.get("parse")),
                given=_fields(enc.given.get("parse")) if enc.given else {},
                wrong_fields=list(enc.wrong_fields),
                game=game,
                lesson_id=lesson_id,
                table_id=table_id,
                move_id=move_id,
                turn=enc.turn,
                practice=practice,
                created=when,
            )
        )
    try:
        with transaction.atomic():
            if move_id is not None:
                RecordedMove.objects.create(move_id=move_id, encounters=len(rows))
            Encounter.objects.bulk_create(rows, ignore_conflicts=True)
            srs.add_from_encounters(rows, language, when)
    except IntegrityError:
        if move_id is not None and RecordedMove.objects.filter(move_id=move_id).exists():
            return 0  # another run recorded this move first
        raise
    return len(rows)


def record_move(move_id: int) -> int:
    """Record the encounters of one move of the games' move log (the Celery job's body). Idempotent."""
    if RecordedMove.objects.filter(move_id=move_id).exists():
        return 0
    move = Move.objects.select_related("table", "table__lexicon", "table__lesson").filter(pk=move_id).first()
    if move is None:
        logger.warning("move %s to record does not exist (deleted with its table?)", move_id)
        return 0
    table = move.table
    rules = GAMES.get(table.game)
    if rules is None:
        logger.warning("move %s is of unknown game %s", move_id, table.game)
        return 0
    encounters = rules.encounters(table.state, move.events)
    seats = Seat.objects.filter(table=table).select_related("student")
    students = {seat.number: seat.student for seat in seats if seat.student is not None}
    robots = {seat.number for seat in seats if seat.robot}
    encounters = [enc for enc in encounters if enc.seat not in robots]  # robots learn nothing
    return record_encounters(
        encounters,
        practice=table.lesson.practice,
        students=students,
        lexicon=table.lexicon,
        game=table.game,
        when=move.created,
        lesson_id=table.lesson_id,
        table_id=table.pk,
        move_id=move.pk,
    )


def record_lesson(lesson_id: int) -> int:
    """Record every move of the lesson not recorded yet: a lesson's report must not miss moves whose jobs are still
    queued behind it (moves that met no word have no job and are passed over). Returns the number of encounters
    stored."""
    recorded = RecordedMove.objects.values("move_id")
    pending = list(
        Move.objects.filter(table__lesson_id=lesson_id, recordable=True)
        .exclude(pk__in=recorded)
        .order_by("table_id", "seq")
        .values_list("pk", flat=True)
    )
    return sum(record_move(move_id) for move_id in pending)
