"""The load client, run as its own process: ``python load_client.py ROUNDS PER_ROUND
name=PORT/path ...`` (or ``name=~PORT/path``, see :func:`request`) requests each path
a row, one request at a time on a new connection, the paths (of every server) taking
turns, in a new order every round, for ROUNDS rounds after a warm-up, so a change in the
machine's load falls on all of them alike; prints the median time of one request per
name (milliseconds) as JSON."""

from __future__ import annotations

import http.client
import json
import random
import statistics
import sys
import time

#: Requests of each path before the timed rounds. A worker's connection prepares a statement
#: at its sixth run (``DATABASE_PREPARED_STATEMENTS``) and PostgreSQL settles on one plan
#: for it after five more; with five requests of warm-up shared by two workers, the medians
#: fell among requests still planning (the raw SQL reference at 243 players read from 2.05
#: to 3.21 ms run to run). An event's server is past that point within its first minute.
WARMUP = 40


_ETAGS: dict[str, str] = {}


def request(target: str) -> float:
    """One request; a target written ``~PORT/path`` is asked as a polling browser does,
    sending back the ETag it was given (a ``304 Not Modified`` then counts as served)."""
    revalidate = target.startswith("~")
    port, path = target.lstrip("~").split("/", 1)
    path = "/" + path
    headers = {"Host": "127.0.0.1"}
    if revalidate and target in _ETAGS:
        headers["If-None-Match"] = _ETAGS[target]
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=60)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    elapsed = time.perf_counter() - started
    if response.status == 304 and "If-None-Match" in headers:
        return elapsed
    if response.status != 200 or not body:
        raise SystemExit(f"{path}: HTTP {response.status}")
    etag = response.getheader("ETag")
    if revalidate and etag:
        _ETAGS[target] = etag
    return elapsed


def main() -> None:
    rounds, per_round, *pairs = sys.argv[1:]
    paths = dict(pair.split("=", 1) for pair in pairs)
    times: dict[str, list[float]] = {name: [] for name in paths}
    for path in paths.values():
        for _ in range(WARMUP):
            request(path)
    order = list(paths.items())
    for number in range(int(rounds)):
        # A new order every round (the same every run): in a fixed order each page always
        # followed the same one, and the first always the slowest of the last round,
        # which made it look slower (the trivial view, the reference of every ratio).
        random.Random(number).shuffle(order)
        for name, path in order:
            for _ in range(int(per_round)):
                times[name].append(request(path))
    print(json.dumps({name: statistics.median(values) * 1000 for name, values in times.items()}))


if __name__ == "__main__":
    main()
