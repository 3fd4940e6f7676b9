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
