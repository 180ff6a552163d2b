"""The templates' ``{% url %}``, reversing each URL once per process: a template builtin
(``TEMPLATES["OPTIONS"]["builtins"]``) that takes the place of Django's own tag.

Django reverses a URL afresh on every render, and a page's header and tabs reverse a
dozen (0.05–0.1 ms each on the benchmark's machine; about 1.5 ms of a tournament's
standings page computed afresh, and as much of its home, bracket and honours pages). A
URL is a function of the URL configuration, which does not change while a process runs,
of the script prefix and of the language (the key holds both, and the URL configuration
a request set), so each is kept once reversed. Written, read and escaped as Django's tag
does: the same arguments, ``as`` variable and errors.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from typing import Any

from django import template
from django.template import defaulttags
from django.template.base import Parser, Token
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.translation import get_language

register = template.Library()

#: Distinct URLs kept per process (a URL of every player or session id is written from a
#: path reversed once, not one ``{% url %}`` each: ``views.public._id_path``).
KEPT = 4096


@lru_cache(maxsize=KEPT)
def _reversed(
    view_name: str,
    args: tuple[tuple[type, Hashable], ...],
    kwargs: tuple[tuple[str, type, Hashable], ...],
    current_app: str | None,
    urlconf: Any,
    prefix: str,
    language: str | None,
) -> str:
    return reverse(
        view_name,
        urlconf=urlconf,
        args=[value for _type, value in args],
        kwargs={name: value for name, _type, value in kwargs},
        current_app=current_app,
    )


def reverse_once(
    view_name: str, args: list[Any], kwargs: dict[str, Any], current_app: str | None
) -> str:
    """``reverse(...)`` as the current request would, kept per process. Each argument is
    keyed with its type (``1`` and ``True`` are equal keys, but not the same URL);
    arguments that cannot be a key (none of the templates' are) are reversed each time."""
    try:
        return _reversed(
            view_name,
            tuple((type(value), value) for value in args),
            tuple(sorted((name, type(value), value) for name, value in kwargs.items())),
            current_app,
            get_urlconf(),
            get_script_prefix(),
            get_language(),
        )
    except TypeError:
        return reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)


class URLNode(defaulttags.URLNode):
    """Django's ``URLNode`` with the URL reversed by :func:`reverse_once`."""

    def render(self, context: template.Context) -> str:
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {name: value.resolve(context) for name, value in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        try:
            current_app = context.request.current_app  # type: ignore[attr-defined]
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace  # type: ignore[attr-defined]
            except AttributeError:
                current_app = None
        url = ""
        try:
            url = reverse_once(view_name, args, kwargs, current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser: Parser, token: Token) -> URLNode:
    """``{% url 'name' arg ... [as var] %}``, parsed by Django's own tag."""
    node = defaulttags.url(parser, token)
    return URLNode(node.view_name, node.args, node.kwargs, node.asvar)
