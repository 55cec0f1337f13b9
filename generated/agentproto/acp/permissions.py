"""Asking the editor's user for permission (ACP v1, the agent's side).

:func:`default_permission_options` are the four answers editors show (allow once, always
allow, reject once, always reject). A :class:`PermissionBroker` asks through
``session/request_permission`` and remembers an "always" answer, so the user is not asked
twice about the same kind of action::

    broker = PermissionBroker(self.client, params.session_id)
    decision = await broker.ask("t1", "Run pytest", kind="execute")
    if decision.allowed:
        ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from agentproto.acp.models import (
    PermissionOption,
    RequestPermissionOutcomeCancelled,
    RequestPermissionOutcomeSelected,
    RequestPermissionRequest,
    ToolCallUpdate,
    ToolKind,
)

if TYPE_CHECKING:
    from agentproto.acp.connection import ClientConnection

ALLOW_ONCE = "allow-once"
ALLOW_ALWAYS = "allow-always"
REJECT_ONCE = "reject-once"
REJECT_ALWAYS = "reject-always"


def default_permission_options() -> list[PermissionOption]:
    """Allow once, always allow, reject once, always reject (ids: ``allow-once``...)."""
    return [
        PermissionOption(option_id=ALLOW_ONCE, name="Allow", kind="allow_once"),
        PermissionOption(option_id=ALLOW_ALWAYS, name="Always allow", kind="allow_always"),
        PermissionOption(option_id=REJECT_ONCE, name="Reject", kind="reject_once"),
        PermissionOption(option_id=REJECT_ALWAYS, name="Always reject", kind="reject_always"),
    ]


@dataclass(frozen=True)
class PermissionDecision:
    """The user's answer: ``allowed`` or not, the option chosen (``None`` when the prompt
    turn was cancelled meanwhile, or the answer came from a remembered "always"), and how
    it was reached."""

    allowed: bool
    option: PermissionOption | None
    how: Literal["asked", "remembered", "cancelled"]


@dataclass
class PermissionBroker:
    """Asks for permission through the editor; remembers "always" answers by ``key`` (the
    tool kind by default: an "always allow" of an ``execute`` call allows every ``execute``
    call of this broker)."""

    client: ClientConnection
    session_id: str
    options: list[PermissionOption] = field(default_factory=default_permission_options)
    _remembered: dict[str, bool] = field(default_factory=dict[str, bool])

    async def ask(
        self,
        tool_call_id: str,
        title: str,
        *,
        kind: ToolKind | None = None,
        key: str | None = None,
    ) -> PermissionDecision:
        """Ask about one tool call (or answer from a remembered "always")."""
        remember_as = key if key is not None else (kind or "other")
        if remember_as in self._remembered:
            return PermissionDecision(self._remembered[remember_as], None, "remembered")
        tool_call = ToolCallUpdate(tool_call_id=tool_call_id, title=title, kind=kind)
        answer = await self.client.request_permission(
            RequestPermissionRequest(
                session_id=self.session_id, tool_call=tool_call, options=self.options
            )
        )
        outcome = answer.outcome
        if isinstance(outcome, RequestPermissionOutcomeCancelled):
            return PermissionDecision(False, None, "cancelled")
        if not isinstance(outcome, RequestPermissionOutcomeSelected):
            return PermissionDecision(
                False, None, "cancelled"
            )  # an outcome this version does not know
        chosen = next((o for o in self.options if o.option_id == outcome.option_id), None)
        if chosen is None:  # the editor chose an option it was not offered: not a yes
            return PermissionDecision(False, None, "asked")
        allowed = chosen.kind in ("allow_once", "allow_always")
        if chosen.kind in ("allow_always", "reject_always"):
            self._remembered[remember_as] = allowed
        return PermissionDecision(allowed, chosen, "asked")

    def forget(self) -> None:
        """Forget every "always" answer."""
        self._remembered.clear()
