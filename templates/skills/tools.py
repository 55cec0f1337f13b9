"""Skills as LLM tools (hand-written): a descriptor's inputs as a JSON Schema, and a tool for
``agentproto.llm`` ``run_tools`` that invokes the skill and waits for its output.

::

    with SkillsClient(credentials=creds) as skills, LLMClient("openai") as llm:
        translate = skills.get_descriptor("https://skills.acme.dev/skills/acme%2Ftranslate/descriptor")
        result = llm.run_tools(messages, tools=[skill_tool(skills, translate)], model="gpt-4o-mini")

The tool is named after the skill id (characters a provider refuses become ``_``), described by
the descriptor's description, and takes the skill's inputs (:func:`skill_schema`; the MCP server
serves the same schema). A call is checked against the schema, then invoked and waited for
(``timeout`` seconds); a skill's failure (``SkillSharingError``: failed, timed out, refused) is
told to the model as the tool's error (code and message, credentials masked), never raised
through the loop. With an :class:`~agentproto.skills.AsyncSkillsClient` the tool is ``async``
(for ``AsyncLLMClient.run_tools``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agentproto.skills.errors import SkillSharingError
from agentproto.skills.models import SkillDescriptor

if TYPE_CHECKING:
    from agentproto.llm.tool_loop import FunctionTool
    from agentproto.skills.consumer import AsyncSkillsClient, Credentials, SkillsClient

__all__ = ["skill_schema", "skill_tool"]

DEFAULT_TOOL_TIMEOUT = 120.0


def skill_schema(descriptor: SkillDescriptor) -> dict[str, Any]:
    """A JSON Schema of a skill's inputs (each input's own schema, else its type)."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for parameter in descriptor.inputs:
        schema: dict[str, Any] = dict(parameter.schema_ or {"type": parameter.type})
        if parameter.description:
            schema.setdefault("description", parameter.description)
        if parameter.default is not None:
            schema.setdefault("default", parameter.default)
        properties[parameter.name] = schema
        if parameter.required:
            required.append(parameter.name)
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def skill_tool(
    client: SkillsClient | AsyncSkillsClient,
    descriptor: SkillDescriptor | Mapping[str, Any],
    *,
    credentials: Credentials | None = None,
    name: str | None = None,
    timeout: float | None = DEFAULT_TOOL_TIMEOUT,
) -> FunctionTool:
    """The skill as a tool for ``run_tools`` (see the module docstring)."""
    from agentproto.llm.tool_loop import ToolError, schema_tool, tool_name
    from agentproto.skills.consumer import AsyncSkillsClient
    from agentproto.skills.documents import parse

    ready = descriptor if isinstance(descriptor, SkillDescriptor) else parse(dict(descriptor))
    called = name or tool_name("", ready.id)
    if isinstance(client, AsyncSkillsClient):
        async_client = client

        async def run_async(**arguments: Any) -> Any:
            try:
                return await async_client.invoke_and_wait(
                    ready, arguments, credentials=credentials, timeout=timeout
                )
            except SkillSharingError as exc:
                raise ToolError(f"{exc.code}: {exc.message}") from None

        return schema_tool(called, ready.description, skill_schema(ready), run_async)
    sync_client = client

    def run(**arguments: Any) -> Any:
        try:
            return sync_client.invoke_and_wait(
                ready, arguments, credentials=credentials, timeout=timeout
            )
        except SkillSharingError as exc:
            raise ToolError(f"{exc.code}: {exc.message}") from None

    return schema_tool(called, ready.description, skill_schema(ready), run)
