"""Websocket routes of the learning app."""

websocket_urlpatterns: list = []
