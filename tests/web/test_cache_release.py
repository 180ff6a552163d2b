"""What one release of the code cached is never served by another: the whole public pages,
the standings table, the standings and the live poll's ETag carry the code's release (a
digest of the source files), since the shared cache outlives a deploy."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.test_public_pages_cached import PAGES, cached_then_renamed_quietly, page
from tournaments.caching import release
from tournaments.caching.release import code_digest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ("standings", *PAGES))
def test_a_page_another_release_cached_is_built_afresh(
    world, name, monkeypatch, django_capture_on_commit_callbacks
):
    cached_then_renamed_quietly(world, name, django_capture_on_commit_callbacks)
    monkeypatch.setattr(release, "current", lambda: "a-newer-release")
    assert "Quiet Rename" in page(name, world.tournament)


def test_the_live_polls_etag_changes_with_the_release(world, monkeypatch):
    url = reverse("tournaments:standings_partial", args=[world.tournament.slug])
    first = Client().get(url)["ETag"]
    monkeypatch.setattr(release, "current", lambda: "a-newer-release")
    again = Client().get(url, headers={"If-None-Match": first})
    assert again.status_code == 200 and again["ETag"] != first


def test_the_release_is_a_digest_of_the_source_files(tmp_path):
    template = tmp_path / "templates" / "page.html"
    template.parent.mkdir()
    template.write_text("<p>one</p>")
    (tmp_path / "templates" / "notes.txt").write_text("not a source")
    first = code_digest(tmp_path)
    assert code_digest(tmp_path) == first
    (tmp_path / "templates" / "notes.txt").write_text("still not a source")
    assert code_digest(tmp_path) == first
    template.write_text("<p>two</p>")
    assert code_digest(tmp_path) != first
    assert len(release.current()) == 16
