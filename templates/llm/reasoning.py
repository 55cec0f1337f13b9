"""Reasoning controls: ``reasoning_effort`` and a thinking-token budget, per provider.

One request language, each provider's own form, as its manifest declares it:

- a manifest that maps ``reasoning_effort`` for an OpenAI-family API (OpenAI's o-series,
  DeepSeek's and Zhipu's v2 ``parameters``) gets the effort as given, checked against the
  values the manifest lists (``enum``) when it lists them; a token budget has no place there;
- Anthropic's Messages API (a manifest declaring reasoning / extended thinking) gets
  ``thinking: {"type": "enabled", "budget_tokens": N}``, never the verbatim
  ``reasoning_effort`` field it does not know (upstream's anthropic manifest maps it as is);
- Gemini's generateContent (a manifest declaring reasoning / extended thinking) gets
  ``generationConfig.thinkingConfig.thinkingBudget``;
- anything else raises :class:`~agentproto.llm.problems.UnsupportedError` before a request is
  sent: a reasoning control is never dropped, and never passed verbatim to a provider that did
  not declare it.

An effort without a budget becomes a budget by :data:`EFFORT_BUDGETS` (the figures LiteLLM
uses: low 1024, medium 2048, high 4096 tokens); ``"none"`` turns thinking off where the API
has a way to say so. A budget given alone (``reasoning_budget=``) is sent as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast

from agentproto.llm.problems import UnsupportedError

__all__ = ["EFFORT_BUDGETS", "ReasoningPlan", "plan_reasoning"]

EFFORT_BUDGETS: Final[dict[str, int]] = {"low": 1024, "medium": 2048, "high": 4096}
"""Thinking-token budgets an effort stands for, where an API takes a budget."""
ANTHROPIC_MIN_BUDGET: Final = 1024
"""Anthropic refuses a smaller ``budget_tokens``."""


class ReasoningPlan:
    """Where a reasoning control goes in a request body: ``values`` (standard name -> value,
    mapped by the manifest like any parameter) and ``body`` (set at these dotted targets)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.body: dict[str, Any] = {}
        self.min_max_tokens: int | None = None
        """A ``max_tokens`` the request must exceed (Anthropic: above the thinking budget)."""


def _mapping(value: object) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _declares_reasoning(manifest: Any) -> bool:
    caps: Mapping[str, bool] = manifest.capabilities
    if caps.get("reasoning") or caps.get("extended_thinking"):
        return True
    flags = _mapping(_mapping(manifest.raw).get("capabilities"))
    return bool(_mapping(flags.get("feature_flags")).get("extended_thinking"))


def _declared_values(manifest: Any) -> list[str] | None:
    for name, spec in _mapping(_mapping(manifest.raw).get("parameters")).items():
        found = _mapping(spec)
        if (found.get("alias") or name) == "reasoning_effort":
            values = found.get("enum")
            if isinstance(values, list):
                return [str(v) for v in cast("list[object]", values)]
    return None


def plan_reasoning(manifest: Any, effort: object, budget: object) -> ReasoningPlan:
    """The request pieces for ``effort`` / ``budget`` (either may be ``None``: not asked);
    a budget that is not a whole number of tokens, or an effort that is not a string, raises
    ``ValueError``."""
    plan = ReasoningPlan()
    if effort is None and budget is None:
        return plan
    tokens_asked: int | None = None
    if budget is not None:
        if isinstance(budget, bool) or not isinstance(budget, int):
            raise ValueError(f"reasoning_budget must be a number of tokens, not {budget!r}")
        if budget < 0:
            raise ValueError("reasoning_budget cannot be negative")
        tokens_asked = budget
    effort_asked: str | None = None
    if effort is not None:
        if not isinstance(effort, str):
            raise ValueError(f"reasoning_effort must be a string, not {effort!r}")
        effort_asked = effort
    fmt = manifest.payload_format
    where = manifest.id
    if fmt in ("anthropic_style", "gemini_style"):
        if not _declares_reasoning(manifest):
            raise UnsupportedError(
                f"{where}: the manifest declares no reasoning / extended thinking; "
                "reasoning_effort and reasoning_budget are not sent"
            )
        off = effort_asked == "none" or tokens_asked == 0
        if (
            effort_asked is not None
            and effort_asked != "none"
            and effort_asked not in EFFORT_BUDGETS
        ):
            raise UnsupportedError(
                f"{where}: reasoning_effort {effort_asked!r} has no {fmt} thinking budget "
                f"(known: none, {', '.join(EFFORT_BUDGETS)}); give reasoning_budget="
            )
        tokens = (
            tokens_asked if tokens_asked is not None else EFFORT_BUDGETS.get(effort_asked or "", 0)
        )
        if fmt == "anthropic_style":
            if off:
                plan.body["thinking"] = {"type": "disabled"}
                return plan
            if tokens < ANTHROPIC_MIN_BUDGET:
                raise UnsupportedError(
                    f"{where}: Anthropic's thinking budget is at least {ANTHROPIC_MIN_BUDGET} "
                    f"tokens, not {tokens}"
                )
            plan.body["thinking"] = {"type": "enabled", "budget_tokens": tokens}
            plan.min_max_tokens = tokens
        else:
            plan.body["generationConfig.thinkingConfig.thinkingBudget"] = 0 if off else tokens
        return plan
    # every other API: as the manifest maps it, or not at all
    if tokens_asked is not None:
        raise UnsupportedError(
            f"{where}: {fmt} has no thinking-token budget the manifest declares; "
            "reasoning_budget is not sent"
        )
    if "reasoning_effort" not in manifest.mappings:
        raise UnsupportedError(
            f"{where}: the manifest declares no reasoning_effort; it is not sent "
            f"(it maps: {', '.join(sorted(manifest.mappings))})"
        )
    allowed = _declared_values(manifest)
    if allowed is not None and effort_asked not in allowed:
        raise UnsupportedError(
            f"{where}: reasoning_effort {effort_asked!r} is not one the manifest declares "
            f"({', '.join(allowed)})"
        )
    plan.values["reasoning_effort"] = effort_asked
    return plan
