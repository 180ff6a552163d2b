"""The project's tournament pages under another path: a request's own URL configuration
(``request.urlconf``), for tests/test_url_tag.py."""

from django.urls import include, path

urlpatterns = [path("prefixed/", include("tournaments.urls"))]
