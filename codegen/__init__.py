"""codegen: turns protocol schemas and spec tables into the typed ``agentproto`` SDK.

The command line lives in :mod:`codegen.cli`; the build itself in :mod:`codegen.pipeline`, which
runs the stages in the order of the subpackages:

1. :mod:`codegen.inputs`: read and validate schemas, spec tables and document corpora (the
   intermediate representation they give is :mod:`codegen.ir`);
2. :mod:`codegen.models`: JSON Schema to pydantic modules;
3. :mod:`codegen.clients` (and :mod:`codegen.flows`, the agents.json planner): the clients;
4. :mod:`codegen.package`: render, derive sync from async, format, stage and swap in;
5. :mod:`codegen.release`: API snapshot, semver report, history and changelog.
"""

__version__ = "0.1.0"
