"""The root of agentproto's exceptions, and the one way to import an optional extra.

Every exception the SDK raises about a peer, the network, a document, a manifest or a protocol
is an :class:`AgentprotoError`. Each family sits under it and keeps the builtin base it has
always had, so ``except ValueError`` (a manifest error), ``except LookupError`` (an HTTP 404)
or ``except ConnectionError`` (a closed JSON-RPC connection) go on working. A call made with
arguments of the wrong type or value raises the builtin ``TypeError`` / ``ValueError``, as any
Python API does. The public home of these classes is :mod:`agentproto.errors`.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager


class AgentprotoError(Exception):
    """Anything agentproto raised: ``except AgentprotoError`` catches every error of the SDK
    and nothing else. The families under it: ``APIError`` (HTTP), ``RpcError``,
    ``ProtocolError`` and ``ConnectionClosed`` (JSON-RPC), ``FlowError`` (agents.json flows),
    ``SkillSharingError``, the LLM client's errors (``ProviderError``, ``ManifestError``,
    ``UnsupportedError``...), the AAP session's, and :class:`MissingExtraError`."""


class MissingExtraError(AgentprotoError, ImportError):
    """A module needs an optional extra of the package that is not installed; the message
    names the command that installs it. ``extra`` is the extra's name, ``feature`` what
    needed it."""

    def __init__(self, feature: str, extra: str, cause: str, *, module: str | None = None) -> None:
        self.feature = feature
        self.extra = extra
        super().__init__(
            f'{feature} needs the "{extra}" extra: pip install "agentproto[{extra}]" ({cause})',
            name=module,
        )


@contextmanager
def needs_extra(extra: str, *, feature: str) -> Generator[None, None, None]:
    """Wrap the imports of an optional extra's modules: an ``ImportError`` among them becomes
    a :class:`MissingExtraError` naming ``pip install "agentproto[extra]"``. The one way the
    package imports an optional dependency::

        with needs_extra("provider", feature="SkillProvider (agentproto.skills.provider)"):
            from starlette.applications import Starlette
    """
    try:
        yield
    except ImportError as exc:
        raise MissingExtraError(feature, extra, str(exc), module=exc.name) from exc
