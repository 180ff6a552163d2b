"""A page's form as a browser would post it, read from its HTML: what a person sees in each
field, the hidden fields included, so a test can play two browser tabs."""

from __future__ import annotations

from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, list[str]]] = []
        self._form: dict[str, list[str]] | None = None
        self._select: str | None = None
        self._textarea: str | None = None
        self._text = ""

    def _add(self, name: str, value: str) -> None:
        assert self._form is not None
        self._form.setdefault(name, []).append(value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._form = {}
            self.forms.append(self._form)
        if self._form is None or "name" not in values and tag not in ("option",):
            return
        name = values.get("name", "")
        if tag == "input":
            kind = values.get("type", "text")
            if kind in ("submit", "button", "file"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in values:
                    self._add(name, values.get("value") or "on")
                return
            self._add(name, values.get("value", ""))
        elif tag == "select":
            self._select = name
            self._form.setdefault(name, [])
        elif tag == "option" and self._select and "selected" in values:
            self._add(self._select, values.get("value", ""))
        elif tag == "textarea":
            self._textarea, self._text = name, ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self._add(self._textarea, self._text.removeprefix("\n"))
            self._textarea = None
        elif tag == "form":
            self._form = None


def form_on(html: str, holding: str) -> dict[str, list[str]]:
    """The values of the page's form that has a field named ``holding``, by field name
    (a list each: a select may hold several)."""
    reader = _FormReader()
    reader.feed(html)
    reader.close()
    found = [form for form in reader.forms if holding in form]
    assert found, f"no form with a field {holding!r} on the page"
    return found[0]
