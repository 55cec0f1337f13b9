"""A launcher shim (like an npm package's node script): starts the real agent, which inherits
stdin/stdout, and waits for it. The real agent (stubborn_agent.py) serves ACP and ignores the
end of its stdin. Its pid goes to argv[1]; further arguments are the real agent's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

child = subprocess.Popen(
    [sys.executable, str(Path(__file__).with_name("stubborn_agent.py")), *sys.argv[2:]]
)
Path(sys.argv[1]).write_text(str(child.pid))
sys.exit(child.wait())
