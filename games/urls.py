from django.urls import path

from . import lesson_views, views

app_name = "games"
urlpatterns = [
    path("classes/<int:classroom_id>/start/", views.start_lesson, name="start_lesson"),
    path("lessons/<int:lesson_id>/", views.lesson_dashboard, name="lesson"),
    path("lessons/<int:lesson_id>/end/", lesson_views.end_lesson, name="end_lesson"),
    path("lessons/<int:lesson_id>/all/<str:what>/", lesson_views.all_tables, name="all_tables"),
    path("lessons/<int:lesson_id>/waiting/", lesson_views.waiting, name="waiting"),
    path("lessons/<int:lesson_id>/seat/", lesson_views.seat_student, name="seat_student"),
    path("lessons/<int:lesson_id>/replace/", lesson_views.replace_student, name="replace_student"),
    path("lessons/<int:lesson_id>/move/", lesson_views.move_student, name="move_student"),
    path("classes/<int:classroom_id>/screen/", lesson_views.projector, name="projector"),
    path("classes/<int:classroom_id>/screen/data/", lesson_views.projector_data, name="projector_data"),
    path("classes/<int:classroom_id>/lessons/", lesson_views.archive, name="archive"),
    path("tables/<int:table_id>/replay/", lesson_views.replay, name="replay"),
    path("tables/<int:table_id>/replay/data/", lesson_views.replay_data, name="replay_data"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/sheet/", views.grabble_sheet, name="grabble_sheet"),
    path("tables/<int:table_id>/pause/", views.pause_table, name="pause_table"),
    path("tables/<int:table_id>/resume/", views.resume_table, name="resume_table"),
    path("tables/<int:table_id>/end/", views.end_table, name="end_table"),
    path("tables/<int:table_id>/seats/<int:seat>/remove/", views.remove_player, name="remove_player"),
    path("tables/<int:table_id>/seats/<int:seat>/robot/", views.seat_robot, name="seat_robot"),
    path("tables/<int:table_id>/show-move/", views.show_move, name="show_move"),
    path("practice/", views.start_practice, name="start_practice"),
    path("practice/<int:table_id>/end/", views.end_practice, name="end_practice"),
]
