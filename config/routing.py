"""Websocket URL routes of every app."""

import games.routing
import learning.routing

websocket_urlpatterns = learning.routing.websocket_urlpatterns + games.routing.websocket_urlpatterns
