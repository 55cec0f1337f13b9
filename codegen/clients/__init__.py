"""Client renderers: one module per generated subpackage that has clients.

``codegen/clients/<package>.py`` defines ``render(protocol, env) -> dict[str, str]``, returning
files (paths relative to the ``agentproto`` package folder, e.g. ``"acp/client.py"``) rendered
from its templates under ``templates/<package>/``. A protocol without such a module gets models
and its operation table only: never a placeholder client.
"""

from __future__ import annotations

import importlib
from typing import Protocol as TypingProtocol
from typing import cast

import jinja2

from codegen.ir import Protocol


class ClientRenderer(TypingProtocol):
    def render(self, protocol: Protocol, env: jinja2.Environment) -> dict[str, str]: ...


def client_files(protocol: Protocol, env: jinja2.Environment) -> dict[str, str]:
    try:
        module = importlib.import_module(f"codegen.clients.{protocol.package}")
    except ModuleNotFoundError as exc:
        if exc.name != f"codegen.clients.{protocol.package}":
            raise
        return {}
    return cast(ClientRenderer, module).render(protocol, env)
