"""Hand-made encounters through the real recording path: a tiny game whose moves carry the encounters to record,
and rows (lesson, table, seats, moves) made directly, so these tests depend on no real game's rules."""

import dataclasses
from datetime import datetime, timedelta

from django.utils import timezone

from games.engine import Game
from games.engine.encounters import WordEncounter
from games.models import Lesson, Move, Seat, Table
from learning.encounters import record_move
from lexicons.models import Entry, Lexicon

SLUG = "recorder"


class Recorder(Game):
    """Each move's ``met`` events are the encounters the move reports."""

    slug = SLUG
    title = "Recorder"
    language = "grc"
    min_players = 1
    max_players = 30

    def encounters(self, state, events):
        return [WordEncounter(**ev["encounter"]) for ev in events if ev["type"] == "met"]


RULES = Recorder()


def start_lesson(classroom, students, lexicon=None, when: datetime | None = None) -> Table:
    """End the class's running lesson, if any, and start one with ``students`` at one table (seat = list index)."""
    Lesson.objects.filter(classroom=classroom, ended__isnull=True).update(ended=timezone.now())
    lesson = Lesson.objects.create(classroom=classroom, game=SLUG, lexicon=lexicon, started_by=classroom.teacher)
    table = Table.objects.create(lesson=lesson, number=1, game=SLUG, lexicon=lexicon, seed=1, state={})
    Seat.objects.bulk_create([Seat(table=table, number=n, student=s) for n, s in enumerate(students)])
    Move.objects.create(table=table, seq=0, kind=Move.Kind.START, created=when or timezone.now())
    return table


def move(table: Table, encounters: list[WordEncounter], when: datetime | None = None) -> Move:
    """Append a move reporting ``encounters`` (not recorded yet)."""
    table.version += 1
    table.save(update_fields=["version"])
    events = [{"type": "met", "encounter": _json(e)} for e in encounters]
    return Move.objects.create(table=table, seq=table.version, events=events, created=when or timezone.now())


def record(table: Table, encounters: list[WordEncounter], when: datetime | None = None) -> Move:
    """Append a move and record it, as the Celery job would."""
    made = move(table, encounters, when)
    record_move(made.pk)
    return made


def _json(encounter: WordEncounter) -> dict:
    data = dataclasses.asdict(encounter)
    data["wrong_fields"] = list(data["wrong_fields"])
    return data


def days_ago(days: int) -> datetime:
    return timezone.now() - timedelta(days=days)


def played(seat: int, form: str, key: str, lemma: str = "", kind: str = "played", **fields) -> WordEncounter:
    """An unmarked encounter (played by default; ``kind`` for seen or taught)."""
    return WordEncounter(seat=seat, kind=kind, key=key, form=form, lemma=lemma, **fields)


def parsed(seat, form, key, lemma, pos, parse, given=None, wrong=(), kind="parsed") -> WordEncounter:
    """A marked parse: right when ``wrong`` names no field; ``given`` defaults to the right parse."""
    analysis = {"lemma": lemma, "pos": pos, "parse": parse, "gloss": ""}
    given = given if given is not None else parse
    return WordEncounter(
        seat=seat,
        kind=kind,
        key=key,
        form=form,
        lemma=lemma,
        analysis=analysis,
        given={"lemma": lemma, "pos": pos, "parse": given},
        correct=not wrong,
        wrong_fields=tuple(wrong),
    )


NOUN_ACC = {"case": "A", "number": "S", "gender": "M"}
NOUN_NOM = {"case": "N", "number": "S", "gender": "M"}
VERB_IMPF = {"person": "3", "tense": "I", "voice": "A", "mood": "I", "number": "S"}


def make_lexicon() -> Lexicon:
    """A few Greek entries with MorphGNT-style counts (λόγος occurs once here: rare)."""
    lex = Lexicon.objects.create(name="Mini GNT", language="grc", version=1, frequency_kind="count", status="ready")
    Entry.objects.bulk_create(
        [
            Entry(lexicon=lex, version=1, form="λόγον", key="ΛΟΓΟΝ", lemma="λόγος", pos="N", parse=NOUN_ACC,
                  gloss="word", frequency=3),
            Entry(lexicon=lex, version=1, form="λόγος", key="ΛΟΓΟΣ", lemma="λόγος", pos="N", parse=NOUN_NOM,
                  gloss="word", frequency=1),
            Entry(lexicon=lex, version=1, form="ἄρτον", key="ΑΡΤΟΝ", lemma="ἄρτος", pos="N", parse=NOUN_ACC,
                  gloss="bread", frequency=40),
            Entry(lexicon=lex, version=1, form="ἄρτον", key="ΑΡΤΟΝ", lemma="ἄρτος", pos="N",
                  parse={"case": "N", "number": "S", "gender": "N"}, gloss="loaf (neuter reading)", frequency=1),
            Entry(lexicon=lex, version=1, form="ἦν", key="ΗΝ", lemma="εἰμί", pos="V", parse=VERB_IMPF,
                  gloss="I am", frequency=300),
        ]
    )  # fmt: skip
    return lex
