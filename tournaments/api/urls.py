"""API routes, included by ``tournaments.urls`` under ``api/``."""

from django.urls import path

from tournaments.api import views

urlpatterns = [
    path("api/openapi.json", views.schema, name="api-schema"),
    path("api/tournaments/", views.tournaments, name="api-tournaments"),
    path("api/tournaments/<slug:slug>/standings/", views.standings, name="api-standings"),
    path("api/tournaments/<slug:slug>/bracket/", views.bracket, name="api-bracket"),
    path("api/tournaments/<slug:slug>/honours/", views.honours, name="api-honours"),
    path("api/tournaments/<slug:slug>/schedule/", views.schedule, name="api-schedule"),
]
