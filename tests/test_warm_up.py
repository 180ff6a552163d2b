"""What a server's parent process prepares before forking (bob/warm_up.py): afterwards a
request compiles no template of the project, reads no catalogue, builds no URL table and no
bundled map's board, and computes no release; and preparing reads no database (these tests
may not: pytest-django refuses any query)."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.template import engines
from django.template.base import Template
from django.test import override_settings
from django.urls import URLResolver, reverse
from django.utils import translation
from django.utils.translation import trans_real

from bob.warm_up import prepare_process
from rules.engine import maps
from rules.engine.caches import clear_caches
from tournaments.caching import release


@pytest.fixture
def prepared():
    clear_caches("maps.")
    release.current.cache_clear()
    for backend in engines.all():
        backend.engine.template_loaders[0].reset()
    trans_real._translations.clear()
    return prepare_process()


def test_everything_prepared_is_named_for_the_log(prepared):
    assert prepared.languages == ("it", "en") and prepared.maps == tuple(maps.bundled_maps())
    project = len(list((settings.BASE_DIR / "templates").rglob("*.html")))
    assert prepared.templates > project and prepared.broken_templates == ()
    assert prepared.release == release.code_digest() and prepared.url_tables > 2
    text = str(prepared)
    assert f"{prepared.templates} templates" in text and "maps flag-relay" in text


def test_after_it_a_page_compiles_no_template_and_reads_no_catalogue(prepared):
    assert set(trans_real._translations) >= {"it", "en"}
    with (
        mock.patch.object(Template, "compile_nodelist", side_effect=AssertionError("compiled")),
        mock.patch.object(trans_real, "DjangoTranslation", side_effect=AssertionError("read")),
    ):
        for name in ("base.html", "tournaments/standings.html", "table/board.html"):
            engines["django"].get_template(name)
        for language in ("it", "en"):
            with translation.override(language):
                translation.gettext("Standings")


def test_after_it_no_url_table_no_board_and_no_release_is_built(prepared):
    with (
        mock.patch.object(URLResolver, "_populate", side_effect=AssertionError("built")),
        mock.patch.object(maps, "parse_map", side_effect=AssertionError("parsed")),
        mock.patch.object(release, "code_digest", side_effect=AssertionError("digested")),
    ):
        for language in ("it", "en"):
            with translation.override(language):
                reverse("table:games", args=[1])
                reverse("tournaments:standings", args=["coppa"])
        for name in maps.bundled_maps():
            maps.shared_map(name)
        release.current()


def test_a_template_that_does_not_compile_is_named_and_left_to_its_page(tmp_path: Path):
    (tmp_path / "fine.html").write_text("{{ value }}")
    (tmp_path / "broken.html").write_text("{% if %}")
    templates = [{**settings.TEMPLATES[0], "DIRS": [tmp_path], "APP_DIRS": False}]
    with override_settings(TEMPLATES=templates):
        prepared = prepare_process()
    assert prepared.broken_templates == ("broken.html",)
    assert "1 not compiled: broken.html" in str(prepared)
