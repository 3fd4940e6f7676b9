"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets pass the origin check (only pages of this very site — scheme, host and port — may open a socket, so
another site cannot ride a student's session) and then find their user from the session cookie
(:class:`config.websocket.SocketUser`), so consumers see ``scope["user"]``. HTTP requests pass the body limit first
(a body over its route's limit is refused before it is read into memory or onto disk).
"""

import gc
import os

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

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

# Everything made while starting (Django and every module of the apps, about 130,000 objects) lives as long as the
# process. Frozen out of the garbage collector's sight, it is no longer walked by every full collection, which took
# 35 ms on the event loop while every table of the process waited (bench/README.md, "Live play at scale").
gc.freeze()
# Under load a process keeps each table's state for about a second (the copy the next move is decided on), long
# enough to outlive many young collections at Python's default of one every 700 objects: about 4% of the process's
# CPU went to collecting, and a full collection (50-105 ms with a thousand sockets open) came every 15 s. Less often,
# most of those states are gone before the collector looks (bench/README.md, "the garbage collector under load").
gc.set_threshold(settings.GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
