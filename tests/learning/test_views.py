"""Class pages: who may see and do what, and what people are told when something is wrong."""

import pytest
from django.urls import reverse

from learning.models import Student, User

pytestmark = pytest.mark.django_db


def test_landing_page_offers_join_and_teacher_sign_up(client):
    page = client.get("/")
    assert page.status_code == 200
    assert b"join your class" in page.content
    assert reverse("signup").encode() in page.content


def test_teacher_signs_up_and_is_logged_in_as_a_teacher(client):
    response = client.post(
        reverse("signup"),
        {"username": "kyria", "email": "", "password1": "a-long-passphrase-9", "password2": "a-long-passphrase-9"},
    )
    assert response.status_code == 302
    user = User.objects.get(username="kyria")
    assert user.is_teacher
    assert client.get("/").context["user"] == user


def test_teacher_logs_in_and_out(client, teacher):
    response = client.post(reverse("login"), {"username": teacher.username, "password": "a-good-password-42"})
    assert response.status_code == 302
    assert client.get("/").context["user"] == teacher
    client.post(reverse("logout"))
    assert not client.get("/").context["user"].is_authenticated


def test_teacher_creates_a_class_and_sees_its_code(client, teacher):
    client.force_login(teacher)
    response = client.post(reverse("learning:create_classroom"), {"name": "Koine 2", "language": "grc"}, follow=True)
    room = teacher.classrooms.get()
    assert room.join_code.encode() in response.content


def test_join_page_logs_the_student_in_and_shows_the_rejoin_code(client, classroom):
    response = client.post("/join", {"code": classroom.join_code, "name": "Berto"}, follow=True)
    student = Student.objects.get(display_name="Berto")
    assert response.redirect_chain[-1][0] == reverse("learning:classroom", args=[classroom.id])
    assert student.rejoin_code.encode() in response.content
    assert response.context["user"] == student.user


@pytest.mark.parametrize(
    ("name", "expected"),
    [("", "This field is required"), ("x" * 31, "at most 30 characters"), ("Ana", "already called")],
)
def test_join_errors_are_shown_on_the_form(client, classroom, student, name, expected):
    response = client.post(reverse("learning:join"), {"code": classroom.join_code, "name": name})
    assert response.status_code == 200
    assert expected in response.content.decode()


def test_wrong_join_code_is_explained(client, classroom):
    response = client.post(reverse("learning:join"), {"code": "QQQQQQ", "name": "Ana"})
    assert "That class code does not let you in" in response.content.decode()


def test_rejoin_from_another_device(client, student):
    response = client.post(reverse("learning:rejoin"), {"code": student.rejoin_code}, follow=True)
    assert response.context["user"] == student.user
    assert student.display_name in response.content.decode()


def test_teacher_pages_are_teacher_only(client, classroom, student):
    client.force_login(student.user)
    assert client.post(reverse("learning:create_classroom"), {"name": "x", "language": "grc"}).status_code == 403
    assert client.post(reverse("learning:lock", args=[classroom.id]), {"locked": "on"}).status_code == 403
    url = reverse("learning:remove_student", args=[classroom.id, student.id])
    assert client.post(url).status_code == 403


def test_anonymous_visitors_are_sent_to_log_in(client, classroom):
    response = client.get(reverse("learning:classroom", args=[classroom.id]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_student_sees_only_their_own_class(client, teacher, classroom, student):
    from learning import services

    other = services.create_classroom(teacher, "Spanish", "spa")
    client.force_login(student.user)
    assert client.get(reverse("learning:classroom", args=[classroom.id])).status_code == 200
    assert client.get(reverse("learning:classroom", args=[other.id])).status_code == 403


def test_teacher_cannot_open_another_teachers_class(client, other_teacher, classroom):
    client.force_login(other_teacher)
    assert client.get(reverse("learning:classroom", args=[classroom.id])).status_code == 403


def test_teacher_page_lists_the_roster_with_manage_buttons(client, teacher, classroom, student):
    client.force_login(teacher)
    page = client.get(reverse("learning:classroom", args=[classroom.id])).content.decode()
    assert student.display_name in page
    assert reverse("learning:remove_student", args=[classroom.id, student.id]) in page


def test_names_are_escaped_on_pages(client, teacher, classroom):
    client.post(reverse("learning:join"), {"code": classroom.join_code, "name": "<script>x</script>"})
    client.force_login(teacher)
    page = client.get(reverse("learning:classroom", args=[classroom.id])).content.decode()
    assert "<script>x</script>" not in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page


def test_rename_and_remove_through_the_page(client, teacher, classroom, student):
    client.force_login(teacher)
    client.post(reverse("learning:rename_student", args=[classroom.id, student.id]), {"name": "Anita"})
    student.refresh_from_db()
    assert student.display_name == "Anita"
    response = client.post(reverse("learning:remove_student", args=[classroom.id, student.id]), follow=True)
    assert "Anita was removed" in response.content.decode()
    student.refresh_from_db()
    assert not student.active


def test_lock_and_unlock_through_the_page(client, teacher, classroom):
    client.force_login(teacher)
    client.post(reverse("learning:lock", args=[classroom.id]), {"locked": "on"})
    classroom.refresh_from_db()
    assert classroom.locked
    client.post(reverse("learning:lock", args=[classroom.id]), {})
    classroom.refresh_from_db()
    assert not classroom.locked


def test_locked_class_message_on_join(client, teacher, classroom):
    classroom.locked = True
    classroom.save()
    response = client.post(reverse("learning:join"), {"code": classroom.join_code, "name": "Ana"})
    assert "(the class may be locked)" in response.content.decode()


def test_unknown_pages_get_a_friendly_404(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert b"Back to the start" in response.content


def test_the_rejoin_reminder_is_shown_once_after_joining(client, classroom):
    response = client.post(reverse("learning:join"), {"code": classroom.join_code, "name": "Berto"}, follow=True)
    assert "Write down your rejoin code" in response.content.decode()
    again = client.get(reverse("learning:classroom", args=[classroom.id]))
    assert "Write down your rejoin code" not in again.content.decode()
