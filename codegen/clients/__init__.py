"""Client renderers: one module per generated subpackage that has clients.

``codegen/clients/<package>.py`` defines ``render(protocol, env, models) -> dict[str, str]``
(``models``: models module path -> text, for signatures read from the request types), returning
files (paths relative to the ``agentproto`` package folder, e.g. ``"acp/client.py"``) rendered
from its templates under ``templates/<package>/``, and ``EXPORTS`` (public name -> module of the
protocol package, or an absolute ``agentproto._runtime...`` module for a runtime type its users
meet: ``RetryPolicy``, ``Secret``) that the package's ``__init__`` re-exports lazily. A
protocol without such a module gets models and its operation table only: never a placeholder
client.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Protocol as TypingProtocol
from typing import cast

import jinja2

from codegen.ir import Protocol


class ClientRenderer(TypingProtocol):
    EXPORTS: dict[str, str]  # public name -> module (relative to the protocol package)

    def render(
        self, protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
    ) -> dict[str, str]: ...


# The renderer of each wire (the spec table's ``transport.kind``) that needs no code of its
# protocol's: a protocol of such a kind is rendered from its table alone.
_BY_KIND = {"jsonrpc-http": "codegen.clients.jsonrpc_http"}


def _renderer(protocol: Protocol) -> ClientRenderer | None:
    """The renderer of the protocol's wire, or of its package (an edition's is its
    protocol's: ``acp/v2`` is rendered by ``codegen.clients.acp``)."""
    if protocol.kind in _BY_KIND:
        return cast(ClientRenderer, importlib.import_module(_BY_KIND[protocol.kind]))
    name = f"codegen.clients.{protocol.package.split('/')[0]}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None
    return cast(ClientRenderer, module)


def client_files(
    protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
) -> dict[str, str]:
    renderer = _renderer(protocol)
    return renderer.render(protocol, env, models) if renderer is not None else {}


def client_exports(protocol: Protocol) -> dict[str, str]:
    """Names the protocol package re-exports lazily from its client modules (an edition's:
    the renderer's ``EDITION_EXPORTS``, when it has them)."""
    renderer = _renderer(protocol)
    if renderer is None:
        return {}
    by_protocol = getattr(renderer, "exports", None)
    if callable(by_protocol):
        exports = by_protocol(protocol)
    else:
        exports = getattr(
            renderer, "EXPORTS" if protocol.edition is None else "EDITION_EXPORTS", {}
        )
    return dict(sorted(exports.items()))
