"""Websocket routes of the games app."""

from django.urls import path

from .consumers import LessonConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lessons/<int:lesson_id>/", LessonConsumer.as_asgi()),
]
