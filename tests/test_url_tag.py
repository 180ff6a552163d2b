"""The templates' ``{% url %}`` (bob/url_tag.py) writes what Django's own tag writes, with
each URL reversed once per process and kept per script prefix and URL configuration."""

from __future__ import annotations

import pytest
from django.template import Context, Engine, RequestContext, Template, TemplateSyntaxError
from django.template.engine import Engine as DjangoEngine
from django.test import RequestFactory
from django.urls import (
    NoReverseMatch,
    clear_script_prefix,
    reverse,
    set_script_prefix,
    set_urlconf,
)
from django.utils import translation

from bob import url_tag

URLS = (
    "{% url 'tournaments:standings' slug %}|{% url 'tournaments:player' slug 7 %}|"
    "{% url 'tournaments:home' %}|{% url 'tournaments:standings' slug=slug %}|"
    "{% url name slug as link %}[{{ link }}]"
)


def _render(engine: DjangoEngine, text: str, **context: object) -> str:
    return Template(text, engine=engine).render(Context(context))


@pytest.fixture
def ours() -> DjangoEngine:
    return Engine(builtins=["bob.url_tag"])


@pytest.fixture(autouse=True)
def _forget() -> None:
    url_tag._reversed.cache_clear()


def test_the_project_templates_use_this_tag() -> None:
    from django.template import engines

    tags = engines["django"].engine.template_builtins
    assert tags[-1].tags["url"] is url_tag.url


def test_writes_what_djangos_tag_writes(ours: DjangoEngine) -> None:
    context = {"slug": "bob-2026", "name": "tournaments:bracket"}
    written = _render(ours, URLS, **context)
    assert written == _render(Engine(), URLS, **context)
    assert written.split("|")[0] == "/t/bob-2026/standings/"


def test_each_url_is_reversed_once(ours: DjangoEngine) -> None:
    for _ in range(3):
        _render(ours, "{% url 'tournaments:standings' 'a' %}{% url 'tournaments:standings' 'b' %}")
    info = url_tag._reversed.cache_info()
    assert (info.misses, info.hits) == (2, 4)


def test_a_name_that_matches_nothing_raises_unless_kept_in_a_variable(ours: DjangoEngine) -> None:
    with pytest.raises(NoReverseMatch):
        _render(ours, "{% url 'tournaments:no_such_page' %}")
    assert _render(ours, "{% url 'tournaments:no_such_page' as link %}[{{ link }}]") == "[]"


def test_a_tag_without_a_name_is_refused_as_django_refuses_it(ours: DjangoEngine) -> None:
    with pytest.raises(TemplateSyntaxError, match="takes at least one argument"):
        Template("{% url %}", engine=ours)


def test_the_script_prefix_is_part_of_the_key(ours: DjangoEngine) -> None:
    text = "{% url 'tournaments:standings' 'x' %}"
    assert _render(ours, text) == "/t/x/standings/"
    set_script_prefix("/bob/")
    try:
        assert _render(ours, text) == "/bob/t/x/standings/"
    finally:
        clear_script_prefix()
    assert _render(ours, text) == "/t/x/standings/"


def test_the_language_is_part_of_the_key(ours: DjangoEngine) -> None:
    text = "{% url 'tournaments:standings' 'x' %}"
    for language in ("it", "en"):
        with translation.override(language):
            _render(ours, text)
    assert url_tag._reversed.cache_info().misses == 2


def test_a_request_with_its_own_urls_gets_its_own(ours: DjangoEngine) -> None:
    text = "{% url 'tournaments:standings' 'x' %}"
    assert _render(ours, text) == reverse("tournaments:standings", args=["x"])
    set_urlconf("tests.prefixed_urls")  # as a request setting request.urlconf does
    try:
        assert _render(ours, text) == "/prefixed/t/x/standings/"
    finally:
        set_urlconf(None)


def test_the_namespace_of_the_request_is_passed_on(ours: DjangoEngine) -> None:
    request = RequestFactory().get("/")
    request.current_app = "tournaments"
    text = "{% url 'tournaments:home' %}"
    written = Template(text, engine=ours).render(RequestContext(request))
    assert written == "/"


def test_equal_arguments_of_other_types_are_other_urls(ours: DjangoEngine) -> None:
    text = "{% url 'tournaments:player' 'x' number as link %}[{{ link }}]"
    assert _render(ours, text, number=1) == "[/t/x/players/1/]"
    assert _render(ours, text, number=True) == _render(Engine(), text, number=True) == "[]"
