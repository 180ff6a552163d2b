"""The project's URLs plus the two references the page benchmarks compare with: a trivial
view (the whole Django stack, no work) and one raw SQL query returning the standings' rows
(every seat of the tournament with its player, squad and latest confirmed result), so the
project itself needs no benchmark-only route."""

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

STANDINGS_ROWS = """
SELECT p.name, p.nickname, st.number, s.number, se.seat_order, sq.slug, v.ranking, v.breakdown
FROM tournaments_seat se
JOIN tournaments_session s ON s.id = se.session_id
JOIN tournaments_stage st ON st.id = s.stage_id
JOIN tournaments_tournament t ON t.id = st.tournament_id
JOIN tournaments_player p ON p.id = se.player_id
LEFT JOIN tournaments_squad sq ON sq.id = se.squad_id
LEFT JOIN tournaments_result res ON res.session_id = s.id
LEFT JOIN tournaments_resultversion v ON v.result_id = res.id AND v.confirmed
    AND NOT EXISTS (
        SELECT 1 FROM tournaments_resultversion w
        WHERE w.result_id = res.id AND w.confirmed AND w.number > v.number
    )
WHERE t.slug = %s
ORDER BY st.number, s.number, se.seat_order
"""


def trivial(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def raw_standings(request: HttpRequest, slug: str) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute(STANDINGS_ROWS, [slug])
        rows = cursor.fetchall()
    text = "\n".join("\t".join(str(value) for value in row) for row in rows)
    return HttpResponse(text, content_type="text/plain")


urlpatterns = [
    path("bench/trivial/", trivial),
    path("bench/raw/<slug:slug>/", raw_standings),
    path("", include("bob.urls")),
]
