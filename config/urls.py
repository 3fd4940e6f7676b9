from django.contrib import admin
from django.urls import include, path

from learning.urls import account_urlpatterns

urlpatterns = [
    path("admin/", admin.site.urls),
    path("lexicons/", include("lexicons.urls")),
    path("games/", include("games.urls")),
    path("", include("learning.urls")),
    *account_urlpatterns,
]
