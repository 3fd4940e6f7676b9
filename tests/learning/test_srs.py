"""The Leitner review schedule, how games feed it, and the review and self-quiz pages."""

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from learning import services, srs
from learning.models import ReviewItem
from tests.learning import encounter_factory as f

TODAY = date(2026, 3, 2)


# -- the schedule ----------------------------------------------------------------------------------------------------
def test_the_intervals_double_from_one_to_sixteen_days():
    assert srs.INTERVALS == {1: 1, 2: 2, 3: 4, 4: 8, 5: 16}


@pytest.mark.parametrize(("box", "after"), [(1, 2), (2, 4), (3, 8), (4, 16), (5, 16)])
def test_a_right_answer_moves_the_word_up_one_box(box, after):
    new_box, due = srs.review(box, True, TODAY)
    assert (due - TODAY).days == after
    assert new_box == min(box + 1, 5)


@pytest.mark.parametrize("box", [1, 2, 3, 4, 5])
def test_a_wrong_answer_sends_the_word_back_to_box_one_due_tomorrow(box):
    assert srs.review(box, False, TODAY) == (1, TODAY + timedelta(days=1))


def test_there_is_no_box_six():
    with pytest.raises(ValueError, match="no box 6"):
        srs.next_box(6, True)


@given(st.lists(st.booleans(), max_size=30))
def test_any_run_of_answers_keeps_the_word_in_a_box_due_at_its_interval(answers):
    box, day = 1, TODAY
    for right in answers:
        box, due = srs.review(box, right, day)
        assert 1 <= box <= 5
        assert (due - day).days == srs.INTERVALS[box]
        day = due
    if answers and not answers[-1]:
        assert box == 1


# -- fed by games ----------------------------------------------------------------------------------------------------
@pytest.fixture
def table(classroom, student, lexicon):
    return f.start_lesson(classroom, [student], lexicon)


def _item(student, key):
    return ReviewItem.objects.get(student=student, key=key)


def test_words_the_student_worked_with_join_the_list_in_box_one_due_today(table, student):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος"), f.played(0, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος", kind="seen")])
    item = _item(student, "ΛΟΓΟΝ")
    assert (item.box, item.due, item.form, item.lemma, item.gloss, item.parse) == (
        1, timezone.localdate(), "λόγον", "λόγος", "word", f.NOUN_ACC
    )  # fmt: skip
    assert not ReviewItem.objects.filter(key="ΑΡΤΟΝ").exists()  # only seen on the table


def test_meeting_a_word_is_not_yet_reviewing_it(table, student):
    f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC)])
    assert (_item(student, "ΛΟΓΟΝ").box, _item(student, "ΛΟΓΟΝ").reviews) == (1, 0)


def test_a_right_answer_in_a_game_promotes_a_due_word(table, student):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος")], f.days_ago(1))
    f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC, kind="quizzed")])
    item = _item(student, "ΛΟΓΟΝ")
    assert (item.box, item.due, item.reviews, item.right) == (2, timezone.localdate() + timedelta(days=2), 1, 1)


def test_a_right_answer_before_the_word_is_due_does_not_rush_it(table, student):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος")], f.days_ago(1))
    f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC, kind="quizzed")])
    f.record(table, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC, kind="quizzed")])
    assert _item(student, "ΛΟΓΟΝ").box == 2


def test_a_wrong_answer_in_a_game_sends_the_word_back(table, student):
    f.record(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος")], f.days_ago(1))
    ReviewItem.objects.filter(key="ΛΟΓΟΝ").update(box=4, due=timezone.localdate() + timedelta(days=5))
    wrong = f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC, given=f.NOUN_NOM, wrong=["case"], kind="quizzed")
    right = f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", f.NOUN_ACC)
    f.record(table, [right, wrong])  # one wrong answer in a move outweighs a right one
    item = _item(student, "ΛΟΓΟΝ")
    assert (item.box, item.due) == (1, timezone.localdate() + timedelta(days=1))


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


def test_a_greek_word_is_reviewed_by_parsing_it_with_selects(client, due_words):
    client.force_login(due_words.user)
    page = client.get(reverse("learning:review_quiz")).content.decode()
    assert "λόγον" in page  # due on the same day, in the same box: by form, and λ comes before ἦ in Unicode
    assert '<select name="case"' in page
    assert '<option value="A">accusative</option>' in page
    item = _item(due_words, "ΗΝ")
    answer = {"item": item.id, "person": "3", "tense": "I", "voice": "A", "mood": "I", "number": "S"}
    page = client.post(reverse("learning:review_quiz"), answer, follow=True).content.decode()
    assert "Right!" in page
    item.refresh_from_db()
    assert (item.box, item.reviews, item.right) == (2, 1, 1)


def test_a_wrong_parse_says_which_field_was_wrong_and_resets_the_box(client, due_words):
    client.force_login(due_words.user)
    item = _item(due_words, "ΗΝ")
    answer = {"item": item.id, "person": "3", "tense": "A", "voice": "A", "mood": "I", "number": "S"}
    page = client.post(reverse("learning:review_quiz"), answer, follow=True).content.decode()
    assert "tense: imperfect, not aorist" in page
    item.refresh_from_db()
    assert (item.box, item.due, item.right) == (1, timezone.localdate() + timedelta(days=1), 0)


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
    page = client.post(reverse("learning:review_quiz"), {"item": item.id, "knew": "yes"}, follow=True)
    assert "is not due for review until" in page.content.decode()


def test_another_students_word_cannot_be_reviewed(client, due_words, classroom):
    other = services.join_classroom(classroom.join_code, "Chloé")
    client.force_login(other.user)
    item = _item(due_words, "ΗΝ")
    page = client.post(reverse("learning:review_quiz"), {"item": item.id, "tense": "I"}, follow=True)
    assert "That word is not on your review list." in page.content.decode()
    item.refresh_from_db()
    assert item.reviews == 0


def test_other_languages_are_reviewed_by_recalling_the_meaning(client, teacher):
    room = services.create_classroom(teacher, "Español", "spa")
    pupil = services.join_classroom(room.join_code, "Lucía")
    item = ReviewItem.objects.create(
        student=pupil, language="spa", key="CANCION", form="canción", gloss="song", due=timezone.localdate()
    )
    client.force_login(pupil.user)
    page = client.get(reverse("learning:review_quiz")).content.decode()
    assert "canción" in page
    assert "Show the meaning" in page
    assert "song" in page
    assert "<select" not in page
    client.post(reverse("learning:review_quiz"), {"item": item.id, "knew": "yes"})
    item.refresh_from_db()
    assert (item.box, item.due) == (2, timezone.localdate() + timedelta(days=2))
    ReviewItem.objects.filter(pk=item.pk).update(due=timezone.localdate())
    client.post(reverse("learning:review_quiz"), {"item": item.id, "knew": "no"})
    item.refresh_from_db()
    assert item.box == 1


def test_nothing_due_says_so(client, student):
    client.force_login(student.user)
    assert "Nothing is due for review now" in client.get(reverse("learning:review_quiz")).content.decode()
