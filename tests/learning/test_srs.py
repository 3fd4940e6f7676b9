"""The review schedule (FSRS through the ``fsrs`` package), how games feed it, the migration from Leitner boxes,
and the review and self-quiz pages."""

import importlib
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone
from fsrs import Rating
from hypothesis import given, settings
from hypothesis import strategies as st

from learning import services, srs
from learning.models import ReviewItem
from tests.learning import encounter_factory as f

TODAY = date(2026, 3, 2)
NOON = datetime(2026, 3, 2, 12, tzinfo=UTC)


def _new(**fields) -> ReviewItem:
    return ReviewItem(language="spa", key="CANCION", form="canción", due=TODAY, **fields)


# -- the model -------------------------------------------------------------------------------------------------------
def test_a_new_word_answered_right_comes_back_in_days_and_wrong_tomorrow():
    right, wrong = _new(), _new()
    srs.review(right, Rating.Good, NOON)
    srs.review(wrong, Rating.Again, NOON)
    assert right.due - TODAY >= timedelta(days=2)
    assert wrong.due == TODAY + timedelta(days=1)
    assert right.stability > wrong.stability
    assert (right.reviews, right.right, wrong.reviews, wrong.right) == (1, 1, 1, 0)


def test_a_right_answer_at_the_due_date_pushes_the_due_date_further_out():
    item, day = _new(), NOON
    gaps = []
    for _ in range(4):
        srs.review(item, Rating.Good, day)
        gaps.append((item.due - timezone.localdate(day)).days)
        day = timezone.make_aware(datetime.combine(item.due, datetime.min.time())) + timedelta(hours=12)
    assert gaps == sorted(gaps)
    assert gaps[-1] > gaps[0] * 3


def test_a_wrong_answer_brings_a_well_known_word_back_tomorrow_and_lowers_its_stability():
    item = _new()
    for days in (0, 3, 10, 30):
        srs.review(item, Rating.Good, NOON + timedelta(days=days))
    stability = item.stability
    srs.review(item, Rating.Again, NOON + timedelta(days=60))
    assert item.due == timezone.localdate(NOON + timedelta(days=61))
    assert item.stability < stability


def test_easy_pushes_further_than_good_and_good_further_than_hard():
    dues = {}
    for rating in (Rating.Hard, Rating.Good, Rating.Easy):
        item = _new()
        srs.review(item, Rating.Good, NOON)
        srs.review(item, rating, NOON + timedelta(days=3))
        dues[rating] = item.due
    assert dues[Rating.Hard] < dues[Rating.Good] < dues[Rating.Easy]


def test_predicted_recall_falls_from_one_to_ninety_percent_over_the_stability():
    item = _new()
    srs.review(item, Rating.Good, NOON)
    assert srs.retrievability(item, NOON) == pytest.approx(1.0)
    at_stability = srs.retrievability(item, NOON + timedelta(days=round(item.stability)))
    assert 0.85 < at_stability < 0.95
    assert srs.retrievability(_new()) == 0.0  # never reviewed: no prediction


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(list(Rating)), min_size=1, max_size=20))
def test_any_run_of_ratings_keeps_a_card_the_model_accepts(ratings):
    item, day = _new(), NOON
    for rating in ratings:
        srs.review(item, rating, day)
        assert 1 <= item.difficulty <= 10
        assert item.stability > 0
        assert item.due > timezone.localdate(day)
        day = timezone.make_aware(datetime.combine(item.due, datetime.min.time())) + timedelta(hours=9)
        assert srs.card_of(item).stability == item.stability
    if ratings[-1] == Rating.Again:
        assert item.due - timezone.localdate(item.last_reviewed) == timedelta(days=1)


# -- the migration from Leitner boxes ----------------------------------------------------------------------------------
boxes = importlib.import_module("learning.migrations.0004_review_memory_model")


@pytest.mark.parametrize("box", [1, 2, 3, 4, 5])
def test_a_leitner_box_becomes_a_card_due_when_the_box_made_it_due(box):
    interval = boxes.INTERVALS[box]
    last = NOON - timedelta(days=interval)
    state, stability, difficulty, last_reviewed = boxes.card_from_box(box, TODAY, 4, 3, last)
    item = _new(state=state, stability=stability, difficulty=difficulty, last_reviewed=last_reviewed)
    assert (state, stability, last_reviewed) == (2, interval, last)
    assert 3 <= difficulty <= 8
    # the model predicts 90% recall on the day the box made it due, and a right answer then continues the schedule
    assert srs.retrievability(item, NOON) == pytest.approx(0.9, abs=0.01)
    srs.review(item, Rating.Good, NOON)
    assert item.due - TODAY > timedelta(days=interval)


def test_a_word_never_reviewed_stays_new():
    assert boxes.card_from_box(1, TODAY, 0, 0, None) == (0, None, None, None)


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_leitner_items_with_their_history(teacher):
    room = services.create_classroom(teacher, "Español", "spa")
    pupil = services.join_classroom(room.join_code, "Lucía")
    executor = MigrationExecutor(connection)
    executor.migrate([("learning", "0003_learning_records")])
    old = executor.loader.project_state([("learning", "0003_learning_records")]).apps.get_model(
        "learning", "ReviewItem"
    )
    reviewed = timezone.now() - timedelta(days=3)
    old.objects.create(student_id=pupil.pk, language="spa", key="A", form="a", due=TODAY)
    old.objects.create(
        student_id=pupil.pk, language="spa", key="B", form="b", box=4, due=TODAY, reviews=5, right=5,
        last_reviewed=reviewed,
    )  # fmt: skip
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    fresh, known = ReviewItem.objects.get(key="A"), ReviewItem.objects.get(key="B")
    assert (fresh.state, fresh.stability, fresh.due, fresh.reviews) == (0, None, TODAY, 0)
    assert (known.state, known.stability, known.difficulty, known.due) == (2, 8.0, 3.0, TODAY)
    assert (known.reviews, known.right, known.last_reviewed) == (5, 5, reviewed)


# -- fed by games ----------------------------------------------------------------------------------------------------
@pytest.fixture
def table(classroom, student, lexicon):
    return f.start_lesson(classroom, [student], lexicon)


def _item(student, key):
    return ReviewItem.objects.get(student=student, key=key)


def test_words_the_student_worked_with_join_the_list_as_new_cards_due_today(table, student):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος"), f.played(0, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος", kind="seen")])
    item = _item(student, "ΛΟΓΟΝ")
    assert (item.state, item.due, item.form, item.lemma, item.gloss, item.parse) == (
        ReviewItem.NEW, timezone.localdate(), "λόγον", "λόγος", "word", f.NOUN_ACC
    )  # fmt: skip
    assert not ReviewItem.objects.filter(key="ΑΡΤΟΝ").exists()  # only seen on the table


def test_meeting_a_word_is_not_yet_reviewing_it(table, student):
    f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC)])
    assert (_item(student, "ΛΟΓΟΝ").state, _item(student, "ΛΟΓΟΝ").reviews) == (ReviewItem.NEW, 0)


def test_a_right_answer_in_a_game_promotes_a_due_word(table, student):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος")], f.days_ago(1))
    f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC, kind="quizzed")])
    item = _item(student, "ΛΟΓΟΝ")
    assert (item.due, item.reviews, item.right) == (timezone.localdate() + timedelta(days=2), 1, 1)
    assert item.state == 2  # review


def test_a_right_answer_before_the_word_is_due_does_not_rush_it(table, student):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος")], f.days_ago(1))
    f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC, kind="quizzed")])
    f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC, kind="quizzed")])
    assert _item(student, "ΛΟΓΟΝ").reviews == 1


def test_a_wrong_answer_in_a_game_sends_the_word_back(table, student):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος")], f.days_ago(1))
    ReviewItem.objects.filter(key="ΛΟΓΟΝ").update(
        state=2,
        stability=8.0,
        difficulty=5.0,
        last_reviewed=f.days_ago(3),
        due=timezone.localdate() + timedelta(days=5),
    )
    wrong = f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC, given=f.NOUN_NOM, wrong=["case"], kind="quizzed")
    right = f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC)
    f.record(table, [right, wrong])  # one wrong answer in a move outweighs a right one
    item = _item(student, "ΛΟΓΟΝ")
    assert (item.state, item.due) == (3, timezone.localdate() + timedelta(days=1))  # relearning, tomorrow
    assert item.stability < 8.0


def test_a_recorded_move_reviews_once_however_often_it_is_recorded(table, student):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος")], f.days_ago(1))
    move = f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC, kind="quizzed")])
    services.record_move(move.pk)
    assert _item(student, "ΛΟΓΟΝ").reviews == 1


# -- the pages -------------------------------------------------------------------------------------------------------
@pytest.fixture
def due_words(table, student):
    f.record(
        table,
        [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος"), f.played(0, "ἦν", "ΗΝ", "εἰμί")],
        f.days_ago(1),
    )
    return student


def test_the_review_list_shows_gloss_and_parse_in_words(client, due_words):
    client.force_login(due_words.user)
    html = client.get(reverse("learning:review")).content.decode()
    assert "noun, accusative singular masculine" in html
    assert "verb, imperfect active indicative, third person singular" in html
    assert "I am" in html
    assert "Review now (2 due)" in html


def test_the_review_pages_are_for_students(client, teacher):
    client.force_login(teacher)
    assert client.get(reverse("learning:review")).status_code == 403
    assert client.get(reverse("learning:review_quiz")).status_code == 403


def test_a_greek_word_is_reviewed_by_parsing_it_with_selects_and_choosing_its_meaning(client, due_words):
    client.force_login(due_words.user)
    page = client.get(reverse("learning:review_quiz")).content.decode()
    assert "λόγον" in page  # due on the same day, both new: by form, and λ comes before ἦ in Unicode
    assert '<select name="case"' in page
    assert '<option value="A">accusative</option>' in page
    assert 'value="word"' in page
    assert 'value="I am"' in page
    item = _item(due_words, "ΗΝ")
    answer = {"item": item.id, "person": "3", "tense": "I", "voice": "A", "mood": "I", "number": "S"}
    page = client.post(reverse("learning:review_quiz"), answer | {"meaning": "I am"}, follow=True).content.decode()
    assert "Right!" in page
    item.refresh_from_db()
    assert (item.state, item.reviews, item.right) == (2, 1, 1)
    assert item.due > timezone.localdate()


def test_a_wrong_parse_says_which_field_was_wrong_and_brings_the_word_back_tomorrow(client, due_words):
    client.force_login(due_words.user)
    item = _item(due_words, "ΗΝ")
    answer = {"item": item.id, "person": "3", "tense": "A", "voice": "A", "mood": "I", "number": "S", "meaning": "word"}
    page = client.post(reverse("learning:review_quiz"), answer, follow=True).content.decode()
    assert "tense: imperfect, not aorist" in page
    assert "it means “I am”, not “word”" in page
    item.refresh_from_db()
    assert (item.due, item.right, item.reviews) == (timezone.localdate() + timedelta(days=1), 0, 1)


def test_an_incomplete_parse_is_asked_again_without_changing_anything(client, due_words):
    client.force_login(due_words.user)
    item = _item(due_words, "ΗΝ")
    page = client.post(reverse("learning:review_quiz"), {"item": item.id, "tense": "I"})
    assert page.status_code == 200
    assert "Choose an answer for every field" in page.content.decode()
    item.refresh_from_db()
    assert item.reviews == 0


@pytest.mark.parametrize("item_id", ["", "abc", "999999"])
def test_an_unknown_word_is_refused_clearly(client, due_words, item_id):
    client.force_login(due_words.user)
    page = client.post(reverse("learning:review_quiz"), {"item": item_id}, follow=True).content.decode()
    assert "That word is not on your review list." in page


def test_a_word_not_yet_due_cannot_be_reviewed(client, due_words):
    client.force_login(due_words.user)
    item = _item(due_words, "ΗΝ")
    ReviewItem.objects.filter(pk=item.pk).update(due=timezone.localdate() + timedelta(days=3))
    page = client.post(reverse("learning:review_quiz"), {"item": item.id, "grade": "good"}, follow=True)
    assert "is not due for review until" in page.content.decode()


def test_another_students_word_cannot_be_reviewed(client, due_words, classroom):
    other = services.join_classroom(classroom.join_code, "Chloé")
    client.force_login(other.user)
    item = _item(due_words, "ΗΝ")
    page = client.post(reverse("learning:review_quiz"), {"item": item.id, "tense": "I"}, follow=True)
    assert "That word is not on your review list." in page.content.decode()
    item.refresh_from_db()
    assert item.reviews == 0


@pytest.fixture
def spanish(teacher):
    room = services.create_classroom(teacher, "Español", "spa")
    pupil = services.join_classroom(room.join_code, "Lucía")
    for key, form, gloss in [("CANCION", "canción", "song"), ("CASA", "casa", "house"), ("PERRO", "perro", "dog")]:
        ReviewItem.objects.create(
            student=pupil, language="spa", key=key, form=form, lemma=form, gloss=gloss, due=timezone.localdate()
        )
    return pupil


def test_other_languages_are_reviewed_by_choosing_the_meaning(client, spanish):
    client.force_login(spanish.user)
    page = client.get(reverse("learning:review_quiz")).content.decode()
    assert "canción" in page
    assert "What does it mean?" in page
    assert all(f'value="{gloss}"' in page for gloss in ("song", "house", "dog"))
    assert "<select" not in page
    item = _item(spanish, "CANCION")
    page = client.post(reverse("learning:review_quiz"), {"item": item.id, "meaning": "house"}, follow=True)
    assert "it means “song”, not “house”" in page.content.decode()
    item.refresh_from_db()
    assert (item.due, item.right) == (timezone.localdate() + timedelta(days=1), 0)


def test_then_by_typing_the_word_for_the_meaning_graded_easy(client, spanish):
    client.force_login(spanish.user)
    item = _item(spanish, "CANCION")
    ReviewItem.objects.filter(pk=item.pk).update(reviews=1)
    page = client.get(reverse("learning:review_quiz")).content.decode()
    assert "Type the word that means" in page
    assert "song" in page
    page = client.post(
        reverse("learning:review_quiz"), {"item": item.id, "word": "Cancion", "grade": "easy"}, follow=True
    )
    assert "Right!" in page.content.decode()
    item.refresh_from_db()
    easy = item.due
    assert easy - timezone.localdate() > timedelta(days=3)


def test_a_word_with_no_meaning_is_graded_by_the_student(client, spanish):
    item = _item(spanish, "CANCION")
    ReviewItem.objects.filter(pk=item.pk).update(gloss="")
    client.force_login(spanish.user)
    page = client.get(reverse("learning:review_quiz")).content.decode()
    assert "I did not know it" in page
    assert "Easy" in page
    client.post(reverse("learning:review_quiz"), {"item": item.id, "grade": "again"})
    item.refresh_from_db()
    assert (item.due, item.reviews, item.right) == (timezone.localdate() + timedelta(days=1), 1, 0)


def test_nothing_due_says_so(client, student):
    client.force_login(student.user)
    assert "Nothing is due for review now" in client.get(reverse("learning:review_quiz")).content.decode()
