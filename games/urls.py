from django.urls import path  # noqa: F401 - routes are added as the app grows

app_name = "games"
urlpatterns: list = []
