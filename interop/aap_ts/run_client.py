"""Interop run: the upstream TypeScript AAP client (0.8.0) drives our AAP server.

The TypeScript SDK is not in this repository (its code never enters it) and not on the npm
registry: build it from its repository first (interop/README.md), then::

    python interop/aap_ts/run_client.py /work/ext/aap-ts

starts our server (the scripted agent of tests/servers/aap_agents.py, SQLite in a temporary
folder) on loopback, runs ``drive_client.cjs`` with node against it, prints each step, and
exits with the script's status (0: every step passed).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "generated"), str(ROOT)]

from agentproto.aap import AAPServer, ApiKeys, ServerSettings  # noqa: E402

from tests.servers.aap_agents import agents  # noqa: E402
from tests.servers.loopback import serve  # noqa: E402

KEY = "sk-interop-ts-0123456789"


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sdk = Path(sys.argv[1]).resolve()
    if not (sdk / "node_modules" / "@agentapplicationprotocol" / "client").exists():
        print(f"{sdk}: no built TypeScript SDK there (see interop/README.md)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        server = AAPServer(
            agents(),
            store=f"sqlite:///{folder}/aap.db",
            auth=ApiKeys({KEY: "ts-client"}),
            settings=ServerSettings(page_size=2),  # so the client follows `next`
        )
        with serve(server.app) as url:
            script = Path(__file__).with_name("drive_client.cjs")
            done = subprocess.run(["node", str(script), str(sdk), url, KEY], timeout=300)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
