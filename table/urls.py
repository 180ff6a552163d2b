"""The judge's board pages, mounted at ``table/`` (namespace ``table``).

``pk`` is the session (the permission check reads it); ``number`` is the game's number
within that session.
"""

from django.urls import path

from table import touch_views, turn_views, views

app_name = "table"

GAME = "sessions/<int:pk>/games/<int:number>/"

urlpatterns = [
    path("sessions/<int:pk>/games/", views.games, name="games"),
    path(GAME, views.board, name="board"),
    path(GAME + "board/", views.board_partial, name="board_partial"),
    path(GAME + "attacks/", views.attack_panel, name="attack_panel"),
    path(GAME + "log/", views.step_log, name="step_log"),
    path(GAME + "sight/", views.sight, name="sight"),
    path(GAME + "state.json", views.state_json, name="state_json"),
    path(GAME + "move/", views.move, name="move"),
    path(GAME + "attack/", views.attack, name="attack"),
    path(GAME + "door/", views.open_door, name="open_door"),
    path(GAME + "equipment/", views.equipment, name="equipment"),
    path(GAME + "remove/", views.remove, name="remove"),
    path(GAME + "life-points/", views.life_points, name="life_points"),
    path(GAME + "alien-turn/", views.alien_turn, name="alien_turn"),
    path(GAME + "alien-turn/again/", views.alien_turn_again, name="alien_turn_again"),
    path(GAME + "end-turn/", turn_views.end_turn, name="end_turn"),
    path(GAME + "next-round/", turn_views.next_round, name="next_round"),
    path(GAME + "card/", turn_views.play_card, name="play_card"),
    path(GAME + "reroll/", turn_views.reroll, name="reroll"),
    path(GAME + "reroll/panel/", turn_views.reroll_panel, name="reroll_panel"),
    path(GAME + "undo/", views.undo, name="undo"),
    path(GAME + "adopt-settings/", views.adopt_settings, name="adopt_settings"),
    path(GAME + "upload/", views.upload, name="upload"),
    path(GAME + "result/", views.result_from_game, name="result_from_game"),
    path(GAME + "reachable/", touch_views.reachable, name="reachable"),
    path(GAME + "targets/", touch_views.targets, name="targets"),
    path(GAME + "stamp/", touch_views.stamp, name="stamp"),
    path(GAME + "watch/", touch_views.watch, name="watch"),
    path(GAME + "watch/panel/", touch_views.watch_panel, name="watch_panel"),
]
