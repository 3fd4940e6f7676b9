"""Report pages, CSV exports and the job status: who may see what, and that the pages show the stored figures."""

import csv
import io

import pytest
from django.urls import reverse

from learning import reports, services
from learning.models import Report
from tests.learning import encounter_factory as f


@pytest.fixture
def pupils(classroom, student):
    return [student, services.join_classroom(classroom.join_code, "=Βασίλης")]


@pytest.fixture
def built(classroom, pupils, teacher):
    """One lesson: Ana plays λόγον and misparses ἦν (aorist for imperfect); the class report is built."""
    table = f.start_lesson(classroom, pupils, f.make_lexicon())
    f.record(
        table,
        [
            f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος"),
            f.parsed(0, "ἦν", "ΗΝ", "εἰμί", "V", f.VERB_IMPF, given=f.VERB_IMPF | {"tense": "A"}, wrong=["tense"],
                     kind="quizzed"),
            f.played(1, "λόγον", "ΛΟΓΟΝ", "λόγος", kind="seen"),
        ],
    )  # fmt: skip
    report = Report.objects.create(scope="class", classroom=classroom, requested_by=teacher)
    reports.build_report(report.pk)
    return report


def _client(client, user):
    client.force_login(user)
    return client


def _csv(response):
    return list(csv.reader(io.StringIO(response.content.decode("utf-8").lstrip("\ufeff"))))


# -- access ----------------------------------------------------------------------------------------------------------
def test_the_teacher_sees_the_class_report_with_its_figures(client, teacher, classroom, built):
    page = _client(client, teacher).get(reverse("learning:class_report", args=[classroom.id]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "ἦν" in html
    assert "aorist" in html
    assert "imperfect" in html
    assert "<svg" in html
    assert "Most-missed words" in html


@pytest.mark.parametrize("who", ["other_teacher", "student"])
def test_nobody_else_sees_a_class_report(client, request, classroom, built, who):
    user = request.getfixturevalue(who)
    user = user.user if who == "student" else user
    client.force_login(user)
    for name in ("learning:class_report", "learning:class_students_csv", "learning:class_words_csv"):
        assert client.get(reverse(name, args=[classroom.id])).status_code == 403
    assert client.post(reverse("learning:build_class_report", args=[classroom.id])).status_code == 403


def test_a_student_sees_their_own_report(client, pupils, built):
    page = _client(client, pupils[0].user).get(reverse("learning:student_report", args=[pupils[0].id]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "My words" in html
    assert "λόγον" in html
    assert "word" in html


def test_a_student_cannot_see_a_classmates_report(client, pupils, built):
    client.force_login(pupils[0].user)
    other = pupils[1].id
    assert client.get(reverse("learning:student_report", args=[other])).status_code == 403
    assert client.get(reverse("learning:student_report_csv", args=[other])).status_code == 403
    assert client.post(reverse("learning:build_student_report", args=[other])).status_code == 403


def test_a_teacher_sees_only_their_own_students_reports(client, pupils, built, teacher, other_teacher):
    assert _client(client, teacher).get(reverse("learning:student_report", args=[pupils[1].id])).status_code == 200
    client.force_login(other_teacher)
    assert client.get(reverse("learning:student_report", args=[pupils[1].id])).status_code == 403


def test_the_job_status_is_shown_only_to_who_may_see_the_report(client, built, pupils, teacher, other_teacher):
    url = reverse("learning:report_status", args=[built.pk])
    answer = _client(client, teacher).get(url).json()
    assert (answer["status"], answer["percent"], answer["finished"]) == ("done", 100, True)
    client.force_login(other_teacher)
    assert client.get(url).status_code == 403
    child = built.children.get(student=pupils[0])
    client.force_login(pupils[0].user)
    assert client.get(reverse("learning:report_status", args=[child.pk])).json()["status"] == "done"
    assert client.get(url).status_code == 403


def test_anonymous_visitors_are_sent_to_log_in(client, classroom, pupils):
    for url in (
        reverse("learning:class_report", args=[classroom.id]),
        reverse("learning:student_report", args=[pupils[0].id]),
        reverse("learning:review"),
    ):
        assert client.get(url).status_code == 302


# -- building on demand ----------------------------------------------------------------------------------------------
def test_building_on_demand_answers_with_the_job_to_poll(
    client, teacher, classroom, django_capture_on_commit_callbacks
):
    client.force_login(teacher)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("learning:build_class_report", args=[classroom.id]), headers={"accept": "application/json"}
        ).json()
    assert answer["status_url"] == reverse("learning:report_status", args=[answer["id"]])
    assert client.get(answer["status_url"]).json()["status"] == "done"


def test_a_student_builds_their_own_report(client, pupils, built, django_capture_on_commit_callbacks):
    client.force_login(pupils[0].user)
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(reverse("learning:build_student_report", args=[pupils[0].id]), follow=True)
    assert page.status_code == 200
    report = Report.objects.filter(scope="student", parent=None).get()
    assert report.status == "done"
    assert report.figures["counts"]["words_played"] == 1


def test_a_page_without_a_report_offers_to_build_one(client, teacher, classroom):
    page = _client(client, teacher).get(reverse("learning:class_report", args=[classroom.id]))
    assert "There is no report for this class yet" in page.content.decode()
    assert page.status_code == 200
    csv_page = client.get(reverse("learning:class_students_csv", args=[classroom.id]))
    assert csv_page.status_code == 404


# -- CSV -------------------------------------------------------------------------------------------------------------
def test_the_class_csv_has_one_row_per_student(client, teacher, classroom, built):
    rows = _csv(_client(client, teacher).get(reverse("learning:class_students_csv", args=[classroom.id])))
    assert rows[0] == [
        "name", "words_met", "words_played", "rare_played", "learned", "fading", "lessons",
        "quiz_percent", "parse_percent", "all_percent",
    ]  # fmt: skip
    assert rows[1:] == [
        ["'=Βασίλης", "1", "0", "0", "0", "0", "1", "", "", ""],  # a name starting with = stays text, and sorts first
        ["Ana", "2", "1", "0", "0", "0", "1", "0", "", "0"],
    ]


def test_the_class_words_csv_lists_every_students_words(client, teacher, classroom, built):
    rows = _csv(_client(client, teacher).get(reverse("learning:class_words_csv", args=[classroom.id])))
    assert rows[0][:4] == ["student", "form", "lemma", "gloss"]
    assert [(r[0], r[1], r[2], r[3]) for r in rows[1:]] == [
        ("'=Βασίλης", "λόγον", "λόγος", "word"),
        ("Ana", "λόγον", "λόγος", "word"),
        ("Ana", "ἦν", "εἰμί", "I am"),
    ]


def test_the_student_csv_has_their_words_with_counts(client, pupils, built):
    response = _client(client, pupils[0].user).get(reverse("learning:student_report_csv", args=[pupils[0].id]))
    assert response["Content-Type"].startswith("text/csv")
    rows = _csv(response)
    header = rows[0]
    logon = dict(zip(header, rows[1], strict=True))
    assert logon == {
        "student": "Ana", "form": "λόγον", "lemma": "λόγος", "gloss": "word", "pos": "N", "played": "1", "met": "1",
        "right": "0", "wrong": "0", "rare": "no", "learned": "no", "recall": "",
    }  # fmt: skip
    assert dict(zip(header, rows[2], strict=True))["wrong"] == "1"


# -- links from the class pages --------------------------------------------------------------------------------------
def test_the_class_pages_link_the_reports(client, teacher, classroom, student):
    page = _client(client, teacher).get(reverse("learning:classroom", args=[classroom.id])).content.decode()
    assert reverse("learning:class_report", args=[classroom.id]) in page
    client.force_login(student.user)
    page = client.get(reverse("learning:classroom", args=[classroom.id])).content.decode()
    assert reverse("learning:student_report", args=[student.id]) in page
    assert reverse("learning:review") in page
