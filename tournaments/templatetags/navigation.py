"""The site header's links for who is asking: ``{% navigation as nav %}``
(:func:`tournaments.web.header_links.header_links`)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.web.header_links import HeaderLinks, header_links

register = template.Library()


@register.simple_tag(takes_context=True)
def navigation(context: dict[str, Any]) -> HeaderLinks:
    request = context.get("request")
    if request is None:
        return HeaderLinks(False, False, False, False)
    return header_links(request)
