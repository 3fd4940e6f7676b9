from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("classes/<int:classroom_id>/start/", views.start_lesson, name="start_lesson"),
    path("lessons/<int:lesson_id>/", views.lesson_dashboard, name="lesson"),
    path("lessons/<int:lesson_id>/end/", views.end_lesson, name="end_lesson"),
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
