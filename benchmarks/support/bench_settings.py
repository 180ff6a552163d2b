"""Settings of the benchmarks' server: the project's own, plus the benchmark's reference
views (``bench_urls``); with ``BOB_BENCH_CACHE=off`` every cache is a dummy that keeps
nothing, so every page is computed afresh (the "cache missed" figures)."""

import os

from bob.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.support.bench_urls"

if os.environ.get("BOB_BENCH_CACHE") == "off":
    CACHES = {
        name: {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
        for name in ("default", "local")
    }
