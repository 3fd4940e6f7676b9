"""Report figures on a hand-made set of encounters: every number below is counted by hand from ``two_lessons``."""

import pytest

from games.engine import AppError
from learning import reports, services
from learning.encounters import record_encounters
from learning.models import Report, ReviewItem
from tests.learning import encounter_factory as f

ACC, NOM, IMPF = f.NOUN_ACC, f.NOUN_NOM, f.VERB_IMPF
AORIST_GIVEN = IMPF | {"tense": "A"}


@pytest.fixture
def two_lessons(classroom, pupils, lexicon):
    """Ana (seat 0) and Βασίλης (seat 1), two lessons.

    Lesson 1: Ana plays λόγον and parses it right; Βασίλης sees it, then in the quiz gives nominative for accusative
    while Ana teaches it; Ana gives aorist for imperfect on ἦν.
    Lesson 2: Ana plays and parses λόγον right again and gets ἦν right; Βασίλης gives aorist for imperfect on ἦν and
    plays ἄρτον and the rare λόγος.
    """
    first = f.start_lesson(classroom, pupils, lexicon, f.days_ago(10))
    f.record(
        first,
        [
            f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος"),
            f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", ACC),
            f.played(1, "λόγον", "ΛΟΓΟΝ", "λόγος", kind="seen"),
        ],
        f.days_ago(10),
    )
    f.record(
        first,
        [
            f.parsed(1, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", ACC, given=NOM, wrong=["case"], kind="quizzed"),
            f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος", kind="taught"),
            f.parsed(0, "ἦν", "ΗΝ", "εἰμί", "V", IMPF, given=AORIST_GIVEN, wrong=["tense"], kind="quizzed"),
        ],
        f.days_ago(10),
    )
    second = f.start_lesson(classroom, pupils, lexicon, f.days_ago(5))
    f.record(
        second,
        [
            f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος"),
            f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", ACC),
            f.parsed(0, "ἦν", "ΗΝ", "εἰμί", "V", IMPF, kind="quizzed"),
            f.parsed(1, "ἦν", "ΗΝ", "εἰμί", "V", IMPF, given=AORIST_GIVEN, wrong=["tense"], kind="quizzed"),
            f.played(1, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος"),
            f.played(1, "λόγος", "ΛΟΓΟΣ", "λόγος"),
        ],
        f.days_ago(5),
    )
    return first.lesson, second.lesson


@pytest.fixture
def figures(classroom, pupils, two_lessons):
    class_figures, per_student = reports.compute(classroom, pupils)
    return class_figures, per_student[pupils[0].pk], per_student[pupils[1].pk]


def _words(figures):
    return {w["form"]: w for w in figures["words"]}


def _fields(rows):
    return {row["field"]: (row["right"], row["total"]) for row in rows}


def test_counts_of_words_met_played_rare_learned_and_lessons(figures):
    _, ana, vasilis = figures
    # λόγον and ἦν were reviewed once each, five days ago: the model predicts under 90% recall today (fading)
    assert ana["counts"] == {
        "words_met": 2, "words_played": 1, "rare_played": 0, "learned": 0, "fading": 2, "lessons": 2
    }  # fmt: skip
    # his words joined his list in the moves that he missed them in: not reviewed yet, so neither known nor fading
    assert vasilis["counts"] == {
        "words_met": 4, "words_played": 2, "rare_played": 1, "learned": 0, "fading": 0, "lessons": 2
    }  # fmt: skip


def test_each_word_is_listed_with_lemma_gloss_and_counts(figures):
    _, ana, vasilis = figures
    logon = _words(ana)["λόγον"]
    assert (logon["lemma"], logon["gloss"], logon["played"], logon["met"], logon["right"], logon["wrong"]) == (
        "λόγος", "word", 2, 5, 2, 0
    )  # fmt: skip
    ein = _words(ana)["ἦν"]
    assert (ein["lemma"], ein["gloss"], ein["played"], ein["met"], ein["right"], ein["wrong"]) == (
        "εἰμί",
        "I am",
        0,
        2,
        1,
        1,
    )
    assert sorted(_words(vasilis)) == sorted(["λόγον", "ἦν", "ἄρτον", "λόγος"])
    assert _words(vasilis)["λόγον"]["met"] == 2


def test_quiz_and_parse_accuracy(figures):
    _, ana, vasilis = figures
    assert ana["accuracy"] == {
        "quiz": {"right": 1, "total": 2, "percent": 50},
        "parse": {"right": 2, "total": 2, "percent": 100},
        "all": {"right": 3, "total": 4, "percent": 75},
    }
    assert vasilis["accuracy"]["quiz"] == {"right": 0, "total": 2, "percent": 0}
    assert vasilis["accuracy"]["parse"] == {"right": 0, "total": 0, "percent": None}


def test_accuracy_by_part_of_speech(figures):
    _, ana, _ = figures
    assert [(p["pos"], p["label"], p["right"], p["total"]) for p in ana["by_pos"]] == [
        ("N", "noun", 2, 2),
        ("V", "verb", 1, 2),
    ]


def test_accuracy_by_field_counts_every_field_the_word_has(figures):
    _, ana, vasilis = figures
    assert _fields(ana["by_field"]) == {
        "person": (2, 2), "tense": (1, 2), "voice": (2, 2), "mood": (2, 2),
        "case": (2, 2), "number": (4, 4), "gender": (2, 2),
    }  # fmt: skip
    assert _fields(vasilis["by_field"]) == {
        "person": (1, 1), "tense": (0, 1), "voice": (1, 1), "mood": (1, 1),
        "case": (0, 1), "number": (2, 2), "gender": (1, 1),
    }  # fmt: skip


def test_confusions_name_the_value_given_and_the_right_one(figures):
    class_figures, ana, vasilis = figures
    assert [(c["field"], c["given_label"], c["correct_label"], c["count"]) for c in ana["confusions"]] == [
        ("tense", "aorist", "imperfect", 1)
    ]
    assert [(c["field"], c["given"], c["correct"], c["count"]) for c in vasilis["confusions"]] == [
        ("tense", "A", "I", 1),
        ("case", "N", "A", 1),
    ]
    assert [(c["field"], c["given_label"], c["correct_label"], c["count"]) for c in class_figures["confusions"]] == [
        ("tense", "aorist", "imperfect", 2),
        ("case", "nominative", "accusative", 1),
    ]


def test_rare_words_are_those_played_that_the_lexicon_counts_once(figures):
    _, ana, vasilis = figures
    assert ana["rare_words"] == []
    assert vasilis["rare_words"] == ["λόγος"]


def _review(student, key, stability, days_ago):
    ReviewItem.objects.filter(student=student, key=key).update(
        state=2, stability=stability, difficulty=5.0, last_reviewed=f.days_ago(days_ago)
    )


def test_a_word_is_known_when_the_model_predicts_ninety_percent_recall_today(classroom, pupils, two_lessons):
    ana = pupils[0]
    _review(ana, "ΛΟΓΟΝ", 20.0, 5)  # five days into a stability of twenty: about 97%
    _review(ana, "ΗΝ", 2.0, 5)  # five days into a stability of two: about 80%
    _, per_student = reports.compute(classroom, pupils)
    figures = per_student[ana.pk]
    assert figures["learned_words"] == ["λόγον"]
    logon, ein = _words(figures)["λόγον"], _words(figures)["ἦν"]
    assert (logon["learned"], ein["learned"]) == (True, False)
    assert 95 <= logon["recall"] < 100
    assert 70 <= ein["recall"] < 90
    assert (figures["counts"]["learned"], figures["counts"]["fading"]) == (1, 1)


def test_a_word_never_reviewed_is_neither_known_nor_fading(figures):
    _, _, vasilis = figures
    assert _words(vasilis)["ἄρτον"]["recall"] is None
    assert not _words(vasilis)["ἄρτον"]["learned"]


def test_a_wrong_answer_since_makes_a_known_word_fade(classroom, pupils, lexicon, two_lessons):
    ana = pupils[0]
    _review(ana, "ΛΟΓΟΝ", 20.0, 5)
    ReviewItem.objects.filter(student=ana, key="ΛΟΓΟΝ").update(due=f.days_ago(0).date())
    third = f.start_lesson(classroom, pupils, lexicon, f.days_ago(2))
    f.record(third, [f.parsed(0, "λόγον", "ΛΟΓΟΝ", "λόγος", "N", ACC, given=NOM, wrong=["case"])], f.days_ago(2))
    _, per_student = reports.compute(classroom, pupils)
    assert per_student[ana.pk]["learned_words"] == []
    assert _words(per_student[ana.pk])["λόγον"]["recall"] < 90


def test_outside_lessons_each_day_counts_as_one_lesson(classroom, student, lexicon):
    for days in (3, 3, 2):
        record_encounters(
            [f.played(0, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος")], students={0: student}, lexicon=lexicon, game="x",
            when=f.days_ago(days),
        )  # fmt: skip
    _, per_student = reports.compute(classroom, [student])
    assert per_student[student.pk]["counts"]["lessons"] == 2


def test_progress_over_lessons(figures, two_lessons):
    class_figures, ana, vasilis = figures
    assert [lesson["lesson"] for lesson in class_figures["lessons"]] == [str(lesson.pk) for lesson in two_lessons]
    assert [(s["played"], s["right"], s["total"], s["percent"]) for s in ana["lessons"]] == [
        (1, 1, 2, 50),
        (1, 2, 2, 100),
    ]
    assert [(s["played"], s["right"], s["total"]) for s in vasilis["lessons"]] == [(0, 0, 1), (2, 0, 1)]
    rows = {row["name"]: row for row in class_figures["students"]}
    assert rows["Ana"]["progress"] == [50, 100]
    assert rows["Βασίλης"]["played_per_lesson"] == [0, 2]


def test_most_missed_words_of_the_class(figures):
    class_figures, _, _ = figures
    assert [(w["form"], w["wrong"], w["right"], w["students"]) for w in class_figures["most_missed"]] == [
        ("ἦν", 2, 1, 2),
        ("λόγον", 1, 2, 1),
    ]


def test_class_accuracy_by_field_adds_the_students_up(figures):
    class_figures, _, _ = figures
    assert _fields(class_figures["by_field"])["tense"] == (1, 3)
    assert _fields(class_figures["by_field"])["case"] == (2, 3)


def test_the_class_summary_has_one_row_per_active_student(figures, pupils):
    class_figures, _, _ = figures
    assert [(s["name"], s["words_met"], s["quiz"], s["parse"]) for s in class_figures["students"]] == [
        ("Ana", 2, 50, 100),
        ("Βασίλης", 4, 0, None),
    ]


def test_words_to_review_next_come_from_the_review_list(figures):
    _, ana, _ = figures
    assert {w["form"] for w in ana["review_next"]} == {"λόγον", "ἦν"}
    assert all({"form", "lemma", "gloss", "recall", "due"} <= set(w) for w in ana["review_next"])


# -- report jobs -----------------------------------------------------------------------------------------------------
def test_a_lesson_end_builds_a_class_report_with_one_report_per_student(
    two_lessons, classroom, pupils, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        report = services.lesson_ended(two_lessons[1].pk)
    report.refresh_from_db()
    assert (report.status, report.percent, report.scope, report.lesson_id) == ("done", 100, "class", two_lessons[1].pk)
    assert [s["name"] for s in report.figures["students"]] == ["Ana", "Βασίλης"]
    children = {c.student_id: c for c in report.children.all()}
    assert set(children) == {p.pk for p in pupils}
    assert children[pupils[0].pk].figures["counts"]["words_met"] == 2


def test_a_lesson_end_reported_twice_builds_one_report(two_lessons, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        first = services.lesson_ended(two_lessons[1].pk)
        again = services.lesson_ended(two_lessons[1].pk)
    assert first.pk == again.pk
    assert len(callbacks) == 1
    assert Report.objects.filter(scope="class").count() == 1


def test_building_a_finished_report_again_changes_nothing(two_lessons, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        report = services.lesson_ended(two_lessons[1].pk)
    report.refresh_from_db()
    finished = report.finished
    reports.build_report(report.pk)
    report.refresh_from_db()
    assert report.finished == finished
    assert report.children.count() == 2


def test_a_job_rerun_after_a_crash_replaces_the_student_reports(two_lessons, classroom, teacher):
    report = Report.objects.create(scope="class", classroom=classroom, status="running", requested_by=teacher)
    reports.build_report(report.pk)
    Report.objects.filter(pk=report.pk).update(status="running")
    reports.build_report(report.pk)
    assert Report.objects.get(pk=report.pk).children.count() == 2


def test_the_lesson_report_records_moves_still_waiting_for_their_job(classroom, pupils, lexicon):
    table = f.start_lesson(classroom, pupils, lexicon)
    f.move(table, [f.played(0, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος")])  # its recording job has not run
    report = Report.objects.create(scope="class", classroom=classroom, lesson_id=table.lesson_id)
    reports.build_report(report.pk)
    report.refresh_from_db()
    assert report.figures["students"][0]["words_played"] == 1


def test_a_report_is_a_snapshot(two_lessons, classroom, pupils, teacher):
    report = Report.objects.create(scope="class", classroom=classroom, requested_by=teacher)
    reports.build_report(report.pk)
    third = f.start_lesson(classroom, pupils, None)
    f.record(third, [f.played(0, "ξύλον", "ΞΥΛΟΝ", "ξύλον")])
    report.refresh_from_db()
    assert report.figures["students"][0]["words_met"] == 2


def test_a_failed_build_is_marked_with_its_reason(classroom, teacher, monkeypatch):
    report = Report.objects.create(scope="class", classroom=classroom, requested_by=teacher)

    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(reports, "compute", broken)
    reports.build_report(report.pk)
    report.refresh_from_db()
    assert (report.status, report.error_message) == ("failed", "database went away")


def test_asking_twice_while_a_job_runs_gives_the_same_job(classroom, teacher, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = services.request_report(teacher, classroom)
        second = services.request_report(teacher, classroom)
    assert first.pk == second.pk
    assert len(callbacks) == 1


def test_only_the_classs_teacher_or_the_student_may_ask_for_a_report(classroom, pupils, other_teacher):
    with pytest.raises(AppError):
        services.request_report(other_teacher, classroom)
    with pytest.raises(AppError):
        services.request_report(pupils[0].user, classroom)
    with pytest.raises(AppError):
        services.request_report(pupils[0].user, classroom, pupils[1])
    assert services.request_report(pupils[0].user, classroom, pupils[0]).student == pupils[0]


def test_a_lesson_that_does_not_exist_builds_nothing(db):
    assert services.lesson_ended(987654) is None
    assert not Report.objects.exists()
