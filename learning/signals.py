"""What the classroom tells the rest of the platform, without knowing who listens (the games app does)."""

from django.dispatch import Signal

# A teacher removed a student from the class (sent inside the removal's transaction): student_id, teacher.
student_removed = Signal()
