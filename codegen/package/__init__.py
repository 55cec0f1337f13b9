"""Stage 4, package: render agentproto's files, derive sync from async, format, stage, swap in."""
