"""The judge's board pages, mounted at ``table/`` (namespace ``table``).

``pk`` is the session (the permission check reads it; a row's id, ``<id:…>``:
:mod:`tournaments.web.url_ids`); ``number`` is the game's number
within that session. Every page speaks of the chapter cards as the tournament's catalogue
names them (:func:`table.catalogue_words.in_catalogue_words`).
"""

from django.urls import path

from table import map_views, touch_views, turn_views, views
from table.catalogue_words import in_catalogue_words
from tournaments.web import url_ids  # noqa: F401  (registers <id:…>)

app_name = "table"

GAME = "sessions/<id:pk>/games/<int:number>/"

#: The pages that show the engine's words: each speaks in its tournament's catalogue words.
WORDED_PAGES = (
    ("sessions/<id:pk>/games/", views.games, "games"),
    (GAME, views.board, "board"),
    (GAME + "board/", views.board_partial, "board_partial"),
    (GAME + "attacks/", views.attack_panel, "attack_panel"),
    (GAME + "log/", views.step_log, "step_log"),
    (GAME + "sight/", views.sight, "sight"),
    (GAME + "move/", views.move, "move"),
    (GAME + "attack/", views.attack, "attack"),
    (GAME + "door/", views.open_door, "open_door"),
    (GAME + "equipment/", views.equipment, "equipment"),
    (GAME + "remove/", views.remove, "remove"),
    (GAME + "life-points/", views.life_points, "life_points"),
    (GAME + "alien-turn/", views.alien_turn, "alien_turn"),
    (GAME + "alien-turn/again/", views.alien_turn_again, "alien_turn_again"),
    (GAME + "alien-turn/dice/", turn_views.alien_dice, "alien_dice"),
    (GAME + "end-turn/", turn_views.end_turn, "end_turn"),
    (GAME + "next-round/", turn_views.next_round, "next_round"),
    (GAME + "card/", turn_views.play_card, "play_card"),
    (GAME + "reroll/", turn_views.reroll, "reroll"),
    (GAME + "reroll/panel/", turn_views.reroll_panel, "reroll_panel"),
    (GAME + "undo/", views.undo, "undo"),
    (GAME + "adopt-settings/", views.adopt_settings, "adopt_settings"),
    (GAME + "upload/", views.upload, "upload"),
    (GAME + "result/", views.result_from_game, "result_from_game"),
    (GAME + "reachable/", touch_views.reachable, "reachable"),
    (GAME + "targets/", touch_views.targets, "targets"),
    (GAME + "watch/", touch_views.watch, "watch"),
    (GAME + "watch/panel/", touch_views.watch_panel, "watch_panel"),
)

urlpatterns = [
    *(path(route, in_catalogue_words(view), name=name) for route, view, name in WORDED_PAGES),
    # Data without words: the game's change stamp (polled) and its state.
    path(GAME + "stamp/", touch_views.stamp, name="stamp"),
    path(GAME + "state.json", views.state_json, name="state_json"),
    # A map's board before any game (the organiser's map page).
    path("maps/<slug:slug>/<slug:name>.svg", map_views.map_picture, name="map_picture"),
]
