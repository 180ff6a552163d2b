"""Read-only JSON API: standings, bracket, honours and schedule per tournament.

Every response is described by ``openapi.json`` (OpenAPI 3), served at ``api/openapi.json``.
"""
