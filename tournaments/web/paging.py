"""The links between the pages of a long list on an organiser's page (Django's
:class:`~django.core.paginator.Page`), each keeping what the reader narrowed the list to."""

from __future__ import annotations

from django.core.paginator import Page
from django.http import HttpRequest


def page_link(request: HttpRequest, number: int) -> str:
    """The query string of page ``number``, with the rest of the request's query (a search,
    a narrowing) kept."""
    query = request.GET.copy()
    query["page"] = str(number)
    return f"?{query.urlencode()}"


def page_links(request: HttpRequest, page: Page) -> tuple[str, str]:
    """The previous and the next page's links ("" where there is none)."""
    previous = page_link(request, page.previous_page_number()) if page.has_previous() else ""
    following = page_link(request, page.next_page_number()) if page.has_next() else ""
    return previous, following
