"""agents.json bundles as people publish them, read leniently by default.

The seed schema (001) is strict about flow fields, and real bundles break it in a few recurring
ways. A default build reads these known deviations and reports them as build warnings, grouped
by kind, each naming every JSON pointer; ``codegen build --strict`` (or :func:`strict_bundles`)
validates the document as it is and rejects them with the schema's own messages.

Known deviations (everything else the schema rejects is still an error):

- JSON-Schema keywords (``enum``, ``items``, ``default``, ...) inside a flow parameter
  (``/flows/N/fields/parameters/M``): kept, they become part of that input's JSON Schema (the
  plan's ``inputs[].schema``, the tool definitions in ``TOOLS``);
- any other unknown key inside a flow parameter: kept in the plan as that input's ``extras``
  (``PLAN["flows"][i]["inputs"][j]["extras"]``), never dropped;
- ``requestBody: null`` / ``responses: null`` / ``parameters: null`` in a flow's ``fields``:
  read as absent.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

_STRICT: ContextVar[bool] = ContextVar("codegen_strict_bundles", default=False)

PARAMETER_KEYS = frozenset({"name", "description", "required", "type"})
SCHEMA_KEYWORDS = frozenset(
    {
        "additionalProperties",
        "allOf",
        "anyOf",
        "const",
        "default",
        "enum",
        "example",
        "examples",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "format",
        "items",
        "maxItems",
        "maxLength",
        "maximum",
        "minItems",
        "minLength",
        "minimum",
        "multipleOf",
        "nullable",
        "oneOf",
        "pattern",
        "properties",
        "title",
        "uniqueItems",
    }
)


def is_strict() -> bool:
    return _STRICT.get()


@contextmanager
def strict_bundles(strict: bool = True) -> Iterator[None]:
    """Within this block, bundles must match the seed schema exactly (``build --strict``)."""
    token = _STRICT.set(strict)
    try:
        yield
    finally:
        _STRICT.reset(token)


@dataclass(frozen=True)
class Deviation:
    pointer: str
    kind: str


def normalise(document: Any) -> tuple[Any, Any, list[Deviation]]:
    """``(lenient, checkable, deviations)``: the document the planner reads (extras kept),
    the one validated against the seed schema (extras taken out), and what was read
    leniently. Array indices are unchanged, so every other schema message keeps its pointer."""
    if not isinstance(document, dict) or not isinstance(document.get("flows"), list):
        return document, document, []
    lenient = copy.deepcopy(document)
    deviations: list[Deviation] = []
    for f_index, flow in enumerate(lenient["flows"]):
        fields = flow.get("fields") if isinstance(flow, dict) else None
        if not isinstance(fields, dict):
            continue
        for key in ("requestBody", "responses", "parameters"):
            if key in fields and fields[key] is None:
                del fields[key]
                deviations.append(
                    Deviation(f"/flows/{f_index}/fields/{key}", f"`{key}: null` read as absent")
                )
        for p_index, param in enumerate(fields.get("parameters") or []):
            if not isinstance(param, dict):
                continue
            where = f"/flows/{f_index}/fields/parameters/{p_index}"
            for key in sorted(set(param) - PARAMETER_KEYS):
                kind = (
                    f"JSON-Schema keyword {key!r} in a flow parameter: part of the input's schema"
                    if key in SCHEMA_KEYWORDS
                    else f"unknown key {key!r} in a flow parameter: kept in the input's extras"
                )
                deviations.append(Deviation(where, kind))
    checkable = copy.deepcopy(lenient)
    for flow in checkable["flows"]:
        fields = flow.get("fields") if isinstance(flow, dict) else None
        if isinstance(fields, dict):
            for param in fields.get("parameters") or []:
                if isinstance(param, dict):
                    for key in set(param) - PARAMETER_KEYS:
                        del param[key]
    return lenient, checkable, deviations


def group(deviations: list[Deviation]) -> list[tuple[str, list[str]]]:
    """``(kind, pointers)`` per kind of deviation, in order of first appearance."""
    grouped: dict[str, list[str]] = {}
    for deviation in deviations:
        pointers = grouped.setdefault(deviation.kind, [])
        if deviation.pointer not in pointers:
            pointers.append(deviation.pointer)
    return list(grouped.items())
