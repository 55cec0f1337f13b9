"""Runs an agent command and records every line between it and the editor, as they went.

    python tee.py RECORD.jsonl -- <agent command> [args...]

Bytes pass through unchanged both ways; RECORD.jsonl gets one JSON object per line that
crossed: ``{"from": "editor" | "agent", "line": <the line, as text>}``. The agent's exit
status becomes the tee's.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from typing import IO


def main() -> int:
    record_path, separator, *command = sys.argv[1:]
    if separator != "--" or not command:
        print(__doc__, file=sys.stderr)
        return 2
    lock = threading.Lock()
    with open(record_path, "w", encoding="utf-8") as record:

        def log(side: str, line: bytes) -> None:
            with lock:
                text = line.decode("utf-8", errors="surrogateescape").rstrip("\n")
                record.write(json.dumps({"from": side, "line": text}) + "\n")
                record.flush()

        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert child.stdin is not None and child.stdout is not None

        def pump(source: IO[bytes], sink: IO[bytes], side: str) -> None:
            for line in iter(source.readline, b""):
                log(side, line)
                try:
                    sink.write(line)
                    sink.flush()
                except (BrokenPipeError, ValueError):
                    break
            try:
                sink.close()
            except OSError:
                pass

        to_agent = threading.Thread(
            target=pump, args=(sys.stdin.buffer, child.stdin, "editor"), daemon=True
        )
        to_agent.start()
        pump(child.stdout, sys.stdout.buffer, "agent")
        return child.wait()


if __name__ == "__main__":
    sys.exit(main())
