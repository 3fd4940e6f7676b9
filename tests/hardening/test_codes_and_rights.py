"""Guessable codes are throttled, teacher log-ins lock out, rejoin codes can be replaced and are not shown on every
visit, and a user's open pages close when they log out or are removed (their seats are released)."""

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from games.engine import AppError
from learning import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts():
    cache.clear()
    yield
    cache.clear()


@override_settings(CODE_GUESS_LIMIT=(3, 600))
def test_join_guesses_are_throttled_by_client_then_refused_even_for_a_right_code(classroom):
    for guess in ("AAAAAA", "BBBBBB", "CCCCCC"):
        with pytest.raises(AppError) as wrong:
            services.join_classroom(guess, "Ana", client="10.0.0.9")
        assert wrong.value.code == "wrong_code"
    with pytest.raises(AppError) as throttled:
        services.join_classroom(classroom.join_code, "Ana", client="10.0.0.9")
    assert throttled.value.code == "throttled"
    # another client (another school) is not held up, and only failures count
    assert services.join_classroom(classroom.join_code, "Ben", client="10.0.0.10").display_name == "Ben"


@override_settings(CODE_GUESS_LIMIT=(3, 600))
def test_a_class_joining_from_one_address_is_never_throttled(classroom):
    for n in range(30):
        services.join_classroom(classroom.join_code, f"Student {n}", client="192.0.2.1")


@override_settings(CODE_GUESS_LIMIT=(3, 600))
def test_rejoin_guesses_are_throttled(student):
    for guess in ("AAAAAAAA", "BBBBBBBB", "CCCCCCCC"):
        with pytest.raises(AppError):
            services.find_by_rejoin_code(guess, client="10.0.0.9")
    with pytest.raises(AppError) as throttled:
        services.find_by_rejoin_code(student.rejoin_code, client="10.0.0.9")
    assert throttled.value.code == "throttled"


def test_a_bad_name_gets_the_same_answer_whatever_the_code(classroom):
    too_long = "x" * 31
    answers = set()
    for code in (classroom.join_code, "ZZZZZZ"):
        with pytest.raises(AppError) as error:
            services.join_classroom(code, too_long, client="10.0.0.9")
        answers.add((error.value.code, error.value.message))
    assert len(answers) == 1


def test_teacher_log_in_locks_out_after_repeated_failures(teacher):
    client = Client()
    statuses = [
        client.post(reverse("login"), {"username": teacher.username, "password": "wrong"}).status_code for _ in range(5)
    ]
    assert statuses == [200, 200, 200, 200, 429]  # the fifth failure locks the account from this address
    response = client.post(reverse("login"), {"username": teacher.username, "password": "a-good-password-42"})
    assert response.status_code == 429
    assert b"Too many wrong passwords" in response.content


def test_a_student_replaces_their_rejoin_code_and_the_old_one_stops_working(classroom, student):
    old = student.rejoin_code
    client = Client()
    client.force_login(student.user)
    page = client.get(reverse("learning:my_rejoin_code", args=[classroom.id]))
    assert old in page.content.decode()
    client.post(reverse("learning:my_rejoin_code", args=[classroom.id]))
    student.refresh_from_db()
    assert student.rejoin_code != old
    with pytest.raises(AppError):
        services.find_by_rejoin_code(old)
    assert services.find_by_rejoin_code(student.rejoin_code) == student


def test_the_teacher_replaces_a_students_rejoin_code(teacher, classroom, student):
    old = student.rejoin_code
    client = Client()
    client.force_login(teacher)
    response = client.post(reverse("learning:new_rejoin_code", args=[classroom.id, student.id]), follow=True)
    student.refresh_from_db()
    assert student.rejoin_code != old
    assert student.rejoin_code in response.content.decode()


def test_the_class_page_does_not_show_the_rejoin_code_on_every_visit(classroom, student):
    client = Client()
    client.force_login(student.user)
    page = client.get(reverse("learning:classroom", args=[classroom.id])).content.decode()
    assert student.rejoin_code not in page
    assert reverse("learning:my_rejoin_code", args=[classroom.id]) in page


def test_another_student_cannot_replace_someone_elses_code(classroom, student):
    other = services.join_classroom(classroom.join_code, "Ben")
    with pytest.raises(AppError):
        services.new_rejoin_code(other.user, student.pk)
