"""Response headers every page carries."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ContentSecurityPolicyMiddleware:
    """Sends ``CONTENT_SECURITY_POLICY``: scripts, styles, images and sockets from this site only, no inline
    script or style, no framing. An injected ``<script>`` or ``style`` attribute then does nothing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = "; ".join(f"{name} {value}" for name, value in settings.CONTENT_SECURITY_POLICY.items())

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.policy)
        return response
