"""The scripted test agent, except that it keeps running after its stdin ends (with
--ignore-term it ignores SIGTERM too): only its process group's end stops it."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from our_agent import ScriptedAgent, serve_agent

if "--ignore-term" in sys.argv:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
asyncio.run(serve_agent(ScriptedAgent()))
while True:  # the editor closed our stdin: carry on regardless
    time.sleep(1)
