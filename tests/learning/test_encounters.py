"""Recording word encounters: one service for every game, fed by ``Game.encounters``, idempotent, snapshotting."""

import json
import unicodedata
from dataclasses import asdict

import pytest
from django.db import transaction

from games.engine import Game
from games.engine.encounters import KINDS, WordEncounter
from learning import services, tasks
from learning.encounters import record_lesson, record_move
from learning.models import Encounter, RecordedMove
from lexicons.models import Entry
from tests.learning import encounter_factory as f

NOUN_ACC, NOUN_NOM = f.NOUN_ACC, f.NOUN_NOM


@pytest.fixture
def table(classroom, pupils, lexicon):
    return f.start_lesson(classroom, pupils, lexicon)


# -- the pure part -------------------------------------------------------------------------------------------------
def test_games_report_no_encounters_unless_they_override_it():
    class Wordless(Game):
        slug = "wordless"

    assert Wordless().encounters({}, [{"type": "played"}]) == []


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "heard"},
        {"seat": -1},
        {"seat": True},
        {"key": ""},
        {"form": ""},
        {"wrong_fields": ("case",), "correct": True},
        {"wrong_fields": ("case",), "correct": None},
    ],
)
def test_a_malformed_encounter_is_refused(fields):
    base = {"seat": 0, "kind": "played", "key": "ΛΟΓΟΣ", "form": "λόγος"}
    with pytest.raises(ValueError, match=r"\w"):  # each malformed field has its own message
        WordEncounter(**(base | fields))


def test_an_encounter_survives_json_unchanged():
    enc = f.parsed(1, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", NOUN_ACC, given=NOUN_NOM, wrong=["case"])
    data = json.loads(json.dumps(asdict(enc)))
    assert WordEncounter(**data) == enc


def test_every_kind_is_a_kind_the_records_store():
    assert set(KINDS) == set(Encounter.Kind.values)


# -- recording ----------------------------------------------------------------------------------------------------
def test_a_move_is_recorded_per_student_with_the_lexicons_figures(table, pupils, lexicon):
    when = f.days_ago(3)
    move = f.move(
        table, [f.played(1, "λόγον", "ΛΟΓΟΝ", "λόγος", turn=4), f.played(0, "λόγον", "ΛΟΓΟΝ", kind="seen")], when
    )
    assert record_move(move.pk) == 2
    mine = Encounter.objects.get(student=pupils[1])
    assert (mine.kind, mine.form, mine.key, mine.lemma, mine.gloss, mine.pos) == (
        "played", "λόγον", "ΛΟΓΟΝ", "λόγος", "word", "N"
    )  # fmt: skip
    assert mine.entry_id == Entry.objects.get(lexicon=lexicon, key="ΛΟΓΟΝ").pk
    assert mine.expected == NOUN_ACC
    assert (mine.frequency, mine.rare) == (3, False)
    assert (mine.game, mine.lesson_id, mine.table_id, mine.move_id, mine.turn) == (
        f.SLUG, table.lesson_id, table.pk, move.pk, 4
    )  # fmt: skip
    assert mine.created == when
    assert mine.classroom_id == pupils[1].classroom_id
    seen = Encounter.objects.get(student=pupils[0])
    assert (seen.kind, seen.lemma) == ("seen", "λόγος")  # the lemma comes from the lexicon when the game gives none


def test_recording_a_move_twice_stores_it_once(table):
    move = f.move(table, [f.played(0, "λόγος", "ΛΟΓΟΣ", "λόγος")])
    assert record_move(move.pk) == 1
    assert record_move(move.pk) == 0
    assert Encounter.objects.count() == 1
    assert RecordedMove.objects.get(move_id=move.pk).encounters == 1


def test_a_word_used_once_in_the_corpus_is_rare(table):
    f.record(table, [f.played(0, "λόγος", "ΛΟΓΟΣ", "λόγος"), f.played(1, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος")])
    assert dict(Encounter.objects.values_list("key", "rare")) == {"ΛΟΓΟΣ": True, "ΑΡΤΟΝ": False}


def test_the_reading_the_game_matched_decides_the_entry(table):
    neuter = {"case": "N", "number": "S", "gender": "N"}
    f.record(table, [f.parsed(0, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος", "N", neuter)])
    row = Encounter.objects.get()
    assert row.entry_id == Entry.objects.get(lexicon_id=table.lexicon_id, key="ΑΡΤΟΝ", parse=neuter).pk
    assert (row.gloss, row.rare) == ("loaf (neuter reading)", True)


def test_a_word_the_lexicon_lacks_is_kept_by_its_key(table):
    f.record(table, [f.played(0, "ξύλον", "ΞΥΛΟΝ", "ξύλον")])
    row = Encounter.objects.get()
    assert (row.key, row.form, row.lemma, row.entry_id, row.gloss, row.rare) == (
        "ΞΥΛΟΝ", "ξύλον", "ξύλον", None, "", False
    )  # fmt: skip


def test_lexicon_edits_and_reimports_do_not_rewrite_the_record(table, lexicon):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος")])
    Entry.objects.filter(key="ΛΟΓΟΝ").update(gloss="reason", frequency=900)
    Entry.objects.filter(lexicon=lexicon).delete()
    row = Encounter.objects.get()
    assert (row.gloss, row.frequency, row.rare) == ("word", 3, False)


def test_a_parse_keeps_what_was_given_and_what_was_wrong(table):
    f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N-", NOUN_ACC, given=NOUN_NOM, wrong=["case"])])
    row = Encounter.objects.get()
    assert (row.kind, row.correct, row.wrong_fields, row.pos) == ("parsed", False, ["case"], "N")
    assert (row.given, row.expected) == (NOUN_NOM, NOUN_ACC)


def test_greek_text_is_stored_composed(table):
    decomposed = unicodedata.normalize("NFD", "λόγον")
    f.record(table, [f.played(0, decomposed, "ΛΟΓΟΝ", unicodedata.normalize("NFD", "λόγος"))])
    row = Encounter.objects.get()
    assert row.form == "λόγον"
    assert unicodedata.is_normalized("NFC", row.lemma)


def test_a_seat_without_a_student_is_left_out(table):
    f.record(table, [f.played(0, "λόγος", "ΛΟΓΟΣ"), f.played(7, "λόγον", "ΛΟΓΟΝ")])
    assert list(Encounter.objects.values_list("key", flat=True)) == ["ΛΟΓΟΣ"]


def test_a_move_that_no_longer_exists_records_nothing(db):
    assert record_move(424242) == 0
    assert not RecordedMove.objects.exists()


def test_the_lesson_catch_up_records_only_moves_not_yet_recorded(table):
    first = f.record(table, [f.played(0, "λόγος", "ΛΟΓΟΣ")])
    f.move(table, [f.played(1, "λόγον", "ΛΟΓΟΝ")])
    f.move(table, [f.played(0, "ἄρτον", "ΑΡΤΟΝ")])
    assert record_lesson(table.lesson_id) == 2
    assert record_lesson(table.lesson_id) == 0
    assert Encounter.objects.count() == 3
    assert RecordedMove.objects.filter(move_id=first.pk).count() == 1


def test_recording_is_enqueued_and_runs_after_the_move_commits(table, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        move = f.move(table, [f.played(0, "λόγος", "ΛΟΓΟΣ")])
        services.enqueue_recording(move)
        assert not Encounter.objects.exists()
    assert len(callbacks) == 1
    assert Encounter.objects.get().move_id == move.pk


def test_a_broker_that_is_down_is_logged_and_the_move_stands(table, monkeypatch, caplog):
    def broker_down(move_id):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379")

    monkeypatch.setattr(tasks.record_move, "delay", broker_down)
    move = f.move(table, [f.played(0, "λόγος", "ΛΟΓΟΣ")])
    services.publish_recording(move.pk)
    assert f"could not publish the recording job of move {move.pk}" in caplog.text
    assert not Encounter.objects.exists()


def test_a_move_rolled_back_is_never_recorded(table, django_capture_on_commit_callbacks):
    def fail_after_recording() -> None:
        with transaction.atomic():
            services.enqueue_recording(f.move(table, [f.played(0, "λόγος", "ΛΟΓΟΣ")]))
            raise RuntimeError("the move failed")

    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RuntimeError):
        fail_after_recording()
    assert callbacks == []
    assert not Encounter.objects.exists()
