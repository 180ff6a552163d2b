"""Every page of the project, for every role, on the demo tournament (stopped in the
semifinals, with results, honours and a closed stage): nothing crashes."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.web.test_role_matrix import ROLES, project_views
from tournaments.models import Session, Tournament
from tournaments.queries.dice_page import dice_streams
from tournaments.web.permissions import player_session

pytestmark = pytest.mark.django_db


def test_every_page_renders_on_the_demo_for_every_role():
    call_command("load_demo", stdout=StringIO())
    tournament = Tournament.objects.get(slug="bob-demo")
    stage = tournament.current_stage() or tournament.stages.order_by("-number").first()
    played = Session.objects.filter(stage__tournament=tournament, result__isnull=False).first()
    pending = Session.objects.filter(stage=stage, result__isnull=True).first() or played
    users = get_user_model().objects
    organiser = tournament.organisers.first()
    judge = pending.judge or users.filter(judged_tournaments=tournament).first()
    other_judge = users.filter(judged_tournaments=tournament).exclude(pk=judge.pk).first()
    superuser, _created = users.get_or_create(
        username="root", defaults={"is_superuser": True, "is_staff": True}
    )
    seat = pending.seats.select_related("player").first()
    clients = {}
    for role in ROLES:
        client = Client()
        if role == "player":
            session = client.session
            session.update(player_session(seat.player))
            session.save()
        elif role != "anonymous":
            user = {
                "judge": judge,
                "other_judge": other_judge,
                "organiser": organiser,
                "superuser": superuser,
            }[role]
            client.force_login(user)
        clients[role] = client
    # the demo's first app-rolled stream of stage dice: its verify page replays it
    key = next((s.key for s in dice_streams(tournament) if s.seeded), "0" * 64)
    for session in {pending, played}:
        values = {
            "key": key,
            "slug": tournament.slug,
            "pk": session.pk,
            "number": session.stage.number,
            "token": seat.player.access_token,
            "seat": seat.pk,
            "card": "report",
            "section": "units",
            "item": "ork",
            "name": "circolo-arena",  # the demo club's own map
            "uidb64": "MQ",  # a password link's account (its token does not check)
        }
        for name, keywords in project_views():
            url = reverse(name, kwargs={k: values[k] for k in keywords})
            for role, client in clients.items():
                response = client.get(url)
                assert response.status_code < 500, f"{name} {url} crashed for {role}"


def test_the_demo_says_whose_log_in_opens_the_game_in_progress():
    """Only a session's own judge may play its board: the demo's printout says which of
    its two judges that is for the game it leaves in progress, and links the board."""
    out = StringIO()
    call_command("load_demo", "--base-url", "http://demo.test", stdout=out)
    pending = Session.objects.get(
        stage__tournament__slug="bob-demo", games__isnull=False, result__isnull=True
    )
    board = reverse("table:board", kwargs={"pk": pending.pk, "number": 1})
    line = next(line for line in out.getvalue().splitlines() if "in progress" in line)
    assert f"session {pending.number}, judged by {pending.judge.get_username()}" in line
    assert line.endswith(f"http://demo.test{board}")
