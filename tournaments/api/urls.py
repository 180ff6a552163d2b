"""API routes, included by ``tournaments.urls`` under ``api/``.

A tournament's slug is taken as any text (``str``), so a slug that cannot exist still gets
the JSON 404 naming it; any other address under ``api/`` gets the JSON 404 of
:func:`.views.unknown`."""

from django.urls import path, re_path

from tournaments.api import views

urlpatterns = [
    path("api/openapi.json", views.schema, name="api-schema"),
    path("api/tournaments/", views.tournaments, name="api-tournaments"),
    path("api/tournaments/<str:slug>/standings/", views.standings, name="api-standings"),
    path("api/tournaments/<str:slug>/bracket/", views.bracket, name="api-bracket"),
    path("api/tournaments/<str:slug>/honours/", views.honours, name="api-honours"),
    path("api/tournaments/<str:slug>/schedule/", views.schedule, name="api-schedule"),
    re_path(r"^api/", views.unknown, name="api-unknown"),
]
