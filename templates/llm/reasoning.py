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
from typing import Any, Final

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


def _declares_reasoning(manifest: Any) -> bool:
    caps: Mapping[str, bool] = manifest.capabilities
    if caps.get("reasoning") or caps.get("extended_thinking"):
        return True
    flags = manifest.raw.get("capabilities")
    if isinstance(flags, Mapping):
        feature_flags = flags.get("feature_flags")
        if isinstance(feature_flags, Mapping) and feature_flags.get("extended_thinking"):
            return True
    return False


def _declared_values(manifest: Any) -> list[str] | None:
    parameters = manifest.raw.get("parameters")
    if isinstance(parameters, Mapping):
        for name, spec in parameters.items():
            if isinstance(spec, Mapping) and (spec.get("alias") or name) == "reasoning_effort":
                values = spec.get("enum")
                if isinstance(values, list):
                    return [str(v) for v in values]
    return None


def plan_reasoning(manifest: Any, effort: str | None, budget: int | None) -> ReasoningPlan:
    """The request pieces for ``effort`` / ``budget`` (either may be ``None``: not asked)."""
    plan = ReasoningPlan()
    if effort is None and budget is None:
        return plan
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)):
        raise ValueError(f"reasoning_budget must be a number of tokens, not {budget!r}")
    if budget is not None and budget < 0:
        raise ValueError("reasoning_budget cannot be negative")
    if effort is not None and not isinstance(effort, str):
        raise ValueError(f"reasoning_effort must be a string, not {effort!r}")
    fmt = manifest.payload_format
    where = manifest.id
    if fmt in ("anthropic_style", "gemini_style"):
        if not _declares_reasoning(manifest):
            raise UnsupportedError(
                f"{where}: the manifest declares no reasoning / extended thinking; "
                "reasoning_effort and reasoning_budget are not sent"
            )
        off = effort == "none" or budget == 0
        if effort is not None and effort != "none" and effort not in EFFORT_BUDGETS:
            raise UnsupportedError(
                f"{where}: reasoning_effort {effort!r} has no {fmt} thinking budget "
                f"(known: none, {', '.join(EFFORT_BUDGETS)}); give reasoning_budget="
            )
        tokens = budget if budget is not None else EFFORT_BUDGETS.get(effort or "", 0)
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
    if budget is not None:
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
    if allowed is not None and effort not in allowed:
        raise UnsupportedError(
            f"{where}: reasoning_effort {effort!r} is not one the manifest declares "
            f"({', '.join(allowed)})"
        )
    plan.values["reasoning_effort"] = effort
    return plan
