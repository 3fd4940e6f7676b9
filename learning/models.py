"""Classes, their students, and the people who use the platform."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """Every account. Teachers sign up with a password; students are created when they join a class
    and log in with their rejoin code (they have no e-mail and no usable password)."""

    class Role(models.TextChoices):
        TEACHER = "teacher", "Teacher"
        STUDENT = "student", "Student"

    role = models.CharField(max_length=10, choices=Role.choices, default=Role.TEACHER)

    @property
    def is_teacher(self) -> bool:
        return self.role == self.Role.TEACHER

    @property
    def is_student(self) -> bool:
        return self.role == self.Role.STUDENT


class Classroom(models.Model):
    """A teacher's class. Students join it with ``join_code`` unless the teacher has locked it."""

    class Language(models.TextChoices):
        GREEK = "grc", "Koine Greek"
        SPANISH = "spa", "Spanish"
        ENGLISH = "eng", "English"

    teacher = models.ForeignKey(User, on_delete=models.CASCADE, related_name="classrooms")
    name = models.CharField(max_length=100)
    language = models.CharField(max_length=3, choices=Language.choices)
    join_code = models.CharField(max_length=8, unique=True)
    locked = models.BooleanField(default=False, help_text="A locked class accepts no new students.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class Student(models.Model):
    """A student's place in one class. Removing a student deactivates them rather than deleting them,
    so what they learned stays in the class's records."""

    NAME_MAX_LENGTH = 30

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="student")
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="students")
    display_name = models.CharField(max_length=NAME_MAX_LENGTH)
    rejoin_code = models.CharField(max_length=12, unique=True)
    active = models.BooleanField(default=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(
                models.functions.Lower("display_name"),
                "classroom",
                condition=models.Q(active=True),
                name="unique_active_student_name_per_class",
            )
        ]

    def __str__(self) -> str:
        return self.display_name
