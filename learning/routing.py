"""Websocket routes of the learning app."""

from django.urls import path

from .consumers import ClassroomConsumer

websocket_urlpatterns = [
    path("ws/classes/<int:classroom_id>/", ClassroomConsumer.as_asgi()),
]
