"""Lesson pages: starting a lesson from the class page, the dashboard, the table page and moderation."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Lesson, Table
from games.services import lessons
from learning import services as learning_services
from lexicons.models import Lexicon
from tests.games.conftest import seated

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_game")]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start_url(classroom) -> str:
    return reverse("games:start_lesson", args=[classroom.id])


# -- starting ----------------------------------------------------------------------------------------------------
def test_the_class_page_offers_to_start_a_lesson(teacher, classroom):
    page = client_for(teacher).get(reverse("learning:classroom", args=[classroom.id]))
    assert start_url(classroom).encode() in page.content


def test_the_start_page_lists_games_of_the_class_language_and_their_options(teacher, classroom, students):
    page = client_for(teacher).get(start_url(classroom))
    assert page.status_code == 200
    games = dict(page.context["form"].fields["game"].choices)
    assert "toy" in games
    assert "palabras_cortas" not in games
    assert b"Cards per hand" in page.content
    assert "Βασίλης".encode() in page.content
    every = client_for(teacher).get(start_url(classroom) + "?all=1")
    assert "palabras_cortas" in dict(every.context["form"].fields["game"].choices)


def test_starting_a_lesson_seats_the_class_and_opens_the_dashboard(teacher, classroom, students):
    response = client_for(teacher).post(
        start_url(classroom),
        {"game": "toy", "option__toy__hand_size": "3", "seating": "auto", "table_size": "2"},
    )
    lesson = Lesson.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:lesson", args=[lesson.id])
    assert lesson.options == {"hand_size": 3, "clock_seconds": 0}
    assert sorted(t.seats.count() for t in lesson.tables.all()) == [1, 2]


def test_seating_by_hand(teacher, classroom, students):
    data = {"game": "toy", "seating": "hand", "table_size": "3"}
    data.update(
        {f"table_of_{students[0].id}": "2", f"table_of_{students[1].id}": "1", f"table_of_{students[2].id}": ""}
    )
    client_for(teacher).post(start_url(classroom), data)
    tables = Lesson.objects.get().tables.order_by("number")
    assert [[s.student_id for s in t.seats.all()] for t in tables] == [[students[1].id], [students[0].id]]


def test_a_refused_start_shows_why(teacher, classroom, students):
    response = client_for(teacher).post(start_url(classroom), {"game": "toy", "seating": "auto", "table_size": "9"})
    assert response.status_code == 200
    assert b"Tables for this game seat 1 to 4 players." in response.content
    assert not Lesson.objects.exists()


def make_lexicon(language: str, name: str = "", owner=None) -> Lexicon:
    return Lexicon.objects.create(
        name=name or f"Words ({language})", language=language, version=1, status=Lexicon.Status.READY, owner=owner
    )


def test_the_class_languages_lexicon_is_chosen_by_default(teacher, classroom, students):
    Lexicon.objects.filter(slug__isnull=False).update(version=0)  # no bundled lexicon usable (if loaded)
    make_lexicon("spa", name="A Spanish list")
    make_lexicon("grc", name="Zeta words")
    greek = make_lexicon("grc", name="Greek words")
    page = client_for(teacher).get(start_url(classroom))
    assert page.context["form"]["lexicon"].value() == greek.id


def test_the_bundled_lexicon_comes_before_a_teachers_own(teacher, classroom, students, bundled_lexicons):
    make_lexicon("grc", name="A teacher's Greek", owner=teacher)
    page = client_for(teacher).get(start_url(classroom))
    assert page.context["form"]["lexicon"].value() == bundled_lexicons["koine-greek"].id


def test_a_lexicon_in_another_language_than_the_game_is_refused(teacher, classroom, students):
    spanish = make_lexicon("spa")
    response = client_for(teacher).post(
        start_url(classroom) + "?all=1",  # every game offered, so every language's lexicons are too
        {"game": "toy", "lexicon": spanish.id, "seating": "auto", "table_size": "2", "option__toy__hand_size": "3"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "is not in the language of" in page
    assert "choose a Koine Greek lexicon" in page  # the language's name, never its code
    assert "choose a grc lexicon" not in page
    assert not Lesson.objects.exists()


def test_the_lexicon_choices_carry_their_language_for_the_chosen_game(teacher, classroom, students):
    Lexicon.objects.filter(slug__isnull=False).update(version=0)  # only the lexicons made here
    spanish = make_lexicon("spa", name="Mis palabras")
    greek = make_lexicon("grc", name="Greek words")
    page = client_for(teacher).get(start_url(classroom) + "?all=1").content.decode()
    # Each game says its language and each lexicon its own: the page shows only the chosen game's lexicons.
    assert '<option value="toy" data-language="grc"' in page
    assert '<option value="palabras_cortas" data-language="spa"' in page
    assert f'<option value="{greek.id}" data-language="grc" selected>Greek words</option>' in page
    assert f'<option value="{spanish.id}" data-language="spa">Mis palabras</option>' in page
    assert 'data-language=""' not in page  # "No lexicon" belongs to every game


def test_the_lexicon_field_names_the_language_of_the_class_not_its_code(teacher, classroom, students):
    page = client_for(teacher).get(start_url(classroom)).content.decode()
    assert "Lexicons in Koine Greek" in page


def test_language_names():
    from lexicons.languages import language_name

    assert [language_name(code) for code in ("grc", "spa", "eng")] == ["Koine Greek", "Spanish", "English"]
    assert language_name("lat") == "Latin"
    assert language_name("xyz") == "xyz"  # a code no table names is shown as it is


def test_by_hand_with_nobody_seated_is_refused(teacher, classroom, students):
    response = client_for(teacher).post(start_url(classroom), {"game": "toy", "seating": "hand", "table_size": "2"})
    assert b"Give at least one student a table number" in response.content


def test_students_and_other_teachers_cannot_start_lessons(classroom, students, other_teacher):
    assert client_for(students[0].user).get(start_url(classroom)).status_code == 403
    assert client_for(other_teacher).get(start_url(classroom)).status_code == 404


def test_a_running_lesson_sends_the_teacher_to_its_dashboard(teacher, classroom, lesson):
    response = client_for(teacher).get(start_url(classroom))
    assert response.url == reverse("games:lesson", args=[lesson.id])
    page = client_for(teacher).get(reverse("learning:classroom", args=[classroom.id]))
    assert b"Open the dashboard" in page.content


# -- the class page for students ------------------------------------------------------------------------------------
def test_a_seated_student_sees_go_to_your_table(classroom, lesson, table, students):
    page = client_for(students[0].user).get(reverse("learning:classroom", args=[classroom.id]))
    assert b"Go to your table" in page.content
    assert reverse("games:table", args=[table.id]).encode() in page.content


def test_without_a_lesson_students_wait(classroom, students):
    page = client_for(students[0].user).get(reverse("learning:classroom", args=[classroom.id]))
    assert b"Waiting for your teacher" in page.content
    assert b"Go to your table" not in page.content


# -- the dashboard and the table page -------------------------------------------------------------------------------
def test_the_dashboard_is_the_teachers(teacher, other_teacher, lesson, students):
    url = reverse("games:lesson", args=[lesson.id])
    page = client_for(teacher).get(url)
    assert page.status_code == 200
    assert page.context["rows"][0]["to_act"] == ["Ana"]
    assert client_for(other_teacher).get(url).status_code == 404
    assert client_for(students[0].user).get(url).status_code == 403


def test_the_table_page_for_a_player_and_for_the_teacher(teacher, table):
    url = reverse("games:table", args=[table.id])
    player = client_for(seated(table)[1]).get(url)
    assert player.status_code == 200
    assert player.context["seat"] == 1
    assert b'data-seat="1"' in player.content
    assert b"renderers/generic.js" in player.content  # the toy game has no renderer of its own
    spectator = client_for(teacher).get(url)
    assert spectator.context["seat"] is None
    assert b'data-seat=""' in spectator.content


def test_the_table_page_is_refused_to_outsiders(table, classroom, other_teacher):
    outsider = learning_services.join_classroom(classroom.join_code, "Outsider")
    url = reverse("games:table", args=[table.id])
    assert client_for(outsider.user).get(url).status_code == 403
    assert client_for(other_teacher).get(url).status_code == 403
    assert Client().get(url).status_code == 302  # to the login page


def test_pause_resume_and_end_from_the_dashboard(teacher, lesson, table):
    client = client_for(teacher)
    dashboard = reverse("games:lesson", args=[lesson.id])
    response = client.post(reverse("games:pause_table", args=[table.id]), {"next": dashboard})
    assert response.url == dashboard
    assert Table.objects.get(pk=table.pk).status == "paused"
    client.post(reverse("games:resume_table", args=[table.id]))
    assert Table.objects.get(pk=table.pk).status == "playing"
    client.post(reverse("games:end_table", args=[table.id]))
    assert Table.objects.get(pk=table.pk).status == "finished"
    follow = client.post(reverse("games:end_table", args=[table.id]), follow=True)
    assert b"This game is over already." in follow.content


def test_moderation_ignores_a_foreign_next(teacher, lesson, table):
    response = client_for(teacher).post(
        reverse("games:pause_table", args=[table.id]), {"next": "https://evil.example/"}
    )
    assert response.url == reverse("games:lesson", args=[lesson.id])


def test_removing_a_player_from_the_dashboard(teacher, table):
    client_for(teacher).post(reverse("games:remove_player", args=[table.id, 2]))
    assert table.seats.get(number=2).removed


def test_moderation_is_the_teachers_only(table, other_teacher):
    student = seated(table)[0]
    assert client_for(student).post(reverse("games:pause_table", args=[table.id])).status_code == 403
    client_for(other_teacher).post(reverse("games:pause_table", args=[table.id]))
    assert Table.objects.get(pk=table.pk).status == "playing"
    assert client_for(other_teacher).get(reverse("games:pause_table", args=[table.id])).status_code == 405


def test_ending_the_lesson_returns_to_the_class(teacher, classroom, lesson):
    response = client_for(teacher).post(reverse("games:end_lesson", args=[lesson.id]))
    assert response.url == reverse("learning:classroom", args=[classroom.id])
    assert Lesson.objects.get().ended is not None
    lessons.start_lesson(teacher, classroom, "toy", None, {}, 3)


def test_pala_card_names_default_to_the_class_language(teacher):
    """A Spanish class's start form offers Pala with Spanish colour names already chosen."""
    from games.forms import StartLessonForm
    from games.rules import GAMES
    from learning import services as learning_services

    spanish = learning_services.create_classroom(teacher, "Español 1", "spa")
    form = StartLessonForm(classroom=spanish, teacher=teacher)
    option = next(o for o in GAMES["pala"].table_options() if o.name == "card_language")
    assert form.fields[form.option_name("pala", option)].initial == "spa"
