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


class ParseQuizForm(forms.Form):
    """A review of a Greek word: one select per field its part of speech has, with the values in words."""

    def __init__(self, fields: tuple[str, ...], *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in fields:
            choices = [("", "— choose —"), *morphology.VALUES[name].items()]
            self.fields[name] = forms.ChoiceField(label=name.capitalize(), choices=choices)


class RecallForm(forms.Form):
    """A review by meaning: the student says whether they knew it."""

    knew = forms.ChoiceField(choices=[("yes", "I knew it"), ("no", "I did not know it")])
