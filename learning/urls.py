from django.contrib.auth import views as auth_views
from django.urls import path

from . import review_views, views

app_name = "learning"
urlpatterns = [
    path("join/", views.join, name="join"),
    path("rejoin/", views.rejoin, name="rejoin"),
    path("classes/new/", views.create_classroom, name="create_classroom"),
    path("classes/<int:classroom_id>/", views.classroom, name="classroom"),
    path("classes/<int:classroom_id>/lock/", views.lock_classroom, name="lock"),
    path("classes/<int:classroom_id>/students/<int:student_id>/rename/", views.rename_student, name="rename_student"),
    path("classes/<int:classroom_id>/students/<int:student_id>/remove/", views.remove_student, name="remove_student"),
    path(
        "classes/<int:classroom_id>/students/<int:student_id>/rejoin-code/",
        views.new_rejoin_code,
        name="new_rejoin_code",
    ),
    path("classes/<int:classroom_id>/my-rejoin-code/", views.my_rejoin_code, name="my_rejoin_code"),
    # reports and the review list
    path("reports/classes/<int:classroom_id>/", views.class_report, name="class_report"),
    path("reports/classes/<int:classroom_id>/build/", views.build_class_report, name="build_class_report"),
    path(
        "reports/classes/<int:classroom_id>/students.csv",
        views.class_report_csv,
        {"table": "students"},
        name="class_students_csv",
    ),
    path(
        "reports/classes/<int:classroom_id>/words.csv",
        views.class_report_csv,
        {"table": "words"},
        name="class_words_csv",
    ),
    path("reports/students/<int:student_id>/", views.student_report, name="student_report"),
    path("reports/students/<int:student_id>/build/", views.build_student_report, name="build_student_report"),
    path("reports/students/<int:student_id>/words.csv", views.student_report_csv, name="student_report_csv"),
    path("reports/jobs/<int:report_id>/", views.report_status, name="report_status"),
    path("review/", review_views.review_list, name="review"),
    path("review/quiz/", review_views.review_quiz, name="review_quiz"),
    path("review/drill/", review_views.drill, name="drill"),
]

# Account pages keep Django's conventional names ("login", "logout", "home") outside the namespace.
account_urlpatterns = [
    path("", views.home, name="home"),
    path("join", views.join),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
]
