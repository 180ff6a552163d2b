"""``load_demo``: a demo tournament stopped in the middle of the semifinals.

Nine players, the preliminaries played and confirmed, semifinal 1 confirmed, semifinal 2
scheduled without a result and its game in progress on the judge's board page, the final
prepared. Every session played or being played had its initiative rolled at the table (the
play order its pages show). Preliminary session 1 was played on the board to its end
(Alien Hunt with the event deck; :mod:`demo.board_play`, seeded dice) and its confirmed
result is the one the game proposed, linked to the game; the semifinal's game in progress
is Catch the Flag without aliens, as its stipulation says (no blip, alien or Alien turn);
the other results are typed-in scripts, with alien tokens only where the stipulation has
aliens. Creates an organiser, two judges and one player's account with demo-only
passwords and prints them with every player's private link. Running it again changes
nothing (``--reset`` deletes the demo and builds it anew).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from demo.board_play import BoardPlayer
from rules.engine.dice import Dice, ScriptedDice, SeededDice
from table.actions import create_game
from table.models import Game
from table.result_from_game import propose_result
from tournaments.actions.map_edits import save_map
from tournaments.actions.player_accounts import link_account
from tournaments.actions.player_choices import save_loadout
from tournaments.actions.registration import NewPlayer, register_roster
from tournaments.actions.result_entry import FromGame, confirm_result, record_result
from tournaments.actions.scheduling import schedule_session
from tournaments.actions.session_setup import run_initiative
from tournaments.actions.staff import allow_creating_tournaments
from tournaments.actions.stage_advance import advance
from tournaments.actions.tournament_setup import create_tournament, delete_tournament, save_stage
from tournaments.actions.venue_tables import table_named
from tournaments.domain.loadout import Loadout, suggested_cards, suggested_targeter_marks
from tournaments.models import (
    Player,
    Seat,
    Session,
    Stage,
    StageKind,
    StipulationKind,
    Tournament,
)
from tournaments.queries.loadout_checks import card_bonuses, loadout_problems
from tournaments.queries.session_stipulation import result_limits
from tournaments.queries.tournament_catalogue import tournament_catalogue
from tournaments.sheets.seats import session_seats

DEMO_SLUG = "bob-demo"
ORGANISER = ("organiser", "organiser-demo")
JUDGES = (("judge1", "judge1-demo", "Anna", "Bianchi"), ("judge2", "judge2-demo", "Marco", "Verdi"))
#: A player who logs in with an account instead of a private link: Luca Rossi.
PLAYER_ACCOUNT = ("player1", "player1-demo", "Luca", "Rossi")
PLAYERS = (
    ("Luca Rossi", "Kraken"),
    ("Giulia Conti", "Valchiria"),
    ("Paolo Ferri", "Sergente"),
    ("Sara Greco", "Nova"),
    ("Davide Galli", "Bullone"),
    ("Elena Marino", "Cometa"),
    ("Matteo Ricci", "Tempesta"),
    ("Chiara Bruno", "Fenice"),
    ("Andrea Costa", "Ariete"),
)
SQUADS = ("ultramarines", "blood-angels", "imperial-fists")
#: The bundled map each stage plays on (rules/engine/maps/).
DEMO_MAPS = {
    StipulationKind.ALIEN_HUNT: "hunt-derelict",
    StipulationKind.CATCH_THE_FLAG: "flag-relay",
    StipulationKind.TPK: "circolo-arena",
}
#: The demo club's own map (the final plays on it), as an organiser adds one on the Maps page.
CLUB_MAP = Path(__file__).resolve().parents[2] / "maps" / "circolo-arena.txt"

#: Per session, what happened: (killer seat, victim seat, marine class) kills, and alien
#: tokens per seat (type, count), within the markers of the Alien Hunt map; each token is
#: worth what the tournament's catalogue says. Seats are indices in seat order. A session
#: played without aliens scores the flag instead of tokens: its first seat brought the flag
#: home.
SCRIPTS = (
    {
        "kills": [(0, 1, "heavy"), (0, 2, "light"), (1, 2, "commander")],
        "tokens": {0: ("ork", 2), 1: ("gretchin", 3), 2: ("android", 1)},
    },
    {
        "kills": [(2, 0, "heavy"), (1, 0, "light"), (2, 1, "light")],
        "tokens": {0: ("ork", 1), 1: ("chaos_marine", 1), 2: ("gretchin", 2)},
    },
    {
        "kills": [(1, 2, "heavy"), (1, 0, "heavy"), (0, 2, "light")],
        "tokens": {0: ("android", 2), 1: ("ork", 1), 2: ("ork", 2)},
    },
)
FLAG_POINTS = 30
#: The demo players' weapons, by seat: (commander combo, the four marines' weapons), each legal
#: (RULES §5: a heavy weapon and a laser rifle at least, each heavy weapon once).
ARMS = (
    ("bolter", ("laser-rifle", "missile-launcher", "laser-rifle", "plasma-gun")),
    ("axe_pistol", ("assault-cannon", "laser-rifle", "laser-rifle", "laser-rifle")),
    ("sword_glove", ("plasma-gun", "laser-rifle", "missile-launcher", "assault-cannon")),
)


def equip(stage: Stage) -> None:
    """A legal loadout for every seat of ``stage`` with a squad: the seat's weapons from
    :data:`ARMS`, and the first cards of its chapter deck its rank and bonus allow (checked
    by the loadout rules as they stand before the session is played)."""
    catalogue = tournament_catalogue(stage.tournament)
    seats = Seat.objects.filter(session__stage=stage, squad__isnull=False).select_related(
        "squad", "session__stage", "player"
    )
    for seat in seats.order_by("session__number", "seat_order"):
        assert seat.squad is not None  # filtered above
        squad = seat.squad.slug
        combo, marines = ARMS[seat.seat_order % len(ARMS)]
        orders, equipment = suggested_cards(catalogue, squad, *card_bonuses(seat))
        loadout = save_loadout(
            seat,
            Loadout(
                squad=squad,
                commander_combo=combo,
                marine_weapons=marines,
                order_cards=orders,
                equipment_cards=equipment,
                targeter_marks=suggested_targeter_marks(equipment, marines),
            ),
        )
        problems = loadout_problems(loadout)
        if problems:
            raise CommandError(f"{seat}: {problems}")


def breakdowns(session: Session, script: dict) -> list[dict]:
    """Consistent seat breakdowns: each kill is recorded by the killer and the victim."""
    seats = [
        str(pid) for pid in session.seats.order_by("seat_order").values_list("player", flat=True)
    ]
    entries: dict[str, dict[str, Any]] = {
        seat: {"seat": seat, "kills": [], "losses": [], "alien_tokens": [], "objectives": []}
        for seat in seats
    }
    for killer, victim, marine_class in script["kills"]:
        if killer >= len(seats) or victim >= len(seats):
            continue
        entries[seats[killer]]["kills"].append(
            {"victim": seats[victim], "marine_class": marine_class, "count": 1}
        )
        entries[seats[victim]]["losses"].append(
            {"marine_class": marine_class, "cause": "player", "killer": seats[killer], "count": 1}
        )
    limits = result_limits(session)
    aliens = limits.aliens
    if limits.scoring is not None and limits.scoring.flags:  # the one objective (decision 71)
        objective = {"label": _("Flag brought home"), "points": FLAG_POINTS}  # as the board says
        entries[seats[0]]["objectives"].append(objective)
    if not aliens.in_play:
        return list(entries.values())
    for index, (alien, count) in script["tokens"].items():
        if index < len(seats):
            entries[seats[index]]["alien_tokens"].append(
                {"alien_type": alien, "value": aliens.default_value(alien), "count": count}
            )
    return list(entries.values())


#: The demo's board games: the finished one's dice and its most rounds (it ends sooner when
#: the event deck runs out), the one in progress's dice and the rounds played so far.
FINISHED_SEED = 2024
FINISHED_ROUNDS = 8
IN_PROGRESS_SEED = 2025
IN_PROGRESS_ROUNDS = 2


#: The dice the judges typed for the initiative of the sessions played on the board: each
#: seat lower than the one before, so the board's games play in seat order (their seeded
#: dice give the same games as before the demo rolled initiative).
BOARD_INITIATIVE = (6, 5, 4)


def roll_initiative(session: Session, judge: AbstractBaseUser | None, dice: Dice) -> None:
    """The judge rolls the session's play order at the table before it is played (RULES §5)."""
    session.refresh_from_db(fields=["version"])
    run_initiative(session, dice, actor=judge, expected_version=session.version)


def played_on_board(session: Session, judge) -> Game:
    """Play ``session``'s game on the judge's board to its end and record the result it
    proposes, linked to the game (confirmed by the caller)."""
    roll_initiative(session, judge, ScriptedDice(BOARD_INITIATIVE[: session.seats.count()]))
    game = create_game(session, session.stage.map_name, "bob", label=_("Table 1"), actor=judge)
    end = BoardPlayer(game, seed=FINISHED_SEED, actor=judge).play(FINISHED_ROUNDS)
    if end.outcome is None:
        raise CommandError(f"{session}: the demo's board game did not end")
    proposal = propose_result(game, session_seats(session))
    record_result(
        session,
        proposal.breakdowns,
        survivors=proposal.survivors,
        actor=judge,
        dice=SeededDice(seed=session.pk),
        from_game=FromGame(game.number, proposal.step),
    )
    return game


class Command(BaseCommand):
    help = _("Create the demo tournament (demo-only log-ins), stopped in the semifinals.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reset", action="store_true", help=_("Delete the demo tournament and rebuild it.")
        )
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help=_("Address the printed links start with."),
        )

    def handle(self, *args, **options) -> None:
        users = self._users(options["reset"])
        existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if existing is not None and options["reset"]:
            delete_tournament(existing, confirmation=None)
            existing = None
        if existing is None:
            tournament = self._build(users)
            self.stdout.write(self.style.SUCCESS(_("Demo tournament created.")))
        else:
            tournament = existing
            self.stdout.write(_("The demo tournament already exists (use --reset to rebuild it)."))
        self._print(tournament, options["base_url"].rstrip("/"))

    def _users(self, reset: bool) -> dict:
        """The demo log-ins; passwords are (re)set when created or on ``--reset``."""
        User = get_user_model()
        accounts = [(ORGANISER[0], ORGANISER[1], "Olga", "Organizzatrice"), *JUDGES, PLAYER_ACCOUNT]
        users = []
        for username, password, first, last in accounts:
            user, created = User.objects.get_or_create(
                username=username, defaults={"first_name": first, "last_name": last}
            )
            if created or reset:
                user.set_password(password)
                user.save()
            users.append(user)
        # The demo's organiser may also try "Create a tournament" (decision 60).
        allow_creating_tournaments(ORGANISER[0])
        return {"organiser": users[0], "judges": users[1:-1], "player": users[-1]}

    @transaction.atomic
    def _build(self, users: dict) -> Tournament:
        organiser, judges = users["organiser"], users["judges"]
        today = timezone.localdate()
        tournament = create_tournament(
            Tournament(
                name="BoB Demo",
                slug=DEMO_SLUG,
                starts_on=today - timedelta(days=1),
                ends_on=today + timedelta(days=1),
                venue="Circolo Ludico Demo",
                description=_("Demo data: names, log-ins and results are invented."),
                seating_method="seeded",
            ),
            organiser=organiser,
            judges=judges,
        )
        save_map(tournament, CLUB_MAP.read_text(encoding="utf-8"), actor=organiser)
        stages: tuple[tuple[StageKind, StipulationKind, dict[str, Any]], ...] = (
            (StageKind.PRELIMINARY, StipulationKind.ALIEN_HUNT, {"rounds": 8, "event_deck": True}),
            (StageKind.SEMIFINAL, StipulationKind.CATCH_THE_FLAG, {"flag_value": 30}),
            (StageKind.FINAL, StipulationKind.TPK, {}),
        )
        for number, (kind, stipulation, params) in enumerate(stages, start=1):
            stage = Stage(
                tournament=tournament,
                number=number,
                kind=kind,
                stipulation_kind=stipulation,
                stipulation_params=params,
                map_name=DEMO_MAPS[stipulation],
            )
            save_stage(stage, [15] if number == 1 else [], actor=organiser)
        register_roster(
            tournament,
            [
                NewPlayer(
                    name=name,
                    nickname=nickname,
                    email=f"{nickname.lower()}@example.org",
                    preferences=tuple(SQUADS[number % 3 :] + SQUADS[: number % 3]),
                )
                for number, (name, nickname) in enumerate(PLAYERS, start=1)
            ],
            actor=organiser,
        )
        first = Player.objects.get(registrations__tournament=tournament, registrations__number=1)
        link_account(tournament, first, users["player"], actor=organiser)
        advance(tournament, SeededDice(seed=2026), actor=organiser)
        yesterday = datetime.combine(today - timedelta(days=1), time(15, 0))
        self._play(tournament.stages.get(number=1), yesterday, judges, organiser, confirm=3)
        advance(tournament, SeededDice(seed=2027), actor=organiser)
        semifinals = datetime.combine(today, time(15, 0))
        semifinal = tournament.stages.get(number=2)
        self._play(semifinal, semifinals, judges, organiser, confirm=1)
        # The semifinal still being played has its game on the judge's board page, a few
        # rounds in.
        pending = semifinal.sessions.get(number=2)
        roll_initiative(
            pending, pending.judge, ScriptedDice(BOARD_INITIATIVE[: pending.seats.count()])
        )
        game = create_game(
            pending, semifinal.map_name, "bob", label=_("Table 2"), actor=pending.judge
        )
        BoardPlayer(game, seed=IN_PROGRESS_SEED, actor=pending.judge).play(IN_PROGRESS_ROUNDS)
        return tournament

    def _play(self, stage: Stage, start: datetime, judges, organiser, confirm: int) -> None:
        """Equip and schedule every session of ``stage``; enter and confirm the first
        ``confirm``."""
        equip(stage)
        when = timezone.make_aware(start)
        for index, session in enumerate(stage.sessions.order_by("number")):
            judge = judges[index % len(judges)]
            schedule_session(
                session,
                when=when + timedelta(hours=4 * (index // 2)),
                table=table_named(stage.tournament, str(index + 1)),
                judge=judge,
                actor=organiser,
                notify=False,
            )
            if index >= confirm:
                continue
            if stage.number == 1 and index == 0:
                played_on_board(session, judge)
            else:
                roll_initiative(session, judge, SeededDice(seed=1000 + session.pk))
                script = SCRIPTS[(stage.number + index) % len(SCRIPTS)]
                record_result(
                    session,
                    breakdowns(session, script),
                    survivors=session.seats.values_list("player_id", flat=True),
                    actor=judge,
                    dice=SeededDice(seed=session.pk),
                )
            confirm_result(session, actor=organiser)

    def _print(self, tournament: Tournament, base: str) -> None:
        out = self.stdout.write
        out(_("DEMO ONLY - these passwords are public; never use them on a real site."))
        out(
            _("Organiser: %(user)s / %(password)s")
            % {"user": ORGANISER[0], "password": ORGANISER[1]}
        )
        for username, password, _first, _last in JUDGES:
            out(_("Judge: %(user)s / %(password)s") % {"user": username, "password": password})
        self._print_game_in_progress(tournament, base)
        username, password, first, last = PLAYER_ACCOUNT
        out(
            _("Player %(name)s: %(user)s / %(password)s")
            % {"name": f"{first} {last}", "user": username, "password": password}
        )
        for label, name in (
            (_("Tournament"), "tournaments:tournament"),
            (_("Plain standings"), "tournaments:standings-plain"),
        ):
            try:
                out(f"{label}: {base}{reverse(name, kwargs={'slug': tournament.slug})}")
            except NoReverseMatch:
                continue
        out(_("Players' private links:"))
        for registration in tournament.registrations.select_related("player").order_by("number"):
            player = registration.player
            try:
                path = reverse("tournaments:player_link", kwargs={"token": player.access_token})
                link = base + path
            except NoReverseMatch:
                link = _("token %(token)s") % {"token": player.access_token}
            out(f"  {player}: {link}")

    def _print_game_in_progress(self, tournament: Tournament, base: str) -> None:
        """Which judge's log-in opens the game left in progress, and its board: only the
        session's own judge may play it."""
        game = (
            Game.objects.filter(session__stage__tournament=tournament, session__result__isnull=True)
            .select_related("session__stage", "session__judge")
            .order_by("-pk")
            .first()
        )
        judge = game.session.judge if game is not None else None
        if game is None or judge is None:
            return
        session = game.session
        title = _("%(stage)s · session %(number)s") % {
            "stage": session.stage.get_kind_display(),
            "number": session.number,
        }
        path = reverse("table:board", kwargs={"pk": session.pk, "number": game.number})
        self.stdout.write(
            _("Game in progress on the judge's board: %(session)s, judged by %(user)s: %(link)s")
            % {"session": title, "user": judge.get_username(), "link": base + path}
        )
