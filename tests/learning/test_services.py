"""Classes, join codes and the roster, through the services."""

import unicodedata

import pytest

from games.engine import AppError
from learning import codes, services
from learning.models import Classroom, Student, User

pytestmark = pytest.mark.django_db


def test_new_class_gets_a_short_unambiguous_join_code(teacher):
    room = services.create_classroom(teacher, "Greek 101", "grc")
    assert len(room.join_code) == codes.JOIN_CODE_LENGTH
    assert set(room.join_code) <= set(codes.ALPHABET)
    assert not set(room.join_code) & set("0O1IL5S")


def test_students_cannot_create_classes(student):
    with pytest.raises(AppError) as error:
        services.create_classroom(student.user, "Mine", "grc")
    assert error.value.code == "teacher_only"


def test_class_language_must_be_offered(teacher):
    with pytest.raises(AppError) as error:
        services.create_classroom(teacher, "Latin", "lat")
    assert error.value.code == "bad_language"


def test_join_creates_a_student_with_a_rejoin_code(classroom):
    student = services.join_classroom(classroom.join_code, "  Ana  María ")
    assert student.display_name == "Ana María"
    assert student.classroom == classroom
    assert student.user.is_student
    assert not student.user.has_usable_password()
    assert len(student.rejoin_code) == codes.REJOIN_CODE_LENGTH


def test_join_code_is_forgiving_of_case_spaces_and_dashes(classroom):
    typed = "-".join(classroom.join_code.lower()[i : i + 3] for i in (0, 3))
    assert services.join_classroom(f" {typed} ", "Ana").classroom == classroom


def test_wrong_code_is_refused_clearly(classroom):
    with pytest.raises(AppError) as error:
        services.join_classroom("ZZZZZZ", "Ana")
    assert error.value.code == "wrong_code"
    assert "check it with your teacher" in error.value.message


def test_locked_class_refuses_new_students_as_a_wrong_code_would(teacher, classroom):
    """A locked class's code gets the answer of an unknown code: an answer never tells a guesser the code exists."""
    services.set_locked(teacher, classroom.id, True)
    with pytest.raises(AppError) as locked:
        services.join_classroom(classroom.join_code, "Ana")
    with pytest.raises(AppError) as unknown:
        services.join_classroom("ZZZZZZ", "Ana")
    assert (locked.value.code, locked.value.message) == (unknown.value.code, unknown.value.message)


def test_duplicate_names_are_refused_ignoring_case(classroom, student):
    with pytest.raises(AppError) as error:
        services.join_classroom(classroom.join_code, student.display_name.upper())
    assert error.value.code == "name_taken"
    assert Student.objects.count() == 1


def test_over_long_names_are_refused(classroom):
    with pytest.raises(AppError) as error:
        services.join_classroom(classroom.join_code, "x" * (Student.NAME_MAX_LENGTH + 1))
    assert error.value.code == "name_too_long"


def test_blank_names_are_refused(classroom):
    with pytest.raises(AppError) as error:
        services.join_classroom(classroom.join_code, "   ")
    assert error.value.code == "bad_name"


def test_greek_names_are_stored_nfc(classroom):
    student = services.join_classroom(classroom.join_code, unicodedata.normalize("NFD", "Ἀνδρέας"))
    assert student.display_name == "Ἀνδρέας"
    assert unicodedata.is_normalized("NFC", student.display_name)


def test_rejoin_code_finds_the_student(student):
    assert services.find_by_rejoin_code(student.rejoin_code.lower()) == student


def test_unknown_rejoin_code_is_refused(db):
    with pytest.raises(AppError) as error:
        services.find_by_rejoin_code("ABCDEFGH")
    assert error.value.code == "wrong_code"


def test_teacher_renames_a_student(teacher, student):
    services.rename_student(teacher, student.id, "Anna")
    student.refresh_from_db()
    assert student.display_name == "Anna"


def test_rename_to_a_taken_name_is_refused(teacher, classroom, student):
    services.join_classroom(classroom.join_code, "Berto")
    with pytest.raises(AppError) as error:
        services.rename_student(teacher, student.id, "berto")
    assert error.value.code == "name_taken"


def test_other_teachers_cannot_touch_my_students(other_teacher, student):
    with pytest.raises(AppError) as error:
        services.rename_student(other_teacher, student.id, "Hacked")
    assert error.value.code == "not_found"
    with pytest.raises(AppError):
        services.remove_student(other_teacher, student.id)
    with pytest.raises(AppError):
        services.set_locked(other_teacher, student.classroom_id, True)


def test_removed_student_is_deactivated_not_deleted(teacher, student):
    services.remove_student(teacher, student.id)
    student.refresh_from_db()
    assert not student.active
    assert not User.objects.get(pk=student.user_id).is_active
    with pytest.raises(AppError) as error:
        services.find_by_rejoin_code(student.rejoin_code)
    assert error.value.code == "removed"


def test_removed_students_name_can_be_used_again(teacher, classroom, student):
    services.remove_student(teacher, student.id)
    assert services.join_classroom(classroom.join_code, student.display_name).active


def test_join_codes_are_unique_across_classes(teacher):
    rooms = [services.create_classroom(teacher, f"Class {i}", "spa") for i in range(30)]
    assert len({room.join_code for room in rooms}) == 30
    assert Classroom.objects.filter(teacher=teacher).count() == 30
