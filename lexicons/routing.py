"""Websocket routes of the lexicons app."""

websocket_urlpatterns: list = []
