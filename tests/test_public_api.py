"""The public API's hygiene (issue 24): one root exception, every error and option type a user
meets importable from a public module, one RetryPolicy, a clear error for a missing extra, an
SDK User-Agent."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import importlib
import inspect
import pkgutil
import subprocess
import sys
import typing
from collections.abc import Iterator, MutableMapping
from types import ModuleType
from typing import Any

import agentproto
import httpx
import pytest
from agentproto._runtime import http as runtime_http
from agentproto._runtime import telemetry as runtime_telemetry
from agentproto.errors import AgentprotoError

from tests.conftest import GENERATED
from tests.servers.loopback import serve


def modules() -> Iterator[ModuleType]:
    """Every module of the package, private ones too."""
    yield agentproto
    for info in pkgutil.walk_packages(agentproto.__path__, "agentproto."):
        yield importlib.import_module(info.name)


def is_public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def public_exports() -> dict[type, set[str]]:
    """Class -> the public modules that export it (``__all__``, or its own public module)."""
    found: dict[type, set[str]] = {}
    for module in modules():
        if not is_public(module.__name__):
            continue
        names = getattr(module, "__all__", None)
        if names is None:  # no __all__: what it defines itself is what it offers
            names = [
                n
                for n, v in vars(module).items()
                if getattr(v, "__module__", "") == module.__name__
            ]
        for name in names:
            value = getattr(module, name)
            if inspect.isclass(value):
                found.setdefault(value, set()).add(module.__name__)
    return found


def exception_classes() -> set[type[BaseException]]:
    return {
        value
        for module in modules()
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, BaseException)
        and value.__module__.startswith("agentproto")
    }


def test_every_exception_is_an_agentproto_error_with_a_public_home() -> None:
    exported = public_exports()
    classes = exception_classes()
    assert len(classes) > 60
    outside = sorted(c.__qualname__ for c in classes if not issubclass(c, AgentprotoError))
    assert outside == []
    # A class named with a leading underscore is internal control flow that never leaves the
    # module that raises it: under the root like the rest, but with no public home to give.
    homeless = sorted(
        f"{c.__module__}.{c.__qualname__}"
        for c in classes
        if c not in exported and not c.__qualname__.startswith("_")
    )
    assert homeless == []
    assert agentproto.AgentprotoError is AgentprotoError
    assert "AgentprotoError" in agentproto.__all__


# Each family keeps the builtin base it had, so `except ValueError` and the like still work.
BUILTIN_BASES = [
    ("agentproto.errors", "NotFoundError", LookupError),
    ("agentproto.errors", "ConnectionClosed", ConnectionError),
    ("agentproto.errors", "FlowInputError", TypeError),
    ("agentproto.errors", "MissingExtraError", ImportError),
    ("agentproto.llm", "ManifestError", ValueError),
    ("agentproto.llm", "UnsupportedError", ValueError),
    ("agentproto.llm", "MissingAPIKeyError", ValueError),
    ("agentproto.llm", "StructuredOutputError", ValueError),
    ("agentproto.llm", "ToolLoopError", RuntimeError),
    ("agentproto.llm.paths", "ExpressionError", ValueError),
    ("agentproto.llm.payloads", "PayloadError", ValueError),
    ("agentproto.llm.versions", "VersionError", ValueError),
    ("agentproto.aap", "CapabilityError", ValueError),
    ("agentproto.aap", "IncompleteTurnError", RuntimeError),
    ("agentproto.acp.connection", "UnstableMethodError", RuntimeError),
    ("agentproto.errors", "SerialisationError", ValueError),
    ("agentproto.mcp", "MCPConfigError", ValueError),
]


@pytest.mark.parametrize(("module", "name", "base"), BUILTIN_BASES)
def test_families_keep_their_builtin_bases(module: str, name: str, base: type) -> None:
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, AgentprotoError) and issubclass(cls, base)


def test_what_users_meet_is_importable_from_public_modules() -> None:
    from agentproto import aap, errors, flows, llm, skills
    from agentproto._runtime import http_errors, redact, streaming

    for name in ("NotFoundError", "RateLimitError", "APITimeoutError", "APIError", "RpcError"):
        assert getattr(errors, name) is getattr(
            http_errors
            if hasattr(http_errors, name)
            else importlib.import_module("agentproto._runtime.jsonrpc"),
            name,
        )
    assert aap.Secret is llm.Secret is skills.Secret is redact.Secret
    assert aap.UnknownEvent is streaming.UnknownEvent
    assert aap.RetryPolicy is llm.RetryPolicy is flows.RetryPolicy is runtime_http.RetryPolicy
    for module in (agentproto, errors, aap, llm, skills, flows):
        missing = [n for n in module.__all__ if getattr(module, n, None) is None]
        assert missing == [], module.__name__
        assert sorted(module.__all__) == sorted(set(module.__all__))


# Classes of the package that a public signature names, or that a public class derives from,
# yet no user names in their own code: each with why it needs no public home.
NO_PUBLIC_HOME = {
    "agentproto._runtime.jsonrpc.Connection": "AgentConnection and ClientConnection are made "
    "by spawn_agent, connect_agent and serve_agent, which take processes or streams",
    "agentproto._runtime.jsonrpc.Subprocess": "the same constructors' process handle",
    "agentproto._runtime.sync_loop.LoopThread": "SyncAgentConnection is made by its spawn()",
    "agentproto._runtime.http.AsyncHTTP": "LLM streams are made by the clients' stream()",
    "agentproto._runtime.http.SyncHTTP": "the same, blocking",
    "agentproto._runtime.http.Call": "the same streams' request, built by the client",
    "agentproto._runtime.sse.ServerSentEvent": "what an EventStream's parser reads: the AAP "
    "clients make the streams (create_turn_stream) and their parsers",
    "agentproto._runtime.conformance.Checks": "the conformance kits' shared bookkeeping base",
    "agentproto._runtime.sql.PostgresPoolStore": "the PostgreSQL stores' shared base",
    "agentproto._runtime.sql.Pool": "the stores' asyncpg pool, typed as loosely as asyncpg is",
}


def _annotation_namespace(module: ModuleType) -> dict[str, Any]:
    """A module's globals plus the names it imports only for the type checkers (its ``if
    TYPE_CHECKING:`` block, run here): what its annotations name."""
    namespace = dict(vars(module))
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            block = ast.Module(body=node.body, type_ignores=[])
            exec(compile(block, str(module.__file__), "exec"), namespace)
    return namespace


def _named_classes(annotation: object, namespace: dict[str, Any]) -> Iterator[type]:
    """The package's classes an annotation names (a string under ``from __future__ import
    annotations``: its names are looked up, nothing is evaluated)."""
    if not isinstance(annotation, str):
        yield from agentproto_classes(annotation)
        return
    for node in ast.walk(ast.parse(annotation, mode="eval")):
        value: Any = None
        if isinstance(node, ast.Name):
            value = namespace.get(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            value = getattr(namespace.get(node.value.id), node.attr, None)
        if inspect.isclass(value) and value.__module__.startswith("agentproto"):
            yield value


def _public_callables() -> Iterator[tuple[str, Any]]:
    """(where, function) for each public function and each public method (and ``__init__``)
    of each public class the package defines, however it is exported."""
    exported = public_exports()
    for cls in exported:
        if cls.__name__.startswith("_"):
            continue
        for name, member in inspect.getmembers(cls):
            function = getattr(member, "fget", member)
            if (name.startswith("_") and name != "__init__") or not inspect.isfunction(function):
                continue
            if function.__module__.startswith("agentproto"):
                yield f"{cls.__qualname__}.{name}", function
    for module in modules():
        if is_public(module.__name__):
            for name in getattr(module, "__all__", []):
                value = getattr(module, name)
                if inspect.isfunction(value) and value.__module__.startswith("agentproto"):
                    yield f"{module.__name__}.{name}", value


def test_what_public_signatures_and_bases_name_has_a_public_home() -> None:
    """A class a user meets in a public signature (a parameter, a return value) or as the base
    of a public class can be imported from a public module, so it can be named in the user's
    own annotations; the few a user never names are listed above, each with its reason."""
    exported = public_exports()
    namespaces: dict[str, dict[str, Any]] = {}
    homeless: dict[str, set[str]] = {}

    def check(cls: type, where: str) -> None:
        if cls not in exported and not cls.__name__.startswith("_"):
            homeless.setdefault(f"{cls.__module__}.{cls.__qualname__}", set()).add(where)

    for cls in exported:
        for base in cls.__mro__[1:]:
            if base.__module__.startswith("agentproto") and not cls.__name__.startswith("_"):
                check(base, f"the base of {cls.__qualname__}")
    checked = 0
    for where, function in _public_callables():
        module = function.__module__
        if module not in namespaces:
            namespaces[module] = _annotation_namespace(importlib.import_module(module))
        for annotation in function.__annotations__.values():
            for cls in _named_classes(annotation, namespaces[module]):
                check(cls, where)
        checked += 1
    assert checked > 2000
    unexplained = {name: sorted(places)[:3] for name, places in homeless.items()}
    for name in NO_PUBLIC_HOME:
        assert name in unexplained, f"{name} has a public home now: drop it from NO_PUBLIC_HOME"
        del unexplained[name]
    assert unexplained == {}
    assert agentproto.Model.__module__ == "agentproto._runtime.base"


def agentproto_classes(annotation: Any) -> Iterator[type]:
    """The package's classes named by a type annotation (through unions and generics)."""
    for arg in typing.get_args(annotation):
        yield from agentproto_classes(arg)
    if inspect.isclass(annotation) and annotation.__module__.startswith("agentproto"):
        yield annotation


@pytest.mark.parametrize(
    "name", ["LLMClient", "AsyncLLMClient", "FallbackChain", "AsyncFallbackChain"]
)
def test_the_llm_clients_option_types_have_a_public_home(name: str) -> None:
    """Each keyword option of the LLM clients and chains (``telemetry=``, ``budget=``,
    ``retry=``...) is typed with classes a user can import from a public module."""
    from agentproto import llm

    init = getattr(llm, name).__init__
    names = {n: getattr(llm, n) for n in llm.__all__}  # what TYPE_CHECKING imports name
    hints = typing.get_type_hints(init, localns=names)
    options = [
        p.name
        for p in inspect.signature(init).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    assert "telemetry" in options
    exported = public_exports()
    homeless = sorted(
        f"{option}: {cls.__module__}.{cls.__qualname__}"
        for option in options
        for cls in agentproto_classes(hints[option])
        if cls not in exported and not cls.__name__.startswith("_")
    )
    assert homeless == []
    assert llm.Telemetry is runtime_telemetry.Telemetry
    assert llm.SpanHandle is runtime_telemetry.SpanHandle


# -- one RetryPolicy -----------------------------------------------------------------------------


def test_one_retry_policy_built_from_a_manifest() -> None:
    from agentproto.llm import LLMClient, Manifest, RetryPolicy
    from agentproto.llm.classify import retry_policy
    from agentproto.llm.models import ManifestRetryPolicy  # the manifest section's model

    policy = retry_policy(Manifest.bundled("openai"))
    assert type(policy) is RetryPolicy
    assert not issubclass(ManifestRetryPolicy, RetryPolicy)
    with LLMClient("openai", api_key="k", base_url="http://127.0.0.1:9", retry=policy) as llm:
        assert llm._retry is policy  # what the client takes is that one class


def test_the_manifest_floor_is_the_same_as_before() -> None:
    """min_delay (the manifest's min_delay_ms) is a floor under the jittered wait, capped by
    max_delay, and not under a wait the server asked for."""
    from agentproto.llm import RetryPolicy

    policy = RetryPolicy(
        initial_delay=0.1, max_delay=5.0, jitter=1.0, min_delay=1.0, rng=lambda: 1.0
    )
    assert policy.delay(0) == 1.0  # the jittered wait is 0: the floor
    assert policy.delay(0, {"retry-after": "0.25"}) == 0.25  # the server's word, no floor
    assert policy.delay(0, {"retry-after": "600"}) == 0.0  # too long, ignored: no floor either
    assert dataclasses.replace(policy, min_delay=30.0).delay(0) == 5.0  # capped by max_delay
    assert RetryPolicy(jitter=1.0, rng=lambda: 1.0).delay(0) == 0.0  # default: no floor


# -- a missing extra -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("missing", "statement", "extra", "feature"),
    [
        ("starlette", "from agentproto.skills import SkillProvider", "provider", "SkillProvider"),
        ("mcp", "import agentproto.mcp", "mcp", "agentproto.mcp"),
        ("mcp", "from agentproto.mcp.server import http_app", "mcp", "agentproto.mcp"),
    ],
)
def test_a_missing_extra_names_its_install_command(
    missing: str, statement: str, extra: str, feature: str
) -> None:
    code = (
        "import sys\n"
        f"sys.modules[{missing!r}] = None  # not installed\n"
        "from agentproto.errors import AgentprotoError, MissingExtraError\n"
        "try:\n"
        f"    {statement}\n"
        "except MissingExtraError as exc:\n"
        "    assert isinstance(exc, ImportError) and isinstance(exc, AgentprotoError)\n"
        "    print(exc.extra, '|', exc)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=GENERATED, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    found, message = result.stdout.strip().split(" | ")
    assert found == extra
    assert f'pip install "agentproto[{extra}]"' in message and feature in message
    assert missing in message


# -- User-Agent ------------------------------------------------------------------------------------


class AgentRecorder:
    """An ASGI app answering ``{}`` that keeps every User-Agent header of each request."""

    def __init__(self) -> None:
        self.agents: list[list[str]] = []

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        self.agents.append([v.decode() for k, v in scope["headers"] if k.lower() == b"user-agent"])
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": b"{}"})


@pytest.fixture(scope="module")
def recorder() -> Iterator[tuple[AgentRecorder, str]]:
    app = AgentRecorder()
    with serve(app) as url:
        yield app, url


def test_every_client_sends_the_sdk_user_agent(recorder: tuple[AgentRecorder, str]) -> None:
    from agentproto.aap import AAPClient
    from agentproto.errors import APIError

    app, url = recorder
    ours = runtime_http.user_agent()
    assert ours.startswith(f"agentproto/{agentproto.__version__} python/3.")
    assert f"httpx/{httpx.__version__}" in ours
    app.agents.clear()
    with AAPClient(url) as client, pytest.raises(APIError):
        client.get_meta()  # `{}` is no meta: only the request matters
    with AAPClient(url, headers={"user-agent": "mine/1"}) as client, pytest.raises(APIError):
        client.get_meta()
    with AAPClient(url) as client, pytest.raises(APIError):
        client.get_meta(extra_headers={"USER-AGENT": "per-call/2"})
    with httpx.Client(headers={"User-Agent": "their-client/3"}) as theirs:
        with AAPClient(url, http_client=theirs) as client, pytest.raises(APIError):
            client.get_meta()
    with httpx.Client() as plain, AAPClient(url, http_client=plain) as client:
        with pytest.raises(APIError):
            client.get_meta()
    assert app.agents == [[ours], ["mine/1"], ["per-call/2"], ["their-client/3"], [ours]]


def test_the_llm_skills_and_flows_clients_send_it_too(recorder: tuple[AgentRecorder, str]) -> None:
    from agentproto.flows import ApiKeyAuth
    from agentproto.flows.giphy import GiphyFlows
    from agentproto.llm import LLMClient
    from agentproto.skills import SkillsClient

    app, url = recorder
    ours = runtime_http.user_agent()
    app.agents.clear()
    # the answer `{}` may be refused: only the requests matter here
    with LLMClient("openai", api_key="k", base_url=url, retry=False) as llm:
        with contextlib.suppress(AgentprotoError):
            llm.chat([{"role": "user", "content": "hi"}], model="m")
    with SkillsClient() as skills, contextlib.suppress(AgentprotoError):
        skills.discover(url)
    key = {"giphy": ApiKeyAuth("api_key", "k", location="query")}
    with GiphyFlows(base_urls={"giphy": url}, auth=key) as flows:
        with contextlib.suppress(AgentprotoError):
            flows.run_flow("get_trending_gifs_flow", {})
    assert len(app.agents) == 3 and all(agents == [ours] for agents in app.agents), app.agents
