"""Run an AAP server from the command line (hand-written; needs ``uvicorn``, ``provider`` extra).

An LLM agent on any bundled provider (its key from the provider's usual environment
variable, e.g. ``OPENAI_API_KEY``)::

    AAP_API_KEYS=alice:sk-alice python -m agentproto.aap.serve \\
        --provider openai --model gpt-4o-mini --store sqlite:///aap.db --port 8000

any ACP agent (claude-agent-acp, codex-acp, one of yours: one process per AAP session, see
:mod:`agentproto.aap.acp_agent`)::

    python -m agentproto.aap.serve --acp-agent "claude-agent-acp" --name coder \\
        --permissions client --mcp-server "files=python -m my_mcp_server"

or your own agents (``module:attribute`` naming an :class:`~agentproto.aap.agent.Agent`, a
list of them, or a function returning either)::

    python -m agentproto.aap.serve --agent mypackage.agents:support --workers 4 \\
        --store postgresql://aap@db.internal/aap

With ``--workers`` > 1, uvicorn starts that many processes; each builds the same server
from the same options (passed to them in the environment, never on a command line) and
they share the store, so a session created through one is continued through any other.
API keys come from an environment variable (``--api-keys-env``, ``AAP_API_KEYS`` by
default: ``principal:key`` pairs separated by commas); ``--no-auth`` serves without (on a
loopback address only, unless ``--public-without-auth`` says so too).

It serves through :func:`agentproto._runtime.serve.serve`: head and body deadlines, the
connection caps (``--limits '{"header_deadline": 5, "max_connections_per_client": 64}'``:
:class:`~agentproto.Limits` fields), and the guard's Host and Origin checks (``--allow-host
agents.example.com``, ``--allow-origin https://app.example.com``; by default loopback names
on a loopback address, no browser origin).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shlex
import sys
from collections.abc import Sequence
from typing import Any, cast

from starlette.applications import Starlette

from agentproto._runtime.guard import allowed_names, plain_error
from agentproto._runtime.limits import Limits
from agentproto._runtime.serve import UnsafeBindError, serve
from agentproto.aap.agent import Agent
from agentproto.aap.server import AAPServer, ApiKeys, ServerSettings

__all__ = ["build_server", "create_app", "main"]

ACP_TOKEN_VARIABLE = "AGENTPROTO_ACP_TOKEN"
"""The bearer token of a remote ACP agent (``--acp-url``), kept off the command line."""
CONFIG_VARIABLE = "AGENTPROTO_AAP_SERVE"
"""Where ``main`` leaves the options for worker processes (no secrets: keys stay in their
own variables)."""


def _acp_agent(config: dict[str, Any]) -> Agent:
    """``--acp-agent`` / ``--acp-url``: an ACP agent served per AAP session."""
    try:
        from agentproto.aap.acp_agent import ACPAgent, PermissionPolicy, stdio_mcp_server
    except ImportError as exc:  # a build of agentproto without ACP ships no acp_agent
        raise SystemExit("--acp-agent needs agentproto built with ACP (agentproto.acp)") from exc

    specs = cast("list[str]", config.get("mcp_servers") or [])
    try:
        servers = [stdio_mcp_server(str(spec)) for spec in specs]
    except ValueError as exc:
        raise SystemExit(f"--mcp-server {exc}") from None
    command = config.get("acp_agent")
    given = str(config.get("permissions") or "client")
    policies: dict[str, PermissionPolicy] = {
        "client": "client",
        "allow": "allow",
        "reject": "reject",
    }
    permissions = policies.get(given)
    if permissions is None:
        raise SystemExit(f"--permissions {given!r}: client, allow or reject")
    return ACPAgent(
        str(config.get("name") or "assistant"),
        shlex.split(str(command)) if command else None,
        url=config.get("acp_url") or None,
        token=os.environ.get(ACP_TOKEN_VARIABLE) or None,
        cwd=config.get("acp_cwd") or None,
        mcp_servers=servers,
        permissions=permissions,
        max_processes=int(config.get("max_processes") or 16),
        idle_timeout=float(config.get("idle_timeout") or 600.0),
        description=f"The ACP agent {command or config.get('acp_url')}",
    )


def _agents(config: dict[str, Any]) -> list[Agent]:
    if config.get("acp_agent") or config.get("acp_url"):
        return [_acp_agent(config)]
    spec = config.get("agent")
    if spec:
        module_name, _, attribute = str(spec).partition(":")
        if not attribute:
            raise SystemExit(f"--agent {spec!r}: write module:attribute")
        found: Any = getattr(importlib.import_module(module_name), attribute)
        if callable(found) and not isinstance(found, Agent):
            found = found()
        agents = [found] if isinstance(found, Agent) else list(cast("Sequence[Any]", found))
        if not agents or not all(isinstance(a, Agent) for a in agents):
            raise SystemExit(f"--agent {spec!r} is not an Agent or a list of them")
        return cast("list[Agent]", agents)
    from agentproto.aap.llm_agent import LLMAgent
    from agentproto.llm import AsyncLLMClient

    provider = config.get("provider")
    if not provider:
        raise SystemExit("give --provider (with --model) or --agent")
    llm = AsyncLLMClient(str(provider), base_url=config.get("base_url") or None)
    return [
        LLMAgent(
            str(config.get("name") or "assistant"),
            llm,
            model=config.get("model") or None,
            system=config.get("system") or None,
            description=f"An assistant on {provider}",
        )
    ]


def build_server(config: dict[str, Any]) -> AAPServer:
    """The server ``main`` (or each worker) runs, from its options."""
    auth: ApiKeys | None = None
    if not config.get("no_auth"):
        auth = ApiKeys.from_env(str(config.get("api_keys_env") or "AAP_API_KEYS"))
    given = cast("dict[str, Any]", config.get("settings") or {})
    if config.get("acp_agent") or config.get("acp_url"):
        given = {"max_steps": 256, **given}  # an ACP agent's tool calls are steps
    settings = ServerSettings(**given)
    hosts = config.get("allowed_hosts")
    return AAPServer(
        _agents(config),
        store=str(config.get("store") or "sqlite:///aap.db"),
        auth=auth,
        settings=settings,
        allowed_hosts=None if not hosts else [str(h) for h in hosts],
        allowed_origins=[str(o) for o in cast("list[object]", config.get("allowed_origins") or [])],
        limits=_limits(config),
    )


def _limits(config: dict[str, Any]) -> Limits:
    return Limits(**cast("dict[str, Any]", config.get("limits") or {}))


def create_app() -> Starlette:
    """The app of one worker process (uvicorn's factory), from ``$AGENTPROTO_AAP_SERVE``."""
    config = json.loads(os.environ.get(CONFIG_VARIABLE, "{}"))
    return build_server(config).app


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agentproto.aap.serve", description="Serve agents over AAP."
    )
    source = parser.add_argument_group("the agent")
    source.add_argument("--provider", help="an agentproto.llm provider id or manifest path")
    source.add_argument("--model", help="the model id")
    source.add_argument("--base-url", help="the provider's base URL (a proxy, a local server)")
    source.add_argument("--name", default="assistant", help="the agent's name (assistant)")
    source.add_argument("--system", help="a system prompt")
    source.add_argument("--agent", help="module:attribute of your own Agent(s) instead")
    source.add_argument(
        "--acp-agent", metavar="CMD", help="an ACP agent's command line: one process per session"
    )
    source.add_argument(
        "--acp-url",
        help=f"a remote ACP agent (http(s):// or ws(s)://; token: ${ACP_TOKEN_VARIABLE})",
    )
    source.add_argument(
        "--permissions",
        choices=("client", "allow", "reject"),
        default="client",
        help="the ACP agent's permission requests: asked of the AAP client (its acp_permission "
        "tool), or always allowed / rejected",
    )
    source.add_argument("--acp-cwd", help="the ACP sessions' working directory")
    source.add_argument(
        "--mcp-server",
        action="append",
        default=[],
        metavar="NAME=CMD",
        help="an MCP server (stdio) given to the ACP agent in session/new",
    )
    source.add_argument("--max-processes", type=int, default=16, help="ACP agent processes")
    source.add_argument(
        "--idle-timeout", type=float, default=600.0, help="seconds before an idle process ends"
    )
    parser.add_argument(
        "--store", default="sqlite:///aap.db", help="sqlite:///... or postgresql://..."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--api-keys-env", default="AAP_API_KEYS", help="variable holding the keys")
    parser.add_argument("--no-auth", action="store_true", help="serve without API keys")
    parser.add_argument(
        "--public-without-auth",
        action="store_true",
        help="with --no-auth, serve a non-loopback address anyway (anyone reaching it can use it)",
    )
    parser.add_argument(
        "--allow-host", action="append", default=[], help="a Host name clients use (repeat)"
    )
    parser.add_argument(
        "--allow-origin", action="append", default=[], help="a browser origin to accept"
    )
    parser.add_argument(
        "--limits", default="{}", help="Limits fields as JSON, e.g. '{\"header_deadline\": 5}'"
    )
    parser.add_argument(
        "--settings", default="{}", help="ServerSettings as JSON, e.g. '{\"turn_timeout\": 60}'"
    )
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    config = {
        "provider": args.provider,
        "model": args.model,
        "base_url": args.base_url,
        "name": args.name,
        "system": args.system,
        "agent": args.agent,
        "acp_agent": args.acp_agent,
        "acp_url": args.acp_url,
        "permissions": args.permissions,
        "acp_cwd": args.acp_cwd,
        "mcp_servers": list(args.mcp_server),
        "max_processes": args.max_processes,
        "idle_timeout": args.idle_timeout,
        "store": args.store,
        "api_keys_env": args.api_keys_env,
        "no_auth": bool(args.no_auth),
        "settings": json.loads(str(args.settings)),
        "allowed_hosts": list(allowed_names(args.allow_host)),
        "allowed_origins": list(args.allow_origin),
        "limits": json.loads(str(args.limits)),
    }
    if (args.acp_agent or args.acp_url) and int(args.workers) != 1:
        print(
            "cannot start: an ACP agent's processes live in one worker (--workers 1)",
            file=sys.stderr,
        )
        return 2
    os.environ[CONFIG_VARIABLE] = json.dumps(config)
    try:
        create_app()  # every problem shows here, once, before any worker starts
        limits = _limits(config)
    except Exception as exc:
        print(f"cannot start: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    try:
        serve(
            "agentproto.aap.serve:create_app",
            factory=True,
            host=str(args.host),
            port=int(args.port),
            workers=int(args.workers),
            authenticated=not args.no_auth,
            ready=lambda url: print(f"serving AAP on {url}", flush=True),
            public_without_auth=bool(args.public_without_auth),
            limits=limits,
            error_body=plain_error,
            log_level=str(args.log_level),
        )
    except UnsafeBindError as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
