"""agents.json bundles as people publish them, read leniently by default.

The reading itself is the shared planner's (:func:`normalise` in
``templates/runtime/flows_plan.py``, the same at build and run time); this module holds the
build's switch: ``codegen build --strict`` (or :func:`strict_bundles`) validates documents as
they are, rejects the deviations with the seed schema's own messages, and makes every problem
confined to one flow an error instead of leaving that flow out with a warning.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, cast

from codegen.flows.shared import planner

_STRICT: ContextVar[bool] = ContextVar("codegen_strict_bundles", default=False)

Deviation = planner().Deviation
PARAMETER_KEYS: frozenset[str] = planner().PARAMETER_KEYS
SCHEMA_KEYWORDS: frozenset[str] = planner().SCHEMA_KEYWORDS


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


def normalise(document: Any) -> tuple[Any, Any, list[Any]]:
    """``(lenient, checkable, deviations)``: see the shared planner's ``normalise``."""
    return cast("tuple[Any, Any, list[Any]]", planner().normalise(document))


def group(deviations: Sequence[Any]) -> list[tuple[str, list[str]]]:
    """``(kind, pointers)`` per kind of deviation, in order of first appearance."""
    return cast("list[tuple[str, list[str]]]", planner().group(deviations))
