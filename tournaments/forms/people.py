"""Organiser forms for the people over the event: a player's details (display names unique
in the tournament, decision 36) and a withdrawal with its reason and optional reserve."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.models import Player, Tournament
from tournaments.queries.edit_versions import PLAYER_FIELDS, player_version
from tournaments.queries.player_profile import display_name_taken


def check_display_name(
    form: forms.Form, tournament: Tournament, exclude_player: int | None = None
) -> None:
    """Add an error to the nickname (or the name) when another player of the tournament
    already shows with the same name."""
    cleaned = form.cleaned_data
    name, nickname = cleaned.get("name"), (cleaned.get("nickname") or "").strip()
    if not name:
        return
    shown = nickname or name
    if display_name_taken(tournament, shown, exclude_player=exclude_player):
        form.add_error(
            "nickname" if nickname else "name",
            ValidationError(
                _(
                    "Another player of this tournament is already shown as “%(name)s”; "
                    "choose a different nickname (or add an initial to the name)."
                )
                % {"name": shown}
            ),
        )


class PlayerEditForm(VersionedFormMixin, AccessibleForm):
    """A registered player's details, remembering what they were loaded from (two
    organisers editing one player: decision 46)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    nickname = forms.CharField(label=_("Nickname"), max_length=60, required=False)
    email = forms.EmailField(label=_("Email"), required=False)

    def __init__(self, *args, tournament: Tournament, player: Player, **kwargs):
        self.tournament = tournament
        self.player = player
        kwargs.setdefault("initial", {name: getattr(player, name) for name in PLAYER_FIELDS})
        super().__init__(*args, **kwargs)
        self.add_version_fields(lambda: player_version(player), tournament=tournament)

    def clean(self) -> dict[str, Any]:
        super().clean()
        check_display_name(self, self.tournament, exclude_player=self.player.pk)
        return self.cleaned_data


class ReserveChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return obj.display_name


class WithdrawForm(AccessibleForm):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Say why the player leaves (it is kept on record).")},
    )
    reserve = ReserveChoiceField(
        label=_("Reserve"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("No reserve: the session plays short"),
        help_text=_(
            "A registered player seated in no session of that stage takes the seat, if the "
            "session has not started. Once it has started, the player forfeits it."
        ),
    )

    def __init__(self, *args, candidates: list[Player], **kwargs):
        kwargs.setdefault("prefix", "withdraw")
        super().__init__(*args, **kwargs)
        reserve = self.fields["reserve"]
        assert isinstance(reserve, ReserveChoiceField)
        reserve.queryset = Player.objects.filter(pk__in=[player.pk for player in candidates])
        if not candidates:
            reserve.disabled = True
