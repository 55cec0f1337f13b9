"""``python -m agentproto.mcp``: serve agents.json flows and Skill Sharing skills as MCP tools.

    python -m agentproto.mcp --bundle giphy --auth giphy=query:api_key:env:GIPHY_API_KEY
    python -m agentproto.mcp --agents-json https://example.com/agents.json \\
        --auth example=bearer:env:EXAMPLE_TOKEN --skills https://skills.example.com \\
        --skills-auth https://skills.example.com=api_key:env:SKILLS_KEY \\
        --transport http --port 8000 --http-token env:MCP_TOKEN
    python -m agentproto.mcp --config serve.yaml

Over HTTP, the first line printed is the endpoint's URL (``--port 0`` picks a free port).
Credentials are references (``env:NAME``, ``file:PATH``); see ``agentproto.mcp.config``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from agentproto._runtime.errors import MissingExtraError
from agentproto._runtime.serve import UnsafeBindError
from agentproto.mcp.config import (
    FlowsConfig,
    MCPConfigError,
    ServeConfig,
    SkillsConfig,
    load_config,
)
from agentproto.mcp.serve import serve


def _pairs(values: list[str], flag: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key or not rest:
            raise MCPConfigError(f"{flag} takes KEY=VALUE, not {value!r}")
        found.append((key, rest))
    return found


def parse(argv: list[str]) -> ServeConfig:
    parser = argparse.ArgumentParser(prog="python -m agentproto.mcp", description=__doc__)
    parser.add_argument("--config", help="a config file (JSON or YAML); flags add to it")
    parser.add_argument("--bundle", action="append", default=[], help="a shipped bundle")
    parser.add_argument(
        "--agents-json", action="append", default=[], help="an agents.json file or URL"
    )
    parser.add_argument(
        "--openapi", action="append", default=[], help="SOURCE=FILE_OR_URL (for --agents-json)"
    )
    parser.add_argument("--auth", action="append", default=[], help="SOURCE=SPEC")
    parser.add_argument("--base-url", action="append", default=[], help="SOURCE=URL")
    parser.add_argument("--strict", action="store_true", help="refuse lenient readings")
    parser.add_argument("--skills", action="append", default=[], help="a provider to discover")
    parser.add_argument("--skills-auth", action="append", default=[], help="URL=SPEC")
    parser.add_argument("--prefix", help="a prefix for every tool name")
    parser.add_argument("--transport", choices=("stdio", "http"))
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--path")
    parser.add_argument("--http-token", help="env:NAME or file:PATH")
    parser.add_argument("--allow-host", action="append", default=[], help="a Host clients use")
    parser.add_argument("--allow-origin", action="append", default=[], help="a browser origin")
    parser.add_argument(
        "--public-without-auth",
        action="store_true",
        help="serve a non-loopback address without --http-token (anyone reaching it can use it)",
    )
    parser.add_argument("--limits", help="Limits fields as JSON, e.g. '{\"header_deadline\": 5}'")
    args = parser.parse_args(argv)
    config = load_config(args.config) if args.config else ServeConfig()
    auth: dict[str, list[str]] = {}
    for source, spec in _pairs(args.auth, "--auth"):
        auth.setdefault(source, []).append(spec)
    base_urls = dict(_pairs(args.base_url, "--base-url"))
    openapi = dict(_pairs(args.openapi, "--openapi"))
    for name in args.bundle:
        config.bundles.append(
            FlowsConfig(bundle=name, auth=auth, base_urls=base_urls, prefix=args.prefix)
        )
    for location in args.agents_json:
        config.bundles.append(
            FlowsConfig(
                agents_json=location,
                openapi=openapi,
                auth=auth,
                base_urls=base_urls,
                prefix=args.prefix,
                strict=args.strict,
            )
        )
    skills_auth: dict[str, list[str]] = {}
    for url, spec in _pairs(args.skills_auth, "--skills-auth"):
        skills_auth.setdefault(url, []).append(spec)
    for url in args.skills:
        config.skills.append(
            SkillsConfig(url=url, auth=skills_auth.get(url, []), prefix=args.prefix or "")
        )
    for name in ("transport", "host", "port", "path", "http_token"):
        if getattr(args, name) is not None:
            setattr(config, name, getattr(args, name))
    config.allowed_hosts += args.allow_host
    config.allowed_origins += args.allow_origin
    config.public_without_auth = config.public_without_auth or args.public_without_auth
    if args.limits:
        try:
            config.limits = {**config.limits, **json.loads(args.limits)}
        except ValueError:
            raise MCPConfigError("--limits takes a JSON object") from None
    if not config.bundles and not config.skills:
        raise MCPConfigError("nothing to serve: give --bundle, --agents-json or --skills")
    return config


def main(argv: list[str] | None = None) -> int:
    try:
        config = parse(sys.argv[1:] if argv is None else argv)
        serve(config, os.environ)
    except (MCPConfigError, MissingExtraError, UnsafeBindError) as exc:
        print(f"agentproto.mcp: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
