"""The teacher's "start a lesson" form: game, lexicon, the game's own table options, and the seating."""

from typing import Any, cast

from django import forms
from django.db.models import F, Q

from games.engine import Game, Option
from games.models import Seat
from games.rules import GAMES
from learning.models import Classroom, User
from lexicons.languages import language_name
from lexicons.models import Lexicon

AUTO = "auto"
BY_HAND = "hand"


def offered_games(classroom: Classroom, show_all: bool) -> dict[str, Game]:
    """The games of the class's language, and games without words (``language == ""``: Pala, Pablo) in any class
    (every game when asked, or when none is in that language)."""
    if show_all or not any(rules.language == classroom.language for rules in GAMES.values()):
        return dict(GAMES)
    return {slug: rules for slug, rules in GAMES.items() if rules.language in ("", classroom.language)}


class LanguageSelect(forms.Select):
    """A select whose options say their language (``data-language``, and ``data-language-name`` when asked), so the
    page shows only the lexicons of the chosen game's language. ``languages`` maps option values to language codes;
    a model choice (a lexicon) gives its own."""

    def __init__(self, *args: Any, with_names: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.languages: dict[str, str] = {}
        self.with_names = with_names

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None) -> dict[str, Any]:
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        instance = getattr(value, "instance", None)
        language = instance.language if instance is not None else self.languages.get(str(value), "")
        if language:
            extra = {"data-language": language}
            if self.with_names:
                extra["data-language-name"] = language_name(language)
            option["attrs"] = {**extra, **option["attrs"]}
        return option


def option_field(option: Option) -> forms.Field:
    """A form field for a rules :class:`Option`. Never required: each game's options are shown together and only
    the chosen game's are read; a missing value falls back to the rules' default."""
    label, help_text = option.label, option.help
    if option.kind == "bool":
        return forms.BooleanField(initial=option.default, label=label, help_text=help_text, required=False)
    if option.kind == "choice":
        return forms.ChoiceField(
            choices=[(str(value), text) for value, text in option.choices],
            initial=str(option.default),
            label=label,
            help_text=help_text,
            required=False,
        )
    if option.kind == "int":
        return forms.IntegerField(
            min_value=option.low,
            max_value=option.high,
            initial=option.default,
            label=label,
            help_text=help_text,
            required=False,
        )
    raise ValueError(f"unknown option kind {option.kind!r}")


class LexiconChoiceField(forms.ModelChoiceField):
    """A choice of lexicon, each labelled by its name alone (not "name (code)": the page names the language)."""

    def label_from_instance(self, obj: Lexicon) -> str:
        return obj.name


class StartLessonForm(forms.Form):
    game = forms.ChoiceField(label="Game", widget=LanguageSelect(with_names=True))
    lexicon = LexiconChoiceField(
        queryset=Lexicon.objects.none(),
        required=False,
        label="Lexicon",
        empty_label="No lexicon (words are only checked by challenge or by you)",
        widget=LanguageSelect,
    )
    seating = forms.ChoiceField(
        label="Seating",
        choices=[(AUTO, "Automatic: shuffle the class into tables"), (BY_HAND, "By hand: give each student a table")],
        initial=AUTO,
        widget=forms.RadioSelect,
    )
    table_size = forms.IntegerField(label="Players per table", min_value=1, max_value=12, initial=3)
    robots = forms.ChoiceField(
        label="Robots",
        choices=[("", "No robots: tables may differ by one player"), *Seat.Robot.choices],
        required=False,
        help_text="Fill every table up to the same size (and a class too small for the game) with robot players.",
    )

    def __init__(self, *args: Any, classroom: Classroom, teacher: User, show_all: bool = False, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.games = offered_games(classroom, show_all)
        game_field = cast(forms.ChoiceField, self.fields["game"])
        lexicon_field = cast(LexiconChoiceField, self.fields["lexicon"])
        game_field.choices = [(slug, rules.title) for slug, rules in self.games.items()]
        game_field.widget.languages = {slug: rules.language for slug, rules in self.games.items()}
        languages = {classroom.language} | {rules.language for rules in self.games.values() if rules.language}
        # Every offered game's lexicons are choices (the page shows the chosen game's); bundled first in each language.
        usable = Lexicon.objects.filter(
            Q(owner__isnull=True) | Q(owner=teacher), version__gt=0, language__in=languages
        ).order_by("language", F("slug").asc(nulls_last=True), "name")
        lexicon_field.queryset = usable
        chosen = self.games.get(self.data.get("game", "")) or next(iter(self.games.values()), None)  # as the page shows
        shown = chosen.language if chosen is not None and chosen.language else classroom.language
        lexicon_field.help_text = f"Lexicons in {language_name(shown)}, the language of the chosen game."
        # The bundled lexicon of the class's language is what most lessons want; failing that, the first by name.
        lexicon_field.initial = (
            usable.filter(language=classroom.language).order_by(F("slug").asc(nulls_last=True), "name").first()
        )
        for slug, rules in self.games.items():
            for option in rules.table_options():
                field = option_field(option)
                if option.follows_class_language and classroom.language in {str(v) for v, _ in option.choices}:
                    field.initial = classroom.language
                self.fields[self.option_name(slug, option)] = field
        self.students = list(classroom.students.filter(active=True).order_by("display_name"))
        for student in self.students:
            self.fields[f"table_of_{student.id}"] = forms.IntegerField(
                label=student.display_name, min_value=1, max_value=100, required=False
            )

    @staticmethod
    def option_name(slug: str, option: Option) -> str:
        return f"option__{slug}__{option.name}"

    def option_groups(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """(slug, title, bound fields) per offered game, for the template."""
        return [
            (slug, rules.title, [self[self.option_name(slug, o)] for o in rules.table_options()])
            for slug, rules in self.games.items()
        ]

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"table_of_{s.id}"] for s in self.students]

    def chosen_options(self) -> dict[str, Any]:
        slug = self.cleaned_data["game"]
        raw = {o.name: self.cleaned_data.get(self.option_name(slug, o)) for o in self.games[slug].table_options()}
        return {name: value for name, value in raw.items() if value not in (None, "")}

    def chosen_seating(self) -> int | list[list[int]]:
        """A table size, or the tables (lists of student ids) in table-number order."""
        if self.cleaned_data["seating"] == AUTO:
            return self.cleaned_data["table_size"]
        tables: dict[int, list[int]] = {}
        for student in self.students:
            number = self.cleaned_data.get(f"table_of_{student.id}")
            if number is not None:
                tables.setdefault(number, []).append(student.id)
        return [tables[n] for n in sorted(tables)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        rules, lexicon = self.games.get(data.get("game", "")), data.get("lexicon")
        if rules is not None and rules.language and lexicon is not None and lexicon.language != rules.language:
            self.add_error(
                "lexicon",
                f"{lexicon.name} is not in the language of {rules.title}: "
                f"choose a {language_name(rules.language)} lexicon.",
            )
        if data.get("seating") == AUTO and data.get("table_size") is None:
            self.add_error("table_size", "How many players per table?")
        if data.get("seating") == BY_HAND and not any(data.get(f"table_of_{s.id}") for s in self.students):
            self.add_error(None, "Give at least one student a table number (students left blank sit out).")
        return data
