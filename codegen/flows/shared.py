"""The shared agents.json planner, loaded from the runtime source it ships as.

``templates/runtime/flows_plan.py`` is the one planner: the build uses it to make the plans it
embeds, and the package ships it verbatim as ``agentproto._runtime.flows_plan``, which plans
bundles loaded at run time. The generator never imports the generated package: it loads that
source file directly (standard library only), once per process.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

PLANNER_FILE = Path(__file__).resolve().parents[2] / "templates" / "runtime" / "flows_plan.py"
_MODULE = "codegen.flows._planner"


@cache
def planner() -> ModuleType:
    """The planner module (``templates/runtime/flows_plan.py``)."""
    spec = importlib.util.spec_from_file_location(_MODULE, PLANNER_FILE)
    if spec is None or spec.loader is None:  # pragma: no cover - a broken checkout
        raise ImportError(f"cannot load the flows planner from {PLANNER_FILE}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[_MODULE] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module
