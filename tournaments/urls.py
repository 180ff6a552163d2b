from django.urls import path

from tournaments import views
from tournaments.api.urls import urlpatterns as api_urlpatterns
from tournaments.views.routes import urlpatterns as web_urlpatterns

app_name = "tournaments"
urlpatterns = [
    path("", views.home, name="home"),
    *web_urlpatterns,
    *api_urlpatterns,
    path("t/<slug:slug>/standings/plain/", views.public.standings_plain, name="standings-plain"),
]
