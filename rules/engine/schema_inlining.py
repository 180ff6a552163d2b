"""JSON Schemas with their local references inlined, for checking large data fast.

``jsonschema`` looks every ``$ref`` up again for every value it checks; inlining the
definitions once gives the same checks and the same messages without those lookups (a
third of the time of a big tournament document, most of the time of a game state).
"""

from __future__ import annotations

from typing import Any

_LOCAL_REF = "#/$defs/"


def inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with each ``#/$defs/...`` reference replaced by the definition it names;
    a recursive definition keeps its ``$ref`` (the ``$defs`` stay for it)."""
    definitions = schema.get("$defs", {})

    def resolve(node: Any, through: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [resolve(item, through) for item in node]
        if not isinstance(node, dict):
            return node
        reference = node.get("$ref")
        if not isinstance(reference, str) or not reference.startswith(_LOCAL_REF):
            return {key: resolve(value, through) for key, value in node.items()}
        name = reference[len(_LOCAL_REF) :]
        if name in through or name not in definitions:
            return {key: resolve(value, through) for key, value in node.items()}
        target = resolve(definitions[name], (*through, name))
        rest = {key: value for key, value in node.items() if key != "$ref"}
        if not rest:
            return target
        # A $ref beside other keywords applies both (draft 2020-12).
        return {"allOf": [target], **resolve(rest, through)}

    return {key: value if key == "$defs" else resolve(value, ()) for key, value in schema.items()}
