"""URL patterns of the web pages, grouped by audience (added to ``tournaments.urls``); a
row's id is ``<id:…>`` (:mod:`tournaments.web.url_ids`)."""

from django.urls import path

from tournaments.views import (
    accounts,
    auth,
    dice,
    judge,
    judge_pdf,
    organiser,
    organiser_activity,
    organiser_catalogue,
    organiser_deletion,
    organiser_house_rules,
    organiser_maps,
    organiser_people,
    organiser_sessions,
    organiser_stages,
    organiser_transfer,
    organiser_venue,
    player,
    public,
    scheduling,
)
from tournaments.web import url_ids  # noqa: F401  (registers <id:…>)

public_patterns = [
    path("t/<slug:slug>/", public.tournament_home, name="tournament"),
    path("t/<slug:slug>/standings/", public.standings, name="standings"),
    path("t/<slug:slug>/standings/live/", public.standings_partial, name="standings_partial"),
    path("t/<slug:slug>/schedule/", public.schedule, name="schedule"),
    path("t/<slug:slug>/sessions/<id:pk>/", public.session_detail, name="session"),
    path("t/<slug:slug>/bracket/", public.bracket, name="bracket"),
    path("t/<slug:slug>/bracket.svg", public.bracket_svg, name="bracket_svg"),
    path("t/<slug:slug>/honours/", public.honours, name="honours"),
    path("t/<slug:slug>/projector/", public.projector, name="projector"),
    path("t/<slug:slug>/players/<id:pk>/", public.player_profile, name="player"),
    path("t/<slug:slug>/projector/timer/", public.projector_timer, name="projector_timer"),
    path("t/<slug:slug>/dice/", dice.dice, name="dice"),
    path("t/<slug:slug>/dice/<str:key>/verify/", dice.dice_verify, name="dice_verify"),
]

auth_patterns = [
    path("accounts/login/", auth.login_view, name="login"),
    path("accounts/logout/", auth.logout_view, name="logout"),
    path("accounts/", accounts.account, name="account"),
    path(
        "accounts/password/<str:uidb64>/<str:token>/",
        accounts.password_set,
        name="password_set",
    ),
    path("p/<str:token>/", auth.player_link, name="player_link"),
    path("me/forget/", auth.player_forget, name="player_forget"),
]

judge_patterns = [
    path("judge/", judge.judge_home, name="judge_home"),
    path("judge/sessions/<id:pk>/", judge.session_sheet, name="judge_session"),
    path("judge/sessions/<id:pk>/draw/", judge.session_draw, name="judge_draw"),
    path("judge/sessions/<id:pk>/initiative/", judge.session_initiative, name="judge_initiative"),
    path("judge/sessions/<id:pk>/redraw/", judge.session_redraw, name="judge_redraw"),
    path("judge/sessions/<id:pk>/check-in/", judge.session_check_in, name="judge_check_in"),
    path("judge/sessions/<id:pk>/no-show/", judge.session_no_show, name="judge_no_show"),
    path(
        "judge/sessions/<id:pk>/seats/<id:seat>/preferences/",
        judge.seat_preferences,
        name="judge_preferences",
    ),
    path("judge/sessions/<id:pk>/dice-check/", judge.session_dice_check, name="judge_dice_check"),
    path("judge/sessions/<id:pk>/result/", judge.result_entry, name="judge_result"),
    path(
        "judge/sessions/<id:pk>/result/preview/",
        judge.result_preview,
        name="judge_result_preview",
    ),
    path("judge/sessions/<id:pk>/result/rows/", judge.result_rows, name="judge_result_rows"),
    path(
        "judge/sessions/<id:pk>/print/score-sheet/",
        judge.print_score_sheet,
        name="judge_print_score",
    ),
    path(
        "judge/sessions/<id:pk>/print/loadouts/",
        judge.print_loadouts,
        name="judge_print_loadouts",
    ),
    path(
        "judge/sessions/<id:pk>/print/score-sheet.pdf",
        judge_pdf.score_sheet_download,
        name="judge_pdf_score",
    ),
    path(
        "judge/sessions/<id:pk>/print/loadouts.pdf",
        judge_pdf.loadout_sheet_download,
        name="judge_pdf_loadouts",
    ),
]

organiser_patterns = [
    path("organise/", organiser.organiser_home, name="organiser_home"),
    path("organise/new/", organiser.tournament_create, name="tournament_create"),
    path("organise/import/", organiser_transfer.tournament_import, name="tournament_import"),
    path(
        "organise/<slug:slug>/delete/",
        organiser_deletion.tournament_delete,
        name="organiser_delete",
    ),
    path(
        "organise/<slug:slug>/export/",
        organiser_transfer.tournament_export,
        name="organiser_export",
    ),
    path("organise/<slug:slug>/", organiser.dashboard, name="organiser_dashboard"),
    path("organise/<slug:slug>/players/", organiser.players, name="organiser_players"),
    path("organise/<slug:slug>/players/upload/", organiser.roster_upload, name="organiser_roster"),
    path(
        "organise/<slug:slug>/players/<id:pk>/account/",
        organiser.player_account_link,
        name="organiser_player_link",
    ),
    path(
        "organise/<slug:slug>/players/<id:pk>/account/unlink/",
        organiser.player_account_unlink,
        name="organiser_player_unlink",
    ),
    path("organise/<slug:slug>/judges/", organiser_people.judges, name="organiser_judges"),
    path("organise/<slug:slug>/organisers/", organiser_people.organiser_add, name="organiser_add"),
    path(
        "organise/<slug:slug>/organisers/<id:pk>/remove/",
        organiser_people.organiser_remove,
        name="organiser_remove",
    ),
    path(
        "organise/<slug:slug>/catalogue/",
        organiser_catalogue.catalogue,
        name="organiser_catalogue",
    ),
    path(
        "organise/<slug:slug>/catalogue/squads/",
        organiser_catalogue.squads_edit,
        name="organiser_squads",
    ),
    path(
        "organise/<slug:slug>/catalogue/house-rules/",
        organiser_house_rules.house_rules,
        name="organiser_house_rules",
    ),
    path(
        "organise/<slug:slug>/catalogue/cards/<id:pk>/",
        organiser_catalogue.card_edit,
        name="organiser_card",
    ),
    path(
        "organise/<slug:slug>/catalogue/cards/complete/",
        organiser_catalogue.cards_complete,
        name="organiser_cards_complete",
    ),
    path(
        "organise/<slug:slug>/catalogue/weapons/<id:pk>/",
        organiser_catalogue.weapon_edit,
        name="organiser_weapon",
    ),
    path(
        "organise/<slug:slug>/catalogue/values/<slug:section>/<slug:item>/",
        organiser_catalogue.rules_values_edit,
        name="organiser_rules_values",
    ),
    path(
        "organise/<slug:slug>/catalogue/events/<slug:card>/",
        organiser_catalogue.event_card_edit,
        name="organiser_event_card",
    ),
    path("organise/<slug:slug>/maps/", organiser_maps.maps, name="organiser_maps"),
    path(
        "organise/<slug:slug>/maps/<slug:name>/",
        organiser_maps.map_edit,
        name="organiser_map",
    ),
    path(
        "organise/<slug:slug>/maps/<slug:name>/remove/",
        organiser_maps.map_remove,
        name="organiser_map_remove",
    ),
    path(
        "organise/<slug:slug>/stages/<int:number>/",
        organiser_stages.stage_edit,
        name="organiser_stage",
    ),
    path("organise/<slug:slug>/schedule/", organiser.schedule, name="organiser_schedule"),
    path(
        "organise/<slug:slug>/sessions/<id:pk>/schedule/",
        organiser.session_schedule,
        name="organiser_session_schedule",
    ),
    path(
        "organise/<slug:slug>/sessions/<id:pk>/settings/",
        organiser_sessions.session_settings,
        name="organiser_session_settings",
    ),
    path(
        "organise/<slug:slug>/sessions/<id:pk>/stipulation/clear/",
        organiser_sessions.session_stipulation_clear,
        name="organiser_session_stipulation_clear",
    ),
    path(
        "organise/<slug:slug>/sessions/<id:pk>/thresholds/",
        organiser_sessions.session_threshold_add,
        name="organiser_session_threshold_add",
    ),
    path(
        "organise/<slug:slug>/sessions/<id:pk>/thresholds/remove/",
        organiser_sessions.session_threshold_remove,
        name="organiser_session_threshold_remove",
    ),
    path(
        "organise/<slug:slug>/sessions/<id:pk>/correct/",
        organiser.result_correct,
        name="organiser_result_correct",
    ),
    path("organise/<slug:slug>/start/", organiser.start, name="organiser_start"),
    path(
        "organise/<slug:slug>/start/dice/",
        organiser_stages.start_dice_check,
        name="organiser_start_dice",
    ),
    path("organise/<slug:slug>/advance/", organiser.advance_stage, name="organiser_advance"),
    path(
        "organise/<slug:slug>/advance/dice/",
        organiser_stages.advance_dice_check,
        name="organiser_advance_dice",
    ),
    path("organise/<slug:slug>/activity/", organiser_activity.activity, name="organiser_activity"),
    path(
        "organise/<slug:slug>/undo-advance/",
        organiser_stages.undo_last_advance,
        name="organiser_undo_advance",
    ),
    path(
        "organise/<slug:slug>/sessions/<id:pk>/undo-draw/",
        organiser_stages.undo_draw,
        name="organiser_undo_draw",
    ),
    path(
        "organise/<slug:slug>/players/<id:pk>/",
        organiser_people.player_edit,
        name="organiser_player",
    ),
    path(
        "organise/<slug:slug>/players/<id:pk>/preferences/",
        organiser_people.player_preferences,
        name="organiser_player_preferences",
    ),
    path(
        "organise/<slug:slug>/players/<id:pk>/private-link/",
        organiser_people.player_private_link,
        name="organiser_player_private_link",
    ),
    path(
        "organise/<slug:slug>/players/<id:pk>/withdraw/",
        organiser_people.player_withdraw,
        name="organiser_player_withdraw",
    ),
    path(
        "organise/<slug:slug>/accounts/<id:pk>/password-link/",
        organiser_people.account_password_link,
        name="organiser_password_link",
    ),
    path(
        "organise/<slug:slug>/judges/<id:pk>/remove/",
        organiser_people.judge_remove,
        name="organiser_judge_remove",
    ),
    path("organise/<slug:slug>/venue/", organiser_venue.venue, name="organiser_venue"),
    path(
        "organise/<slug:slug>/venue/timer/",
        organiser_venue.timer_control,
        name="organiser_timer",
    ),
    path(
        "organise/<slug:slug>/disputes/<id:pk>/resolve/",
        organiser_venue.dispute_resolve,
        name="organiser_dispute_resolve",
    ),
]

player_patterns = [
    path("me/", player.player_home, name="player_home"),
    path("me/account/", player.player_account, name="player_account"),
    path("me/switch/", player.player_switch, name="player_switch"),
    path("me/<slug:slug>/preferences/", player.preferences, name="player_preferences"),
    path("me/seats/<id:seat>/loadout/", player.loadout, name="player_loadout"),
    path("me/sessions/<id:pk>/dispute/", player.dispute, name="player_dispute"),
    path("me/seats/<id:seat>/loadout/check/", player.loadout_check, name="player_loadout_check"),
    path("p/<str:token>/schedule.ics", player.calendar_feed, name="player_calendar"),
]

scheduling_patterns = [
    path("organise/<slug:slug>/tables/", scheduling.tables, name="organiser_tables"),
    path(
        "organise/<slug:slug>/tables/numbered/",
        scheduling.tables_numbered,
        name="organiser_tables_numbered",
    ),
    path(
        "organise/<slug:slug>/tables/<id:pk>/remove/",
        scheduling.table_remove,
        name="organiser_table_remove",
    ),
    path("organise/<slug:slug>/stages/<int:number>/grid/", scheduling.grid, name="organiser_grid"),
    path(
        "organise/<slug:slug>/stages/<int:number>/grid/place/",
        scheduling.grid_place,
        name="organiser_grid_place",
    ),
    path(
        "organise/<slug:slug>/stages/<int:number>/grid/plan/",
        scheduling.stage_plan,
        name="organiser_stage_plan",
    ),
]

urlpatterns = (
    player_patterns
    + public_patterns
    + auth_patterns
    + judge_patterns
    + organiser_patterns
    + scheduling_patterns
)
