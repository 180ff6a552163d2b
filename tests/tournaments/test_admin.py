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
