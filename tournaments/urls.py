from django.urls import path

from . import views
from .api.urls import urlpatterns as api_urlpatterns
from .public_standings import standings_plain
from .views.routes import urlpatterns as web_urlpatterns

app_name = "tournaments"
urlpatterns = [
    path("", views.home, name="home"),
    *web_urlpatterns,
    *api_urlpatterns,
    path("t/<slug:slug>/standings/plain/", standings_plain, name="standings-plain"),
]
