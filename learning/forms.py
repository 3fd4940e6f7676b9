from django import forms
from django.contrib.auth.forms import UserCreationForm

from lexicons import morphology

from .models import Classroom, User


class TeacherSignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional; only used to reset your password.")

    class Meta:
        model = User
        fields = ("username", "email")

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        user.role = User.Role.TEACHER
        if commit:
            user.save()
        return user


class ClassroomForm(forms.Form):
    name = forms.CharField(max_length=100, widget=forms.TextInput(attrs={"placeholder": "e.g. Greek 101, Tuesday"}))
    language = forms.ChoiceField(choices=Classroom.Language.choices)


class JoinForm(forms.Form):
    code = forms.CharField(label="Class code", max_length=20, widget=forms.TextInput(attrs={"autocomplete": "off"}))
    # Longer than allowed on purpose, so an over-long name gets the service's clear message, not a silent cut.
    name = forms.CharField(
        label="Your name", max_length=200, widget=forms.TextInput(attrs={"autocomplete": "nickname"})
    )


class RejoinForm(forms.Form):
    code = forms.CharField(
        label="Your rejoin code", max_length=20, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )


class RenameForm(forms.Form):
    name = forms.CharField(label="New name", max_length=200)


class LockForm(forms.Form):
    locked = forms.BooleanField(required=False)


GRADES = [("hard", "Hard"), ("good", "Good"), ("easy", "Easy")]


class ReviewForm(forms.Form):
    """One review on the review page (``learning.srs.quiz_kind``): a Greek word's parse (one select per field of its
    part of speech) and its meaning among a few; a meaning chosen among a few; the word typed for a meaning; or, for a
    word without a meaning in the lexicon, the student's own verdict. A right answer is graded hard, good or easy by
    the student (good unless they say otherwise)."""

    def __init__(self, kind: str, fields: tuple[str, ...], meanings: list[str], *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        for name in fields:
            choices = [("", "— choose —"), *morphology.VALUES[name].items()]
            self.fields[name] = forms.ChoiceField(label=name.capitalize(), choices=choices)
        if meanings and kind in ("parse", "choose"):
            self.fields["meaning"] = forms.ChoiceField(
                label="Meaning", choices=[(m, m) for m in meanings], widget=forms.RadioSelect
            )
        if kind == "type":
            self.fields["word"] = forms.CharField(
                label="The word", max_length=100, widget=forms.TextInput(attrs={"autocomplete": "off"})
            )
        grades = [("again", "I did not know it"), *GRADES] if kind == "recall" else GRADES
        self.fields["grade"] = forms.ChoiceField(
            choices=grades, required=kind == "recall", initial="good", widget=forms.RadioSelect
        )

    def clean_grade(self) -> str:
        return self.cleaned_data.get("grade") or "good"
