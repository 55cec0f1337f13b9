"""agents.json bundles -> execution plans, at build time.

The planning is the shared planner's (``templates/runtime/flows_plan.py``, loaded by
:mod:`codegen.flows.shared`; the package runs the same code for bundles loaded at run time).
This module turns its outcome into the build's terms: warnings to ``warn`` (or one compact log
message per bundle) and problems to a :class:`BuildError` naming the file, the JSON pointer and
the reason. ``codegen build --strict`` makes problems confined to one flow errors; a default
build leaves such a flow out with a warning.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from codegen.errors import BuildError, Problem
from codegen.flows.normalise import is_strict
from codegen.flows.shared import planner
from codegen.progress import Topic, topic_extra

log = logging.getLogger("codegen")
LENIENT_BUNDLES = Topic("agents.json", "bundles", "kinds of lenient reading or warning")
"""What a build's summary line counts (codegen.progress): the full text with --verbose."""

Warn = Callable[[str, str, str], None]


def identifier(text: str) -> str:
    """A Python identifier for a wire name (``from`` -> ``from_``, ``x-id`` -> ``x_id``)."""
    return cast(str, planner().identifier(text))


def snake_name(text: str) -> str:
    """A Python method name for a wire id: ``chat_postMessage`` -> ``chat_post_message``."""
    return cast(str, planner().snake_name(text))


def class_name(text: str) -> str:
    return cast(str, planner().class_name(text))


def python_type(schema: Any) -> str:
    return cast(str, planner().python_type(schema))


def plan_bundle(
    name: str,
    document: Mapping[str, Any],
    specs: Mapping[str, Any],
    shown: str,
    warn: Warn | None = None,
    deviations: Sequence[Any] = (),
) -> dict[str, Any]:
    """The execution plan of one bundle (plain data), or BuildError.

    Warnings (the deviations the bundle was read with, the links rewritten, the flows left
    out) go to ``warn`` one per kind, each naming every pointer; without ``warn`` they are
    logged as one compact message per bundle."""
    outcome = planner().plan_bundle(
        name, document, specs, deviations=deviations, strict=is_strict()
    )
    if outcome.problems:
        raise BuildError([Problem(shown, p.pointer, p.reason) for p in outcome.problems])
    grouped: list[tuple[str, list[str]]] = outcome.warnings
    if warn is not None:
        for kind, pointers in grouped:
            warn(shown, ", ".join(pointers), kind)
    elif grouped:
        lines = [f"  {kind}: {', '.join(pointers)}" for kind, pointers in grouped]
        log.warning(
            "%s: read with %d kind(s) of normalisation:\n%s",
            shown,
            len(lines),
            "\n".join(lines),
            extra=topic_extra(LENIENT_BUNDLES, shown, len(lines)),
        )
    return cast("dict[str, Any]", outcome.plan)
