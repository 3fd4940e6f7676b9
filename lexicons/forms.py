"""The teacher's upload form."""

from django import forms
from django.conf import settings

from lexicons.loaders import FORMATS

MAX_FILES = 30  # the 27 books of a MorphGNT New Testament fit


def upload_max_bytes() -> int:
    return getattr(settings, "LEXICON_UPLOAD_MAX_BYTES", 50 * 1024 * 1024)


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input; cleans to a list."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class UploadForm(forms.Form):
    name = forms.CharField(max_length=100)
    language = forms.CharField(
        max_length=20,  # longer input gets the helpful message from clean_language, not a bare length error
        initial="grc",
        help_text="ISO 639-3 code: <code>grc</code> Koine Greek, <code>spa</code> Spanish, <code>eng</code> English; "
        "other languages use the default key (accents removed, upper-case).",
    )
    format = forms.ChoiceField(choices=sorted(FORMATS.items()))
    files = MultipleFileField(  # type: ignore[assignment]  # a field, not Form.files: the form metaclass takes it
        help_text="Hunspell: choose the .dic and the .aff together. UTF-8 text."
    )

    def __init__(self, *args, replacing=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.replacing = replacing
        if replacing is not None:
            # A new version keeps the lexicon's name and language: games already set up with it rely on them.
            del self.fields["name"]
            del self.fields["language"]

    def clean_language(self) -> str:
        code = self.cleaned_data["language"].strip().lower()
        if len(code) != 3 or not code.isascii() or not code.isalpha():
            raise forms.ValidationError("Use a three-letter ISO 639-3 code, like grc, spa or eng.")
        return code

    def clean_files(self) -> list:
        files = self.cleaned_data["files"]
        if len(files) > MAX_FILES:
            raise forms.ValidationError(f"At most {MAX_FILES} files at once.")
        limit = upload_max_bytes()
        total = sum(f.size for f in files)
        if total > limit:
            raise forms.ValidationError(f"The files add up to {total / 1e6:.1f} MB; the limit is {limit / 1e6:.0f} MB.")
        empty = [f.name for f in files if f.size == 0]
        if empty:
            raise forms.ValidationError(f"{empty[0]} is empty.")
        return files

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        files = cleaned.get("files") or []
        if cleaned.get("format") == "hunspell" and files:
            names = sorted(f.name.lower().rsplit(".", 1)[-1] for f in files)
            if names != ["aff", "dic"]:
                raise forms.ValidationError("A Hunspell lexicon needs exactly one .dic file and one .aff file.")
        return cleaned
