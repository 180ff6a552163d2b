"""Top-level URLs: the health check, the admin, language switching and the tournament pages."""

from django.contrib import admin
from django.urls import include, path

from bob.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("table/", include("table.urls")),
    path("", include("tournaments.urls")),
]
