"""``python -m agentproto.skills.serve``: serve a Skill Sharing provider (hand-written; the
``provider`` extra).

::

    python -m agentproto.skills.serve mypackage.skills:provider --host 127.0.0.1 --port 8000

``module:attribute`` names a :class:`~agentproto.skills.provider.SkillProvider` (or a function
returning one). It serves through :func:`agentproto._runtime.serve.serve`: the head and body
deadlines and connection caps of :class:`~agentproto.Limits` (``--limits '{"header_deadline":
5}'``), one process (``--workers N`` needs a shared execution store and an import string the
workers can load: give ``module:attribute`` as here). A provider with no credentials (no
``api_keys``, ``verify_token`` or ``verify_custom``) serves a non-loopback address only with
``--public-without-auth`` (then with a warning).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from agentproto._runtime.serve import UnsafeBindError, serve
from agentproto.skills.provider import SkillProvider, guard_error

__all__ = ["create_app", "load_provider", "main"]

TARGET_VARIABLE = "AGENTPROTO_SKILLS_SERVE"
"""Where ``main`` leaves ``module:attribute`` for worker processes."""


def load_provider(spec: str) -> SkillProvider:
    """The provider ``module:attribute`` names (called if it is a function)."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise SystemExit(f"{spec!r}: write module:attribute")
    found: Any = getattr(importlib.import_module(module_name), attribute)
    if callable(found) and not isinstance(found, SkillProvider):
        found = found()
    if not isinstance(found, SkillProvider):
        raise SystemExit(f"{spec!r} is not a SkillProvider")
    return found


def create_app() -> Any:
    """The app of one worker process (uvicorn's factory), from ``$AGENTPROTO_SKILLS_SERVE``."""
    return load_provider(os.environ[TARGET_VARIABLE]).app


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agentproto.skills.serve", description="Serve a Skill Sharing provider."
    )
    parser.add_argument("provider", help="module:attribute of a SkillProvider")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0: a free port")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--public-without-auth",
        action="store_true",
        help="a provider without credentials on a non-loopback address (anyone can use it)",
    )
    parser.add_argument(
        "--limits", default="{}", help="Limits fields as JSON, e.g. '{\"header_deadline\": 5}'"
    )
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    provider = load_provider(args.provider)
    try:
        limits = provider.limits.replace(**json.loads(args.limits))
    except (TypeError, ValueError) as exc:
        parser.error(f"--limits: {exc}")
    authenticated = provider.has_credentials()
    os.environ[TARGET_VARIABLE] = args.provider

    def ready(url: str) -> None:
        print(url, flush=True)

    try:
        serve(
            "agentproto.skills.serve:create_app" if args.workers > 1 else provider.app,
            factory=args.workers > 1,
            workers=args.workers,
            host=args.host,
            port=args.port,
            authenticated=authenticated,
            public_without_auth=args.public_without_auth,
            ready=ready,
            limits=limits,
            error_body=guard_error,
            log_level=args.log_level,
            lifespan="on",
        )
    except UnsafeBindError as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
