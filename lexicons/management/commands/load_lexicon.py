"""``manage.py load_lexicon FILES --format F --language L --name N``: import files as a new lexicon, or as a new
version of the lexicon of that name and language (the previous version keeps serving until the import succeeds)."""

from typing import TextIO, cast

from django.core.management.base import BaseCommand, CommandError

from lexicons.loaders import FORMATS, LexiconImportError
from lexicons.management.commands._progress import ProgressBar
from lexicons.models import Lexicon
from lexicons.services import import_lexicon


class Command(BaseCommand):
    help = "Import a lexicon from files (word list, CSV/TSV, MorphGNT, or Hunspell .dic + .aff)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", help="The file(s); Hunspell needs the .dic and the .aff.")
        parser.add_argument("--format", required=True, choices=sorted(FORMATS))
        parser.add_argument("--language", required=True, help="ISO 639-3 code: grc, spa, eng, …")
        parser.add_argument("--name", required=True)
        parser.add_argument("--source", default="")
        parser.add_argument("--licence", default="")
        parser.add_argument("--max-mb", type=int, default=1024, help="Refuse files larger than this (MB).")

    def handle(self, *args, **options):
        language = options["language"].strip().lower()
        if not (len(language) == 3 and language.isalpha()):
            raise CommandError(f"--language must be a three-letter ISO 639-3 code, not {options['language']!r}")
        lexicon, created = Lexicon.objects.get_or_create(name=options["name"], language=language, owner=None, slug=None)
        if options["source"] or options["licence"]:
            lexicon.source, lexicon.licence = options["source"], options["licence"]
            lexicon.save(update_fields=["source", "licence"])
        bar = ProgressBar(options["name"], cast(TextIO, self.stderr._out))
        try:
            count = import_lexicon(
                lexicon,
                options["format"],
                options["files"],
                on_progress=bar,
                max_bytes=options["max_mb"] * 1024 * 1024,
            )
        except LexiconImportError as exc:
            raise CommandError(str(exc)) from exc
        what = "created" if created else "replaced (new version)"
        self.stdout.write(self.style.SUCCESS(f"{lexicon.name}: {count:,} entries, {what}, version {lexicon.version}"))
