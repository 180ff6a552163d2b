"""A minimal HTTP browser for the fault tests: a cookie jar, log-in through the form, form
posts with the CSRF token, and a crawl of the links and htmx endpoints a page renders."""

from __future__ import annotations

import http.cookiejar
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import deque
from dataclasses import dataclass, field

LINK = re.compile(r'(?:href|hx-get)="(/[^"#]*)')
#: Never followed: they change state, or belong to Django rather than BoB's pages.
SKIPPED = ("/static/", "/admin/", "/i18n/", "/accounts/logout/", "/p/", "/me/forget/")
SKIPPED_PARTS = ("/switch/", "/forget/")


@dataclass
class Answer:
    url: str
    status: int
    body: str
    seconds: float


@dataclass
class Browser:
    base: str
    #: Sent with every request (e.g. the X-Forwarded-For a proxy would add).
    headers: dict[str, str] = field(default_factory=dict)
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.addheaders = list(self.headers.items())

    def _open(self, request: urllib.request.Request) -> Answer:
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=30) as response:
                status, body = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read()
        return Answer(
            request.full_url, status, body.decode(errors="replace"), time.monotonic() - started
        )

    def get(self, path: str) -> Answer:
        return self._open(urllib.request.Request(self.base + path))

    def csrf_token(self) -> str:
        return next(cookie.value for cookie in self.jar if cookie.name == "csrftoken")

    def post(self, path: str, data: dict) -> Answer:
        """A form post (redirects followed, as a browser does)."""
        if not any(cookie.name == "csrftoken" for cookie in self.jar):
            self.get("/accounts/login/")
        payload = {**data, "csrfmiddlewaretoken": self.csrf_token()}
        body = urllib.parse.urlencode(payload, doseq=True).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={"Referer": self.base + path}
        )
        return self._open(request)

    def log_in(self, username: str, password: str) -> Answer:
        self.get("/accounts/login/")
        return self.post("/accounts/login/", {"username": username, "password": password})

    def crawl(self, starts: list[str], *, limit: int = 40, depth: int = 3) -> list[Answer]:
        """Every page reachable from ``starts`` (GET only), breadth first, at most ``limit``."""
        seen = set(starts)
        queue = deque((start, 0) for start in starts)
        answers = []
        while queue and len(answers) < limit:
            path, level = queue.popleft()
            answer = self.get(path)
            answers.append(answer)
            if level >= depth or answer.status != 200:
                continue
            for link in LINK.findall(answer.body):
                link = link.replace("&amp;", "&")
                if (
                    link in seen
                    or link.startswith(SKIPPED)
                    or any(p in link for p in SKIPPED_PARTS)
                ):
                    continue
                seen.add(link)
                queue.append((link, level + 1))
        return answers
