"""Every URL of the project × every role: allowed or denied exactly as this table says.

The table names each view explicitly; a view added without a row here fails
``test_every_view_has_a_rule``, so no page ships without a decided access rule.
Requests are plain GETs: a view that only accepts POST answers 405 to a role that passed its
permission check, and a redirect to the log-in page or 403 to a role that did not.
"""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.factories import UserFactory
from tournaments.actions.staff import allow_creating_tournaments
from tournaments.models import Result

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "judge", "other_judge", "organiser", "superuser")

#: Who passes each kind of rule. "judge" is the judge of the session in the URL.
ALLOWED = {
    "public": set(ROLES),
    "login": {"judge", "other_judge", "organiser", "superuser"},
    # Creating or importing a tournament: who organises one, or is allowed to (decision 60).
    "creator": {"organiser", "superuser"},
    "organiser": {"organiser", "superuser"},
    "judge": {"judge", "organiser", "superuser"},
    "player": {"player"},
}

#: Every view of the project (Django's own admin and language views excepted) and its rule.
RULES = {
    "healthz": "public",
    "tournaments:home": "public",
    "tournaments:tournament": "public",
    "tournaments:standings": "public",
    "tournaments:standings_partial": "public",
    "tournaments:standings-plain": "public",
    "tournaments:schedule": "public",
    "tournaments:session": "public",
    "tournaments:bracket": "public",
    "tournaments:bracket_svg": "public",
    "tournaments:honours": "public",
    "tournaments:dice": "public",
    "tournaments:dice_verify": "public",
    "tournaments:projector": "public",
    "tournaments:player": "public",
    "tournaments:projector_timer": "public",
    "tournaments:login": "public",
    "tournaments:logout": "public",
    # A password link opens for whoever has it; the token in it is the permission.
    "tournaments:password_set": "public",
    "tournaments:account": "login",
    "tournaments:player_link": "public",
    "tournaments:player_calendar": "public",
    "tournaments:api-schema": "public",
    "tournaments:api-tournaments": "public",
    "tournaments:api-standings": "public",
    "tournaments:api-bracket": "public",
    "tournaments:api-honours": "public",
    "tournaments:api-schedule": "public",
    "tournaments:api-unknown": "public",
    "tournaments:player_home": "player",
    "tournaments:player_forget": "player",
    "tournaments:player_account": "player",
    "tournaments:player_switch": "player",
    "tournaments:player_preferences": "player",
    "tournaments:player_loadout": "player",
    "tournaments:player_loadout_check": "player",
    "tournaments:player_dispute": "player",
    "tournaments:judge_home": "login",
    "tournaments:judge_session": "judge",
    "tournaments:judge_draw": "judge",
    "tournaments:judge_initiative": "judge",
    "tournaments:judge_redraw": "judge",
    "tournaments:judge_check_in": "judge",
    "tournaments:judge_no_show": "judge",
    "tournaments:judge_preferences": "judge",
    "tournaments:judge_dice_check": "judge",
    "tournaments:judge_result": "judge",
    "tournaments:judge_result_preview": "judge",
    "tournaments:judge_result_rows": "judge",
    "table:result_from_game": "judge",
    "tournaments:judge_print_score": "judge",
    "tournaments:judge_print_loadouts": "judge",
    "tournaments:judge_pdf_score": "judge",
    "tournaments:judge_pdf_loadouts": "judge",
    "tournaments:organiser_home": "login",
    "tournaments:tournament_create": "creator",
    "tournaments:organiser_dashboard": "organiser",
    "tournaments:organiser_players": "organiser",
    "tournaments:organiser_roster": "organiser",
    "tournaments:organiser_judges": "organiser",
    "tournaments:organiser_catalogue": "organiser",
    "tournaments:organiser_squads": "organiser",
    "tournaments:organiser_house_rules": "organiser",
    "tournaments:organiser_card": "organiser",
    "tournaments:organiser_cards_complete": "organiser",
    "tournaments:organiser_weapon": "organiser",
    "tournaments:organiser_event_card": "organiser",
    "tournaments:organiser_rules_values": "organiser",
    "tournaments:organiser_stage": "organiser",
    "tournaments:organiser_schedule": "organiser",
    "tournaments:organiser_session_schedule": "organiser",
    "tournaments:organiser_start": "organiser",
    "tournaments:organiser_start_dice": "organiser",
    "tournaments:organiser_result_correct": "organiser",
    "tournaments:organiser_advance": "organiser",
    "tournaments:organiser_advance_dice": "organiser",
    "tournaments:organiser_activity": "organiser",
    "tournaments:organiser_venue": "organiser",
    "tournaments:organiser_timer": "organiser",
    "tournaments:organiser_dispute_resolve": "organiser",
    "tournaments:organiser_player_link": "organiser",
    "tournaments:organiser_player_unlink": "organiser",
    "tournaments:organiser_player": "organiser",
    "tournaments:organiser_player_preferences": "organiser",
    "tournaments:organiser_player_withdraw": "organiser",
    "tournaments:organiser_player_private_link": "organiser",
    "tournaments:organiser_judge_remove": "organiser",
    "tournaments:organiser_password_link": "organiser",
    "tournaments:organiser_add": "organiser",
    "tournaments:organiser_remove": "organiser",
    "tournaments:organiser_undo_advance": "organiser",
    "tournaments:organiser_undo_draw": "organiser",
    "tournaments:organiser_session_settings": "organiser",
    "tournaments:organiser_session_stipulation_clear": "organiser",
    "tournaments:organiser_session_threshold_add": "organiser",
    "tournaments:organiser_session_threshold_remove": "organiser",
    "tournaments:organiser_tables": "organiser",
    "tournaments:organiser_tables_numbered": "organiser",
    "tournaments:organiser_table_remove": "organiser",
    "tournaments:organiser_grid": "organiser",
    "tournaments:organiser_grid_place": "organiser",
    "tournaments:organiser_stage_plan": "organiser",
    "tournaments:organiser_maps": "organiser",
    "tournaments:organiser_export": "organiser",
    "tournaments:organiser_delete": "organiser",
    # Anyone logged in may bring a tournament in (it becomes theirs), as they may create one.
    "tournaments:tournament_import": "creator",
    "tournaments:organiser_map": "organiser",
    "tournaments:organiser_map_remove": "organiser",
    # The judge's board for playing the Aliens (the rules app), per session.
    "table:games": "judge",
    "table:board": "judge",
    "table:board_partial": "judge",
    "table:attack_panel": "judge",
    "table:step_log": "judge",
    "table:sight": "judge",
    "table:state_json": "judge",
    "table:move": "judge",
    "table:open_door": "judge",
    "table:equipment": "judge",
    "table:attack": "judge",
    "table:remove": "judge",
    "table:alien_turn": "judge",
    "table:alien_turn_again": "judge",
    "table:alien_dice": "judge",
    "table:undo": "judge",
    "table:end_turn": "judge",
    "table:next_round": "judge",
    "table:play_card": "judge",
    "table:reroll": "judge",
    "table:reroll_panel": "judge",
    "table:adopt_settings": "judge",
    "table:upload": "judge",
    "table:life_points": "judge",
    "table:reachable": "judge",
    "table:targets": "judge",
    # A map's board shows where the aliens wait: the organiser's, before any game.
    "table:map_picture": "organiser",
    # Anyone may follow a game (a projector, the players); only the judge acts.
    "table:stamp": "public",
    "table:watch": "public",
    "table:watch_panel": "public",
}


def project_views() -> list[tuple[str, list[str]]]:
    """(namespaced name, URL keyword names) of every project view, from the live resolver."""
    found: list[tuple[str, list[str]]] = []

    def walk(patterns, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern):
                module = getattr(pattern.callback, "__module__", "")
                if module.startswith("django."):
                    continue  # the admin and set_language: Django's own checks
                assert pattern.name, f"the URL {pattern.pattern} has no name; give it one"
                keywords = list(pattern.pattern.converters)
                found.append((f"{namespace}{pattern.name}", keywords))

    walk(get_resolver().url_patterns, "")
    return found


def test_every_view_has_a_rule():
    names = {name for name, _keywords in project_views()}
    missing = sorted(names - set(RULES))
    assert not missing, f"add these views to RULES with their access rule: {missing}"
    stale = sorted(set(RULES) - names)
    assert not stale, f"these RULES rows name no view any more: {stale}"


def url_for(name: str, keywords: list[str], world) -> str:
    values = {
        "slug": world.tournament.slug,
        "pk": world.session.pk,
        "number": world.stage.number,
        "token": world.player.access_token,
        "seat": world.session.seats.get(player=world.player).pk,
        "key": "0" * 64,  # a seed hash the Dice page does not list
        "card": "report",  # an alien event card
        "section": "units",
        "item": "ork",
        "name": "reference",  # a shipped map (the tournament's own maps are by name too)
        "uidb64": "MQ",  # a password link's account (its token does not check)
    }
    unknown = [k for k in keywords if k not in values]
    assert not unknown, f"{name}: teach url_for the URL keyword(s) {unknown}"
    return reverse(name, kwargs={k: values[k] for k in keywords})


def denied(response) -> bool:
    if response.status_code == 403:
        return True
    return response.status_code == 302 and response["Location"].startswith(
        reverse("tournaments:login")
    )


@pytest.mark.parametrize("role", ROLES)
def test_role_matrix(world, role_client, role):
    problems = []
    for name, keywords in project_views():
        url = url_for(name, keywords, world)
        # A fresh client per URL: opening a player's private link changes who the browser is.
        response = role_client(role).get(url)
        assert response.status_code < 500, f"{name} crashed for {role}"
        expected = role in ALLOWED[RULES[name]]
        if expected == denied(response):
            verb = "allowed" if expected else "denied"
            problems.append(f"{name} ({url}) should be {verb} for {role}: {response.status_code}")
    assert not problems, "\n".join(problems)


def test_other_judge_cannot_post_a_result(world, role_client):
    client = role_client("other_judge")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    response = client.post(url, {"version": world.session.version})
    assert response.status_code == 403
    assert not Result.objects.filter(session=world.session).exists()


#: The header's links each role sees (by URL name), in order.
HEADER = {
    "anonymous": ["tournaments:home", "tournaments:login"],
    "player": ["tournaments:home", "tournaments:player_home", "tournaments:login"],
    "judge": ["tournaments:home", "tournaments:judge_home", "tournaments:account"],
    "other_judge": ["tournaments:home", "tournaments:judge_home", "tournaments:account"],
    "organiser": [
        "tournaments:home",
        "tournaments:judge_home",
        "tournaments:organiser_home",
        "tournaments:account",
    ],
    "superuser": [
        "tournaments:home",
        "tournaments:judge_home",
        "tournaments:organiser_home",
        "admin:index",
        "tournaments:account",
    ],
}


def header_links(response) -> list[str]:
    html = response.content.decode()
    nav = html[html.index('<nav class="site-nav"') : html.index("</nav>")]
    return re.findall(r'<a href="([^"]+)"', nav)


@pytest.mark.parametrize("role", ROLES)
def test_the_header_links_only_what_the_role_can_open(world, role_client, role):
    client = role_client(role)
    links = header_links(client.get(reverse("tournaments:home")))
    assert links == [reverse(name) for name in HEADER[role]]
    for url in links:
        assert client.get(url).status_code == 200, f"{role} cannot open {url}"


def test_an_account_allowed_to_create_tournaments_is_offered_to_organise(world, client):
    """Decision 60: an account without a role is offered nothing to organise until the
    site's administrator allows it to create tournaments."""
    newcomer = UserFactory(username="newcomer")
    newcomer.save()  # the factory sets the password without saving it
    client.force_login(newcomer)
    links = header_links(client.get(reverse("tournaments:home")))
    assert links == [reverse("tournaments:home"), reverse("tournaments:account")]
    allow_creating_tournaments("newcomer")
    links = header_links(client.get(reverse("tournaments:home")))
    assert links == [
        reverse("tournaments:home"),
        reverse("tournaments:organiser_home"),
        reverse("tournaments:account"),
    ]
