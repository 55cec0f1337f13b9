"""codegen: turns protocol schemas and spec tables into the typed ``agentproto`` SDK.

The command line lives in :mod:`codegen.cli`; the build itself in :mod:`codegen.pipeline`.
"""

__version__ = "0.1.0"
