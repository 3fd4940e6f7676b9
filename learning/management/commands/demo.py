"""Create (once) the demo teacher and class that ``make run`` prints, and print how to log in."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from learning import services
from learning.models import Classroom, User

DEMO_USERNAME = "teacher"
DEMO_PASSWORD = "logos-demo-2026"  # noqa: S105 - the published demo log-in, printed on start


class Command(BaseCommand):
    help = "Create the demo teacher and class if missing and print their log-ins and join code."

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            raise CommandError("The demo teacher's password is published: `demo` runs only in development (DEBUG on).")
        base = f"http://127.0.0.1:{settings.PORT}"
        teacher, created = User.objects.get_or_create(username=DEMO_USERNAME, defaults={"role": User.Role.TEACHER})
        if created:
            teacher.set_password(DEMO_PASSWORD)
            teacher.save()
        classroom = Classroom.objects.filter(teacher=teacher).order_by("created").first()
        if classroom is None:
            classroom = services.create_classroom(teacher, "Demo class", Classroom.Language.GREEK)
        self.stdout.write(
            self.style.SUCCESS(
                "\nLogos Play demo\n"
                f"  Teacher log-in:  {base}/login/  user {DEMO_USERNAME}  password {DEMO_PASSWORD}\n"
                f"  Students join:   {base}/join  class code {classroom.join_code}\n"
            )
        )
