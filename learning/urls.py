from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

app_name = "learning"
urlpatterns = [
    path("join/", views.join, name="join"),
    path("rejoin/", views.rejoin, name="rejoin"),
    path("classes/new/", views.create_classroom, name="create_classroom"),
    path("classes/<int:classroom_id>/", views.classroom, name="classroom"),
    path("classes/<int:classroom_id>/lock/", views.lock_classroom, name="lock"),
    path("classes/<int:classroom_id>/students/<int:student_id>/rename/", views.rename_student, name="rename_student"),
    path("classes/<int:classroom_id>/students/<int:student_id>/remove/", views.remove_student, name="remove_student"),
]

# Account pages keep Django's conventional names ("login", "logout", "home") outside the namespace.
account_urlpatterns = [
    path("", views.home, name="home"),
    path("join", views.join),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
]
