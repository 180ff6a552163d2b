"""Every tournament model has a working admin; audit records are read-only there."""

from io import StringIO

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

from tournaments import models

pytestmark = pytest.mark.django_db

MODELS = [model for model in admin.site._registry if model._meta.app_label == "tournaments"]


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.org", "pw")


def test_every_model_is_registered():
    from django.apps import apps

    assert set(apps.get_app_config("tournaments").get_models()) <= set(MODELS)


def test_changelists_and_change_pages_load(client, staff):
    call_command("load_demo", stdout=StringIO())
    client.force_login(staff)
    for model in MODELS:
        opts = model._meta
        changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        assert client.get(changelist).status_code == 200, changelist
        obj = model.objects.first()
        if obj is not None:
            change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
            assert client.get(change).status_code == 200, change


def test_result_versions_and_dice_are_read_only(client, staff):
    call_command("load_demo", stdout=StringIO())
    client.force_login(staff)
    version = models.ResultVersion.objects.first()
    url = reverse("admin:tournaments_resultversion_delete", args=[version.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert models.ResultVersion.objects.filter(pk=version.pk).exists()
    assert client.get(reverse("admin:tournaments_diceroll_add")).status_code == 403


@pytest.mark.parametrize("model", [models.Honour, models.SquadRank, models.ScoreBonus])
def test_what_a_stage_close_awards_is_read_only(client, staff, model):
    call_command("load_demo", stdout=StringIO())
    client.force_login(staff)
    row = model.objects.first()
    assert row is not None, "the demo's closed preliminaries award honours, ranks and bonuses"
    name = model._meta.model_name
    change = reverse(f"admin:tournaments_{name}_change", args=[row.pk])
    page = client.get(change)
    assert page.status_code == 200 and 'type="submit" value="Save"' not in page.content.decode()
    before = model.objects.filter(pk=row.pk).values().get()
    assert client.post(change, {}).status_code == 403
    assert model.objects.filter(pk=row.pk).values().get() == before
    assert client.get(reverse(f"admin:tournaments_{name}_add")).status_code == 403
    delete = reverse(f"admin:tournaments_{name}_delete", args=[row.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403


# The locks of tournaments.actions.session_settings hold in the admin too.


@pytest.fixture
def world(db):
    from tests.web.conftest import build_world

    return build_world()


@pytest.fixture
def admin_client(client, world):
    client.force_login(world.superuser)
    return client


def _with_result(session: models.Session) -> models.Session:
    from tests.factories import session_points
    from tournaments.actions.result_entry import record_result

    record_result(session, session_points(session, lambda seat: seat.seat_order * 10))
    return session


def _close(stage: models.Stage) -> None:
    models.Stage.objects.filter(pk=stage.pk).update(status=models.StageStatus.CLOSED)


def _change_url(obj) -> str:
    opts = obj._meta
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])


def _stipulation_data(session, rounds: int) -> dict:
    return {"session": session.pk, "kind": "alien_hunt", "params": f'{{"rounds": {rounds}}}'}


def _errors(response) -> str:
    assert response.status_code == 200  # the form is shown again, not saved
    return " ".join(response.context["adminform"].form.non_field_errors())


def test_admin_refuses_changing_the_stipulation_of_a_session_with_a_result(admin_client, world):
    stipulation = models.Stipulation.objects.create(
        session=world.session, kind="alien_hunt", params={"rounds": 8}
    )
    _with_result(world.session)
    response = admin_client.post(_change_url(stipulation), _stipulation_data(world.session, 6))
    assert "already has a result" in _errors(response)
    stipulation.refresh_from_db()
    assert stipulation.params["rounds"] == 8
    delete = reverse("admin:tournaments_stipulation_delete", args=[stipulation.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert models.Stipulation.objects.filter(pk=stipulation.pk).exists()


def test_admin_refuses_adding_or_moving_a_stipulation_onto_a_locked_session(admin_client, world):
    _with_result(world.session)
    add = reverse("admin:tournaments_stipulation_add")
    assert "already has a result" in _errors(
        admin_client.post(add, _stipulation_data(world.session, 6))
    )
    assert not models.Stipulation.objects.filter(session=world.session).exists()
    free = world.stage.sessions.exclude(pk=world.session.pk).first()
    stipulation = models.Stipulation.objects.create(
        session=free, kind="alien_hunt", params={"rounds": 8}
    )
    response = admin_client.post(_change_url(stipulation), _stipulation_data(world.session, 8))
    assert "already has a result" in _errors(response)
    assert models.Stipulation.objects.get(pk=stipulation.pk).session == free


def test_admin_still_changes_what_is_not_locked(admin_client, world):
    free = world.stage.sessions.exclude(pk=world.session.pk).first()
    stipulation = models.Stipulation.objects.create(
        session=free, kind="alien_hunt", params={"rounds": 8}
    )
    response = admin_client.post(_change_url(stipulation), _stipulation_data(free, 6))
    assert response.status_code == 302
    assert models.Stipulation.objects.get(pk=stipulation.pk).params["rounds"] == 6
    # A result locks the stipulation only: the session's thresholds change until the stage closes.
    _with_result(world.session)
    threshold = models.ScoreThreshold.objects.create(session=world.session, points=40)
    response = admin_client.post(
        _change_url(threshold), {"session": world.session.pk, "points": 45}
    )
    assert response.status_code == 302
    assert models.ScoreThreshold.objects.get(pk=threshold.pk).points == 45


@pytest.mark.parametrize("owner", ["session", "stage"])
def test_admin_refuses_thresholds_of_a_closed_stage(admin_client, world, owner):
    target = world.session if owner == "session" else world.stage
    threshold = models.ScoreThreshold.objects.create(**{owner: target}, points=40)
    _close(world.stage)
    response = admin_client.post(_change_url(threshold), {owner: target.pk, "points": 45})
    assert "Stage 1 is closed" in _errors(response)
    add = reverse("admin:tournaments_scorethreshold_add")
    assert "Stage 1 is closed" in _errors(admin_client.post(add, {owner: target.pk, "points": 60}))
    delete = reverse("admin:tournaments_scorethreshold_delete", args=[threshold.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert list(models.ScoreThreshold.objects.values_list("points", flat=True)) == [40]


def test_admin_has_no_bulk_delete_for_settings(rf, world):
    """Bulk delete would skip the per-row lock check; rows are deleted one at a time."""
    request = rf.get("/")
    request.user = world.superuser
    for model in (models.Stipulation, models.ScoreThreshold):
        assert "delete_selected" not in admin.site._registry[model].get_actions(request)
    assert "delete_selected" in admin.site._registry[models.Player].get_actions(request)


def _inline_formset(request, parent, inline_class, data: dict):
    parent_admin = admin.site._registry[type(parent)]
    inline = next(
        i for i in parent_admin.get_inline_instances(request, parent) if type(i) is inline_class
    )
    formset_class = inline.get_formset(request, parent)
    prefix = formset_class.get_default_prefix()
    return formset_class(
        {f"{prefix}-{k}": v for k, v in data.items()}, instance=parent, prefix=prefix
    )


def test_admin_inlines_refuse_changing_or_deleting_locked_rows(rf, world):
    from tournaments.admin import SessionThresholdInline, StipulationInline, ThresholdInline

    request = rf.get("/")
    request.user = world.superuser
    stipulation = models.Stipulation.objects.create(
        session=world.session, kind="alien_hunt", params={"rounds": 8}
    )
    _with_result(world.session)
    management = {"TOTAL_FORMS": 1, "INITIAL_FORMS": 1, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1}
    row = {"0-id": stipulation.pk, "0-session": world.session.pk, "0-kind": "alien_hunt"}
    changed = _inline_formset(
        request,
        world.session,
        StipulationInline,
        {**management, **row, "0-params": '{"rounds": 6}'},
    )
    assert not changed.is_valid()
    assert "already has a result" in str(changed.errors)
    deleted = _inline_formset(
        request,
        world.session,
        StipulationInline,
        {**management, **row, "0-params": '{"rounds": 8}', "0-DELETE": "on"},
    )
    assert not deleted.is_valid()
    assert "already has a result" in " ".join(deleted.non_form_errors())
    # The stage's and the session's thresholds, once the stage is closed.
    stage_row = models.ScoreThreshold.objects.create(stage=world.stage, points=50)
    session_row = models.ScoreThreshold.objects.create(session=world.session, points=40)
    _close(world.stage)
    for parent, inline_class, threshold, fk in (
        (world.stage, ThresholdInline, stage_row, "stage"),
        (world.session, SessionThresholdInline, session_row, "session"),
    ):
        base = {**management, "MAX_NUM_FORMS": 1000, "0-id": threshold.pk, f"0-{fk}": parent.pk}
        moved = _inline_formset(request, parent, inline_class, {**base, "0-points": 99})
        assert not moved.is_valid() and "is closed" in str(moved.errors)
        gone = _inline_formset(
            request, parent, inline_class, {**base, "0-points": threshold.points, "0-DELETE": "on"}
        )
        assert not gone.is_valid() and "is closed" in " ".join(gone.non_form_errors())


def test_admin_closed_stage_keeps_its_stipulation_read_only(rf, world):
    request = rf.get("/")
    request.user = world.superuser
    stage_admin = admin.site._registry[models.Stage]
    assert "stipulation_kind" not in stage_admin.get_readonly_fields(request, world.stage)
    _close(world.stage)
    world.stage.refresh_from_db()
    assert "stipulation_kind" in stage_admin.get_readonly_fields(request, world.stage)


# A stage's status moves only through advance(): open to closed, never back.


def _stage_change_data(admin_client, stage: models.Stage, **changes) -> dict:
    """What the stage's change page posts back unchanged, plus ``changes``."""
    page = admin_client.get(_change_url(stage))
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {name: "" if value is None else value for name, value in data.items()}
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data.update(
            {management[name].html_name: management[name].value() for name in management.fields}
        )
    return {**data, **changes}


@pytest.mark.parametrize(
    ("stored", "posted"),
    [
        (models.StageStatus.CLOSED, models.StageStatus.OPEN),
        (models.StageStatus.OPEN, models.StageStatus.CLOSED),
    ],
)
def test_admin_cannot_change_a_stage_status(admin_client, world, stored, posted):
    stage = models.Stage.objects.create(
        tournament=world.tournament, number=9, kind=models.StageKind.FINAL, status=stored
    )
    response = admin_client.post(
        _change_url(stage), _stage_change_data(admin_client, stage, status=posted, map_name="Moon")
    )
    stage.refresh_from_db()
    if stored == models.StageStatus.CLOSED:
        assert response.status_code == 403  # a closed stage is view-only
        assert (stage.status, stage.map_name) == (stored, "")
    else:
        assert response.status_code == 302  # the rest of the stage still saves
        assert (stage.status, stage.map_name) == (stored, "Moon")


def test_admin_says_how_a_stage_closes_and_why_it_cannot_reopen(admin_client, world):
    _close(world.stage)
    page = admin_client.get(_change_url(world.stage)).content.decode()
    assert "Close the stage and seat the next" in page
    assert "cannot be reopened" in page
    add = admin_client.get(reverse("admin:tournaments_stage_add"))
    assert "status" not in add.context["adminform"].form.fields  # a new stage starts open


def test_admin_tournament_page_cannot_change_its_stages_status(rf, world):
    from tournaments.admin import StageInline

    request = rf.get("/")
    request.user = world.superuser
    _close(world.stage)
    stage = models.Stage.objects.get(pk=world.stage.pk)
    management = {"TOTAL_FORMS": 1, "INITIAL_FORMS": 1, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1000}
    row = {
        "0-id": stage.pk,
        "0-tournament": world.tournament.pk,
        "0-number": stage.number,
        "0-kind": stage.kind,
        "0-status": models.StageStatus.OPEN,
    }
    formset = _inline_formset(request, world.tournament, StageInline, {**management, **row})
    assert "status" not in formset.forms[0].fields
    assert formset.is_valid(), formset.errors
    formset.save()
    stage.refresh_from_db()
    assert stage.status == models.StageStatus.CLOSED


def test_admin_closed_stage_its_sessions_and_seats_are_view_only(admin_client, world):
    """What a closed stage awarded came from these rows: they can be looked at only."""
    stage, session = world.stage, world.session
    seat = session.seats.order_by("seat_order").first()
    _close(stage)
    for obj in (stage, session, seat):
        page = admin_client.get(_change_url(obj))
        assert page.status_code == 200  # still shown
        assert not page.context["has_change_permission"], obj
        assert not page.context["has_delete_permission"], obj
        opts = obj._meta
        delete = reverse(f"admin:{opts.app_label}_{opts.model_name}_delete", args=[obj.pk])
        assert admin_client.post(delete, {"post": "yes"}).status_code == 403
        assert type(obj).objects.filter(pk=obj.pk).exists()
    moved = admin_client.post(
        _change_url(seat),
        {"session": session.pk, "seat_order": 9, "player": seat.player_id},
    )
    assert moved.status_code == 403
    seat.refresh_from_db()
    assert seat.seat_order != 9


def test_admin_open_stage_rows_can_still_be_changed_but_never_bulk_deleted(rf, world):
    request = rf.get("/")
    request.user = world.superuser
    for model in (models.Stage, models.Session, models.Seat):
        model_admin = admin.site._registry[model]
        assert "delete_selected" not in model_admin.get_actions(request)
    session_admin = admin.site._registry[models.Session]
    assert session_admin.has_change_permission(request, world.session)
    assert session_admin.has_delete_permission(request, world.session)


def _stage_rows(stage: models.Stage, **changes) -> dict:
    management = {"TOTAL_FORMS": 1, "INITIAL_FORMS": 1, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1000}
    row = {
        "id": stage.pk,
        "tournament": stage.tournament_id,
        "number": stage.number,
        "kind": stage.kind,
        "qualifier_count": "",
        "seating_method": "",
        **changes,
    }
    return {**management, **{f"0-{name}": value for name, value in row.items()}}


def test_admin_tournament_page_cannot_change_a_closed_stages_qualifiers_or_seating(rf, world):
    """QA: the stage rows of the tournament's page still edited a closed stage's qualifier
    count and seating method, which decision 54 fixes when the stage closes."""
    from tournaments.admin import StageInline

    request = rf.get("/")
    request.user = world.superuser
    _close(world.stage)
    stage = models.Stage.objects.get(pk=world.stage.pk)
    data = _stage_rows(stage, qualifier_count=6, seating_method="random", kind="final")
    formset = _inline_formset(request, world.tournament, StageInline, data)
    form = formset.forms[0]
    for name in ("qualifier_count", "seating_method", "number", "kind"):
        assert form.fields[name].disabled, name
        assert "disabled" in str(form[name]), name  # shown read-only
    assert formset.is_valid(), formset.errors
    formset.save()
    stage.refresh_from_db()
    assert (stage.qualifier_count, stage.seating_method, stage.kind) == (None, "", "preliminary")


def test_admin_tournament_page_cannot_delete_a_closed_stage(rf, world):
    from tournaments.admin import StageInline

    request = rf.get("/")
    request.user = world.superuser
    _close(world.stage)
    stage = models.Stage.objects.get(pk=world.stage.pk)
    formset = _inline_formset(
        request, world.tournament, StageInline, _stage_rows(stage, DELETE="on")
    )
    assert not formset.is_valid()
    assert "Stage 1 is closed" in " ".join(formset.non_form_errors())
    assert models.Stage.objects.filter(pk=stage.pk).exists()


def test_admin_tournament_page_still_changes_an_open_stage(rf, world):
    from tournaments.admin import StageInline

    request = rf.get("/")
    request.user = world.superuser
    stage = models.Stage.objects.get(pk=world.stage.pk)
    data = _stage_rows(stage, seating_method="random")
    formset = _inline_formset(request, world.tournament, StageInline, data)
    assert not formset.forms[0].fields["seating_method"].disabled
    assert formset.is_valid(), formset.errors
    formset.save()
    stage.refresh_from_db()
    assert stage.seating_method == "random"


# A session's status as the pages show it (decision 52), next to the stored one.


@pytest.fixture
def stored_scheduled(world) -> tuple[models.Session, models.Session]:
    """Two sessions stored as scheduled: the first without a time (the pages say it awaits
    one), the second with a time, a table and a judge."""
    from datetime import timedelta

    from django.utils import timezone

    from tests.factories import VenueTableFactory

    first, second = world.stage.sessions.order_by("number")[:2]
    table = VenueTableFactory(tournament=world.tournament, name="7")
    models.Session.objects.filter(pk=first.pk).update(
        table=table, scheduled_at=None, status=models.SessionStatus.SCHEDULED
    )
    models.Session.objects.filter(pk=second.pk).update(
        table=table,
        scheduled_at=timezone.now() + timedelta(days=1),
        status=models.SessionStatus.SCHEDULED,
    )
    return first, second


def _cells(page, column: str) -> list[str]:
    """The cells of ``column`` of a changelist, unescaped."""
    from html import unescape

    html = page.content.decode()
    marker = f'<td class="field-{column}">'
    return [unescape(cell.split("</td>")[0]) for cell in html.split(marker)[1:]]


def _listed(page) -> set[int]:
    return {session.pk for session in page.context["cl"].result_list}


@pytest.mark.parametrize(
    ("language", "awaiting", "scheduled", "shown_title", "stored_title"),
    [
        ("en", "Awaiting a time", "Scheduled", "status as the pages show it", "stored status"),
        (
            "it",
            "In attesa dell'orario",
            "In calendario",
            "stato come lo mostrano le pagine",
            "stato registrato",
        ),
    ],
)
def test_admin_lists_a_session_s_status_as_the_pages_show_it(
    admin_client, stored_scheduled, language, awaiting, scheduled, shown_title, stored_title
):
    first, second = stored_scheduled
    url = reverse("admin:tournaments_session_changelist")
    page = admin_client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    listed = [session.pk for session in page.context["cl"].result_list]
    rows = dict(zip(listed, _cells(page, "shown_status"), strict=True))
    assert rows[first.pk] == awaiting
    assert rows[second.pk] == scheduled
    stored = _cells(page, "stored_status")
    assert stored.count(scheduled) >= 2  # both are stored as scheduled
    html = page.content.decode()
    assert shown_title in html.lower() and stored_title in html.lower()


@pytest.mark.parametrize(
    ("language", "stored_planned"),
    [
        ("en", "Awaiting a time, a table or a judge"),
        ("it", "In attesa di orario, tavolo o giudice"),
    ],
)
def test_admin_s_stored_planned_status_names_the_time_too(
    admin_client, stored_scheduled, language, stored_planned
):
    """A session stored as planned may have its table and judge and wait only for its time
    (decision 52): its stored status, listed, filtered and edited, says the time too."""
    first, _second = stored_scheduled
    models.Session.objects.filter(pk=first.pk).update(status=models.SessionStatus.PLANNED)
    url = reverse("admin:tournaments_session_changelist")
    page = admin_client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    stored = dict(
        zip(
            [session.pk for session in page.context["cl"].result_list],
            _cells(page, "stored_status"),
            strict=True,
        )
    )
    assert stored[first.pk] == stored_planned
    assert f">{stored_planned}</a>" in page.content.decode()  # the stored status's filter
    form = admin_client.get(_change_url(first), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<option value="planned" selected>{stored_planned}</option>' in form


def test_admin_filters_sessions_by_the_status_the_pages_show(admin_client, stored_scheduled):
    first, second = stored_scheduled
    url = reverse("admin:tournaments_session_changelist")
    assert first.pk in _listed(admin_client.get(url, {"shown_status": "planned"}))
    assert second.pk not in _listed(admin_client.get(url, {"shown_status": "planned"}))
    assert _listed(admin_client.get(url, {"shown_status": "scheduled"})) == {second.pk}
    # The stored status's filter still finds both.
    stored = _listed(admin_client.get(url, {"status__exact": "scheduled"}))
    assert {first.pk, second.pk} <= stored


def test_admin_session_page_says_the_status_the_pages_show(admin_client, stored_scheduled):
    first, _second = stored_scheduled
    html = admin_client.get(_change_url(first)).content.decode()
    assert "Awaiting a time" in html
    assert "Stored status" in html
