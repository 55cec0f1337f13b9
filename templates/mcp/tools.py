"""Tools for models, from agents.json flows and Skill Sharing skills, independent of MCP.

A :class:`ToolSource` lists :class:`ToolSpec` s (name, description, JSON Schema of the
arguments) and runs a call to a :class:`ToolOutcome` (a JSON value, or an error text a model
may read). Two sources:

- :class:`FlowTools`: the flows of one bundle, through an async flows client (a generated
  ``Async<Bundle>Flows`` or a bundle loaded at run time). The client holds the auth the
  operator gave; inputs the planner marked as credentials (``token``, ``apiKey``...) are not
  tool arguments, so a model can never supply or read them.
- :class:`SkillTools`: the skills a Skill Sharing discovery finds, invoked and waited for with
  the consumer; the operator's :class:`~agentproto.skills.Credentials` go where each
  descriptor's ``auth`` says.

Arguments are checked against the tool's schema before anything is sent. A failure the
caller can act on (bad arguments, a flow's or skill's error) is an outcome with ``error`` set,
its text from the package's own error messages (credentials masked); anything else is logged
here and reported as a plain "internal error", never with its details.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import anyio
from agentproto._runtime.flows import AsyncFlows, FlowError, model_tool_definitions
from agentproto.llm.tool_loop import MAX_TOOL_NAME, check_arguments, tool_name
from agentproto.skills import AsyncSkillsClient, Credentials, SkillSharingError
from agentproto.skills.models import SkillDescriptor
from agentproto.skills.tools import skill_schema

log: Final = logging.getLogger("agentproto.mcp")

MAX_NAME: Final = MAX_TOOL_NAME
"""Longest tool name every MCP client accepts (``^[A-Za-z0-9_-]{1,64}$``)."""


@dataclass(frozen=True)
class ToolSpec:
    """One tool as a model sees it."""

    name: str
    description: str
    input_schema: Mapping[str, Any]
    read_only: bool = False
    destructive: bool = False
    title: str | None = None


@dataclass(frozen=True)
class ToolOutcome:
    """What a call gave: ``value`` (JSON), or ``error`` (a text for the model)."""

    value: Any = None
    error: str | None = None


class ToolSource(Protocol):
    """Where tools come from."""

    def tools(self) -> Sequence[ToolSpec]: ...

    async def call(self, name: str, arguments: Mapping[str, Any]) -> ToolOutcome: ...

    async def aclose(self) -> None: ...


@dataclass
class FlowTools:
    """The flows of one bundle as tools (``prefix``: default ``<bundle>_``)."""

    client: AsyncFlows
    prefix: str | None = None
    _by_name: dict[str, tuple[str, ToolSpec]] = field(
        default_factory=dict[str, tuple[str, ToolSpec]]
    )

    def __post_init__(self) -> None:
        plan = self.client.plan
        prefix = self.prefix if self.prefix is not None else f"{plan['bundle']}_"
        methods: dict[str, set[str]] = {}
        for flow in plan["flows"]:
            methods[flow["id"]] = {str(a.get("method", "GET")).upper() for a in flow["actions"]}
        for definition, flow in zip(model_tool_definitions(plan), plan["flows"], strict=True):
            parameters = definition["parameters"]
            kinds = methods[flow["id"]]
            spec = ToolSpec(
                name=tool_name(prefix, str(flow["id"])),
                description=str(definition["description"]),
                input_schema=parameters,
                read_only=kinds <= {"GET", "HEAD", "OPTIONS"},
                destructive="DELETE" in kinds,
                title=str(flow.get("title") or flow["id"]),
            )
            if spec.name in self._by_name:
                raise ValueError(f"two flows make the tool name {spec.name!r}")
            self._by_name[spec.name] = (str(flow["id"]), spec)

    def tools(self) -> Sequence[ToolSpec]:
        return [spec for _, spec in self._by_name.values()]

    async def call(self, name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        flow_id, spec = self._by_name[name]
        problem = check_arguments(spec.input_schema, arguments)
        if problem is not None:
            return ToolOutcome(error=problem)
        try:
            return ToolOutcome(value=await self.client.run_flow(flow_id, arguments))
        except FlowError as exc:
            return ToolOutcome(error=str(exc))

    async def aclose(self) -> None:
        await self.client.aclose()


@dataclass
class SkillTools:
    """The skills of a discovered provider as tools (``prefix``: default none). Made by
    :meth:`discover`."""

    client: AsyncSkillsClient
    descriptors: Sequence[SkillDescriptor]
    credentials: Credentials | None = None
    prefix: str = ""
    timeout: float | None = 120.0
    _by_name: dict[str, tuple[SkillDescriptor, ToolSpec]] = field(
        default_factory=dict[str, tuple[SkillDescriptor, ToolSpec]]
    )

    def __post_init__(self) -> None:
        for descriptor in self.descriptors:
            spec = ToolSpec(
                name=tool_name(self.prefix, descriptor.id),
                description=descriptor.description,
                input_schema=skill_schema(descriptor),
                title=descriptor.name,
            )
            if spec.name in self._by_name:
                raise ValueError(f"two skills make the tool name {spec.name!r}")
            self._by_name[spec.name] = (descriptor, spec)

    @classmethod
    async def discover(
        cls,
        where: str,
        *,
        credentials: Credentials | None = None,
        prefix: str = "",
        client: AsyncSkillsClient | None = None,
        timeout: float | None = 120.0,
    ) -> SkillTools:
        """Discover a provider (a domain or a base URL) and read every skill's descriptor."""
        skills = client if client is not None else AsyncSkillsClient(credentials=credentials)
        try:
            index = await skills.discover(where, credentials=credentials)
            descriptors = [
                await skills.get_descriptor(str(entry.descriptor_url), credentials=credentials)
                for entry in index.skills
            ]
        except BaseException:
            if client is None:
                await skills.aclose()
            raise
        return cls(skills, descriptors, credentials, prefix, timeout)

    def tools(self) -> Sequence[ToolSpec]:
        return [spec for _, spec in self._by_name.values()]

    async def call(self, name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        descriptor, spec = self._by_name[name]
        problem = check_arguments(spec.input_schema, arguments)
        if problem is not None:
            return ToolOutcome(error=problem)
        try:
            value = await self.client.invoke_and_wait(
                descriptor, arguments, credentials=self.credentials, timeout=self.timeout
            )
        except SkillSharingError as exc:
            return ToolOutcome(error=f"{exc.code}: {exc}")
        return ToolOutcome(value=value)

    async def aclose(self) -> None:
        await self.client.aclose()


@dataclass
class Toolbox:
    """Every source's tools under one name each: what an MCP server serves."""

    sources: Sequence[ToolSource]
    _route: dict[str, ToolSource] = field(default_factory=dict[str, ToolSource])

    def __post_init__(self) -> None:
        for source in self.sources:
            for spec in source.tools():
                if spec.name in self._route:
                    raise ValueError(
                        f"the tool name {spec.name!r} is made twice: give a source a prefix"
                    )
                self._route[spec.name] = source

    def tools(self) -> list[ToolSpec]:
        return [spec for source in self.sources for spec in source.tools()]

    async def call(self, name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        source = self._route.get(name)
        if source is None:
            return ToolOutcome(error=f"no tool {name!r}")
        try:
            return await source.call(name, arguments)
        except anyio.get_cancelled_exc_class():
            raise
        except Exception:
            log.exception("tool %s failed", name)  # the details stay here
            return ToolOutcome(error=f"tool {name!r} failed with an internal error")

    async def aclose(self) -> None:
        for source in self.sources:
            await source.aclose()
