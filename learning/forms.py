from django import forms
from django.contrib.auth.forms import UserCreationForm

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
