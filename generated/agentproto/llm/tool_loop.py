"""Tools with Python behind them, for :meth:`AsyncLLMClient.run_tools` (and its blocking twin).

::

    def get_weather(city: str, unit: Literal["C", "F"] = "C") -> dict[str, object]:
        \"\"\"The weather in a city.\"\"\"
        return {"city": city, "temp": 21, "unit": unit}

    result = llm.run_tools(messages, tools=[get_weather], model="gpt-4o-mini")
    print(result.content, result.runs)

:func:`function_tool` turns a function (sync or ``async def``) into a :class:`FunctionTool`: its
name, the first paragraph of its docstring as description, and a JSON Schema of its parameters
made from their annotations by pydantic, which also validates (and converts) the arguments the
model sends. ``run_tools`` then loops: chat, run every tool call of the answer, send the
results, chat again, until an answer asks for no tool, at most ``max_iterations`` chats
(:class:`ToolLoopLimitError` beyond).

:func:`schema_tool` makes a tool from a JSON Schema and a function taking the arguments as
keywords: how skills (``agentproto.skills.skill_tool``) and flows
(``<Bundle>Flows.function_tools()``) become tools, so one loop can drive functions, skills and
flows together.

What the model is told when a call fails: the message of a :class:`ToolError` the tool raises
(the tool's author chose it), that the tool does not exist, or which arguments did not validate.
Any other exception is the program's, not the model's: it stops the loop as
:class:`ToolExecutionError` (the original chained as ``__cause__``) and its text is never sent.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import sys
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.limits import loads
from agentproto.llm.response import ChatResponse, ToolCall

if TYPE_CHECKING:  # imported when a tool is made, not when the client is
    import pydantic

__all__ = [
    "FunctionTool",
    "ToolError",
    "ToolExecutionError",
    "ToolLoopChatError",
    "ToolLoopError",
    "ToolLoopLimitError",
    "ToolLoopResult",
    "ToolRun",
    "check_arguments",
    "function_tool",
    "schema_tool",
    "tool_name",
]


class ToolError(AgentprotoError):
    """Raise it in a tool to tell the model the call failed: its message is the tool result."""


class ToolLoopError(AgentprotoError, RuntimeError):
    """The tool loop stopped before the model's final answer."""

    def __init__(
        self,
        message: str,
        *,
        messages: list[dict[str, Any]],
        runs: list[ToolRun],
        response: ChatResponse | None,
    ) -> None:
        super().__init__(message)
        self.messages = messages
        self.runs = runs
        self.response = response


class ToolLoopLimitError(ToolLoopError):
    """The model still asked for tools after ``max_iterations`` chats."""


class ToolLoopChatError(ToolLoopError):
    """A chat failed after tools had run (the provider's error chained as ``__cause__``):
    ``messages`` and ``runs`` hold the conversation so far, so the caller can see what the
    tools did and resume. A failure of the first chat raises the provider's error itself."""


class ToolExecutionError(ToolLoopError):
    """A tool raised something other than :class:`ToolError` (chained as ``__cause__``)."""


@dataclass(frozen=True)
class ToolRun:
    """One tool call and what was sent back for it."""

    call: ToolCall
    output: str
    is_error: bool = False

    def block(self) -> dict[str, Any]:
        """The ``tool_result`` block answering the call."""
        block: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": self.call.id,
            "content": self.output,
            "name": self.call.name,
        }
        if self.is_error:
            block["is_error"] = True
        return block


@dataclass(frozen=True)
class ToolLoopResult:
    """The model's final answer, the whole conversation (the messages given, then every
    assistant turn and tool result, ending with the final answer) and every tool run."""

    response: ChatResponse
    messages: list[dict[str, Any]]
    runs: list[ToolRun] = field(default_factory=list[ToolRun])
    iterations: int = 1

    @property
    def content(self) -> str:
        return self.response.content


@dataclass(frozen=True)
class FunctionTool:
    """A tool the model can call and the Python function that answers it."""

    name: str
    description: str
    parameters: dict[str, Any]
    function: Callable[..., Any] = field(repr=False)
    arguments: type[pydantic.BaseModel] = field(repr=False)

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.function)

    def spec(self) -> dict[str, Any]:
        """The standard tool definition sent to the model."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}

    def bind(self, input: Mapping[str, Any]) -> dict[str, Any]:
        """The call's arguments validated and converted for the function (ToolError if not)."""
        import pydantic

        try:
            validated = self.arguments.model_validate(dict(input))
        except pydantic.ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in error['loc']) or '<arguments>'}: {error['msg']}"
                for error in exc.errors()[:5]
            )
            raise ToolError(f"invalid arguments for {self.name}: {problems}") from None
        return {name: getattr(validated, name) for name in type(validated).model_fields}


def function_tool(
    function: Callable[..., Any], *, name: str | None = None, description: str | None = None
) -> FunctionTool:
    """A :class:`FunctionTool` from a function with annotated keyword-able parameters."""
    import pydantic

    tool_name = name or function.__name__
    signature = inspect.signature(function)
    hints = typing.get_type_hints(function)
    fields: dict[str, Any] = {}
    for parameter in signature.parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            raise TypeError(f"tool {tool_name!r}: *args / **kwargs cannot be described to a model")
        if parameter.kind is parameter.POSITIONAL_ONLY:
            raise TypeError(f"tool {tool_name!r}: positional-only parameters are not supported")
        annotation = hints.get(parameter.name, Any)
        default = ... if parameter.default is parameter.empty else parameter.default
        fields[parameter.name] = (annotation, default)
    model = pydantic.create_model(f"{tool_name}_arguments", **fields)
    schema = model.model_json_schema()
    schema.pop("title", None)
    doc = inspect.getdoc(function) or ""
    text = description if description is not None else doc.split("\n\n", 1)[0].strip()
    return FunctionTool(tool_name, " ".join(text.split()), schema, function, model)


_NAME = re.compile(r"[^A-Za-z0-9_-]+")
MAX_TOOL_NAME = 64
"""Longest tool name every provider (and MCP client) accepts: ``^[A-Za-z0-9_-]{1,64}$``."""


def tool_name(prefix: str, name: str) -> str:
    """``prefix`` + ``name`` as a tool name every provider accepts: other characters become
    ``_``; a name past 64 characters keeps its start and a hash of the whole."""
    text = _NAME.sub("_", f"{prefix}{name}").strip("_") or "tool"
    if len(text) > MAX_TOOL_NAME:
        digest = hashlib.sha256(text.encode()).hexdigest()[:8]
        text = f"{text[: MAX_TOOL_NAME - 9]}_{digest}"
    return text


def check_arguments(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> str | None:
    """What is wrong with ``arguments`` for the JSON Schema ``schema`` (None: nothing)."""
    import jsonschema.validators

    validator = jsonschema.validators.validator_for(schema)(schema)
    problems = sorted(
        validator.iter_errors(dict(arguments)), key=lambda e: [str(p) for p in e.path]
    )
    if not problems:
        return None
    listed = "; ".join(
        f"{'/'.join(str(p) for p in e.path) or 'arguments'}: {e.message}" for e in problems[:5]
    )
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    return f"invalid arguments: {listed}{more}"


@dataclass(frozen=True)
class SchemaTool(FunctionTool):
    """A tool described by a JSON Schema: the arguments are checked against it (ToolError
    when they do not fit) and given to the function as keywords, as the model sent them."""

    def bind(self, input: Mapping[str, Any]) -> dict[str, Any]:
        problem = check_arguments(self.parameters, input)
        if problem is not None:
            raise ToolError(f"{self.name}: {problem}")
        return dict(input)


def schema_tool(
    name: str, description: str, parameters: Mapping[str, Any], function: Callable[..., Any]
) -> FunctionTool:
    """A tool from a JSON Schema of its arguments and a function (sync or ``async def``)
    taking them as keywords."""
    import pydantic

    return SchemaTool(name, description, dict(parameters), function, pydantic.BaseModel)


def as_tools(tools: Sequence[FunctionTool | Callable[..., Any]]) -> dict[str, FunctionTool]:
    """The tools by name (plain functions wrapped); two tools of one name: ValueError."""
    found: dict[str, FunctionTool] = {}
    for item in tools:
        tool = item if isinstance(item, FunctionTool) else function_tool(item)
        if tool.name in found:
            raise ValueError(f"two tools are named {tool.name!r}")
        found[tool.name] = tool
    if not found:
        raise ValueError("run_tools() needs at least one tool")
    return found


def prepare(
    tools: Mapping[str, FunctionTool], call: ToolCall
) -> tuple[FunctionTool, dict[str, Any]]:
    """The tool and bound arguments of a call (ToolError when there is no such tool, or the
    arguments are not valid JSON or do not validate)."""
    tool = tools.get(call.name)
    if tool is None:
        raise ToolError(f"there is no tool {call.name!r} (tools: {', '.join(sorted(tools))})")
    if call.arguments.strip():
        try:
            loads(call.arguments)
        except ValueError:
            raise ToolError(f"the arguments for {call.name} are not valid JSON") from None
    return tool, tool.bind(call.input)


def encode_output(tool: FunctionTool, value: Any) -> str:
    """A tool's return value as the text of its result: strings as they are, pydantic models
    and anything else JSON-encodable as JSON."""
    if isinstance(value, str):
        return value
    pydantic = sys.modules.get("pydantic")  # a model instance means pydantic is imported
    if pydantic is not None and isinstance(value, pydantic.BaseModel):
        return str(value.model_dump_json())
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"tool {tool.name!r} returned {type(value).__name__}, which is not JSON: return a "
            "string, a pydantic model or JSON data"
        ) from exc
