from django.urls import path

from lexicons import views

app_name = "lexicons"
urlpatterns = [
    path("", views.lexicon_list, name="list"),
    path("upload/", views.upload, name="upload"),
    path("<int:pk>/", views.browse, name="browse"),
    path("<int:pk>/replace/", views.upload, name="replace"),
    path("<int:pk>/delete/", views.delete, name="delete"),
    path("imports/<int:pk>/", views.progress, name="progress"),
    path("imports/<int:pk>/status/", views.progress_status, name="progress-status"),
]
