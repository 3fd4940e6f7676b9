"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets pass the origin check (only pages of this very site — scheme, host and port — may open a socket, so
another site cannot ride a student's session) and then find their user from the session cookie
(:class:`config.websocket.SocketUser`), so consumers see ``scope["user"]``. HTTP requests pass the body limit first
(a body over its route's limit is refused before it is read into memory or onto disk).
"""

import os

from django.core.asgi import get_asgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from config import collector  # noqa: E402
from config.http_limits import BodyLimit  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.websocket import SameOriginValidator, SocketUser  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": BodyLimit(django_asgi_app),
        "websocket": SameOriginValidator(CookieMiddleware(SocketUser(URLRouter(websocket_urlpatterns)))),
    }
)

# The URLconf, and with it every view module, is loaded now: left to the process's first move (its dashboard row
# reverses the table's URL) or first page, the import took 70 ms on a quiet machine and about 0.4 s of the event
# loop at 150 moves a second while every table of the process waited (bench/README.md); loaded here, it is also
# frozen below with the rest. Reading ``reverse_dict`` imports the URLconf and indexes it for the default language.
get_resolver().reverse_dict  # noqa: B018

# Last: what starting made is frozen out of the collector's sight (config.collector).
collector.settle()
