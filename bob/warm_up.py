"""What a server's parent process prepares before it forks the processes that serve, so
that no request pays for it.

Gunicorn loads the app once, in its master (``preload_app``, gunicorn.conf.py), and Celery
in a worker's main process; each then forks the processes that serve (Gunicorn's workers,
Celery's pool). Whatever the parent prepared here, every process it forks has from its
first request, whether forked at start or later to replace one (renewed after
``max_requests``, or killed); otherwise each would prepare it again on its first requests:
the code's release (a digest of every source file, 30 ms), each template compiled on its
page's first visit, each language's catalogue, each URL namespace's table, each bundled
map's board (``benchmarks/alien_turn.py`` and ``docs/performance.md`` give the figures).

Nothing here reads the database or Redis: the parent must start while either is away, and
a connection it opened would be shared by every process it forks.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.forms.renderers import get_default_renderer
from django.template import TemplateSyntaxError, engines
from django.template.backends.django import DjangoTemplates
from django.urls import NoReverseMatch, URLResolver, get_resolver, reverse
from django.utils import translation

from rules.engine.maps import share_bundled_maps
from tournaments.caching import release

logger = logging.getLogger("bob.warm_up")


@dataclass(frozen=True)
class Prepared:
    """What :func:`prepare_process` prepared, for the parent's log."""

    url_tables: int
    languages: tuple[str, ...]
    templates: int
    broken_templates: tuple[str, ...]
    release: str
    maps: tuple[str, ...]
    seconds: float

    def __str__(self) -> str:
        broken = (
            f" ({len(self.broken_templates)} not compiled: {', '.join(self.broken_templates)})"
            if self.broken_templates
            else ""
        )
        return (
            f"prepared in {self.seconds:.2f} s: {self.url_tables} URL tables in "
            f"{', '.join(self.languages)}, {self.templates} templates{broken}, "
            f"release {self.release}, maps {', '.join(self.maps)}"
        )


def prepare_process() -> Prepared:
    """Prepare, in this process, what its requests would otherwise prepare on first use."""
    started = time.perf_counter()
    languages = tuple(code for code, _name in settings.LANGUAGES)
    url_tables = 0
    for language in languages:
        with translation.override(language):  # reads the language's catalogue
            url_tables += _url_tables()
    compiled, broken = _compile_templates()
    return Prepared(
        url_tables=url_tables,
        languages=languages,
        templates=compiled,
        broken_templates=broken,
        release=release.current(),
        maps=share_bundled_maps(),
        seconds=time.perf_counter() - started,
    )


def _url_tables() -> int:
    """Build the tables for reversing a URL in the active language, the root's (which
    imports every view) and each namespace's (built on the first reverse in it), and
    count them. Reversing a name no URL has builds them as any reverse would."""
    namespaces = [""]
    pending: list[tuple[str, URLResolver]] = [("", get_resolver())]
    while pending:
        prefix, resolver = pending.pop()
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{prefix}{pattern.namespace}:" if pattern.namespace else prefix
                if pattern.namespace:
                    namespaces.append(inner)
                pending.append((inner, pattern))
    for namespace in namespaces:
        try:
            reverse(f"{namespace}{_NO_SUCH_URL}")
        except NoReverseMatch:
            pass
    return len(namespaces)


#: A URL name no pattern has (a name is an identifier).
_NO_SUCH_URL = "-"


def _compile_templates() -> tuple[int, tuple[str, ...]]:
    """Every template under the folders of the project's template engines and of the
    forms' renderer (the widgets) compiled into their cached loaders; not those of other
    apps (the admin's). A template that does not compile is left to fail on its own page,
    as it would without this, and named in the log."""
    backends = [e for e in engines.all() if isinstance(e, DjangoTemplates)]
    renderer_engine = getattr(get_default_renderer(), "engine", None)
    if isinstance(renderer_engine, DjangoTemplates):
        backends.append(renderer_engine)
    compiled = 0
    broken: list[str] = []
    for backend in backends:
        for folder in map(Path, backend.engine.dirs):
            for path in sorted(folder.rglob("*.html")):
                name = path.relative_to(folder).as_posix()
                try:
                    backend.get_template(name)
                except TemplateSyntaxError as exc:
                    logger.warning("template %s does not compile: %s", name, exc)
                    broken.append(name)
                else:
                    compiled += 1
    return compiled, tuple(broken)
