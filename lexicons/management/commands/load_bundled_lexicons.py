"""``manage.py load_bundled_lexicons``: load the Greek, Spanish and English lexicons shipped in ``lexicons/data``
if they are missing or their file changed; safe to run on every start (``make run`` does)."""

from typing import TextIO, cast

from django.core.management.base import BaseCommand, CommandError

from lexicons.loaders import LexiconImportError
from lexicons.management.commands._progress import ProgressBar
from lexicons.services import BUNDLED, load_bundled_lexicons


class Command(BaseCommand):
    help = "Load the bundled lexicons if missing or outdated."

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", help=f"Only these ({', '.join(b.slug for b in BUNDLED)}).")

    def handle(self, *args, **options):
        unknown = set(options["slugs"]) - {b.slug for b in BUNDLED}
        if unknown:
            raise CommandError(f"no bundled lexicon {sorted(unknown)[0]!r}")
        try:
            load_bundled_lexicons(
                options["slugs"] or None,
                report=self.stdout.write,
                on_progress=lambda bundle: ProgressBar(bundle.name, cast(TextIO, self.stderr._out)),
            )
        except LexiconImportError as exc:
            raise CommandError(str(exc)) from exc
