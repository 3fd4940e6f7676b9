"""Drills built from a student's own mistakes: other forms of the lemmas they met, with the field they confuse; for
languages without parses, the meanings of the words they missed or played. The answers are encounters."""

import pytest
from django.urls import reverse

from learning import drills, services
from learning.encounters import record_encounters
from learning.models import Encounter, ReviewItem
from lexicons.models import Entry
from tests.learning import encounter_factory as f

IMPF, AORIST_GIVEN = f.VERB_IMPF, f.VERB_IMPF | {"tense": "A"}


def _verb(person: str, tense: str, number: str = "S") -> dict:
    return {"person": person, "tense": tense, "voice": "A", "mood": "I", "number": number}


@pytest.fixture
def richer(lexicon):
    """More forms of εἰμί and λόγος, and a lemma the student never met (φέρω) with imperfects and aorists."""
    rows = [
        ("ἦσαν", "ΗΣΑΝ", "εἰμί", "V", _verb("3", "I", "P"), "I am"),
        ("ἦς", "ΗΣ", "εἰμί", "V", _verb("2", "I"), "I am"),
        ("ἔσται", "ΕΣΤΑΙ", "εἰμί", "V", _verb("3", "F") | {"voice": "M"}, "I am"),
        ("λόγου", "ΛΟΓΟΥ", "λόγος", "N", {"case": "G", "number": "S", "gender": "M"}, "word"),
        ("ἔφερεν", "ΕΦΕΡΕΝ", "φέρω", "V", _verb("3", "I"), "I carry"),
        ("ἤνεγκεν", "ΗΝΕΓΚΕΝ", "φέρω", "V", _verb("3", "A"), "I carry"),
    ]
    Entry.objects.bulk_create(
        Entry(lexicon=lexicon, version=1, form=form, key=key, lemma=lemma, pos=pos, parse=parse, gloss=gloss)
        for form, key, lemma, pos, parse, gloss in rows
    )
    return lexicon


@pytest.fixture
def confused(classroom, student, richer):
    """The student played λόγον and twice gave aorist for imperfect on ἦν."""
    table = f.start_lesson(classroom, [student], richer)
    wrong = f.parsed(0, "ἦν", "ΗΝ", "εἰμί", "V", IMPF, given=AORIST_GIVEN, wrong=["tense"], kind="quizzed")
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος"), wrong], f.days_ago(2))
    f.record(table, [wrong], f.days_ago(1))
    return student


def test_the_most_frequent_confusion_is_found_as_the_reports_find_it(confused):
    [confusion] = drills.confusions(confused)
    assert (confusion.field, confusion.given, confusion.correct, confusion.count) == ("tense", "A", "I", 2)
    assert confusion.title == "aorist for imperfect"


def test_a_drill_holds_only_forms_of_lemmas_the_student_met_each_with_the_confused_field(confused):
    drill = drills.build(confused)
    assert drill.kind == "parse"
    assert "aorist for imperfect" in drill.title
    met = set(Encounter.objects.filter(student=confused).values_list("lemma", flat=True))
    assert drill.questions
    for question in drill.questions:
        assert question.lemma in met
        assert "tense" in question.fields
        assert question.parse["tense"] in ("I", "A")
    forms = [q.form for q in drill.questions]
    assert sorted(forms) == sorted(["ἦσαν", "ἦς", "ἦν"])  # other forms first; never φέρω, never the future


def test_a_drills_answers_are_encounters_that_feed_the_review_list(confused):
    drill = drills.build(confused)
    answers = {}
    for i, q in enumerate(drill.questions):
        answers |= {f"q{i}-{name}": q.parse[name] for name in q.fields}
    answers["q0-tense"] = "A"  # one aorist for imperfect again
    results = drills.grade(confused, drill, answers)
    assert [r["right"] for r in results] == [False] + [True] * (len(results) - 1)
    rows = Encounter.objects.filter(student=confused, game=drills.GAME)
    assert rows.count() == len(drill.questions)
    assert rows.get(key=drill.questions[0].key).wrong_fields == ["tense"]
    assert ReviewItem.objects.filter(student=confused, key="ΗΣΑΝ").exists()


def test_a_student_with_no_mistakes_and_no_words_has_no_drill(student):
    assert drills.build(student) is None


@pytest.fixture
def spanish_player(teacher):
    room = services.create_classroom(teacher, "Español", "spa")
    pupil = services.join_classroom(room.join_code, "Lucía")
    words = [("perro", "PERRO", "dog"), ("casa", "CASA", "house"), ("gato", "GATO", "cat"), ("sol", "SOL", "sun")]
    encounters = [f.played(0, form, key, form, analysis={"gloss": gloss}) for form, key, gloss in words]
    encounters.append(f.played(0, "luna", "LUNA", "luna", kind="quizzed", correct=False, analysis={"gloss": "moon"}))
    record_encounters(encounters, students={0: pupil}, lexicon=None, game="palabras", when=f.days_ago(1))
    return pupil


def test_a_spanish_drill_asks_the_meanings_of_words_missed_first_then_played(spanish_player):
    drill = drills.build(spanish_player)
    assert drill.kind == "meaning"
    assert drill.questions[0].form == "luna"  # missed
    assert {q.form for q in drill.questions} == {"luna", "perro", "casa", "gato", "sol"}
    for q in drill.questions:
        assert q.gloss in q.meanings
        assert len(q.meanings) == 4


def test_the_drill_page_grades_and_says_what_was_right(client, spanish_player):
    client.force_login(spanish_player.user)
    page = client.get(reverse("learning:drill")).content.decode()
    assert "What do these words mean?" in page
    drill = drills.build(spanish_player)
    answers = {"signature": drills.signature(drill)}
    for i, q in enumerate(drill.questions):
        answers[f"q{i}-meaning"] = q.gloss if q.form != "luna" else "sun"
    page = client.post(reverse("learning:drill"), answers).content.decode()
    assert "4 of 5 right" in page
    assert "It means “moon”, not “sun”" in page
    assert Encounter.objects.filter(student=spanish_player, game=drills.GAME).count() == 5


def test_the_drill_page_is_linked_from_the_students_pages(client, spanish_player):
    client.force_login(spanish_player.user)
    assert reverse("learning:drill") in client.get(reverse("learning:review")).content.decode()
    room = spanish_player.classroom
    assert reverse("learning:drill") in client.get(reverse("learning:classroom", args=[room.id])).content.decode()
