"""generated/ as users get it: typed, lint-clean, lazy, and a wheel that installs and imports."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
import yaml

from tests.conftest import GENERATED, PROTOCOL_FOLDERS, ROOT

# Each protocol's package, read from its spec table (a new protocol is checked too).
PROTOCOLS = tuple(
    sorted(
        str(yaml.safe_load((ROOT / "schemas" / name / "spec.yaml").read_text())["package"])
        for name in PROTOCOL_FOLDERS
    )
)


def run(*args: str, cwd: Path = GENERATED) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)


def test_layout() -> None:
    for name in (
        "pyproject.toml",
        "README.md",
        "CHANGELOG.md",
        "LICENSE",
        "agentproto/py.typed",
        "agentproto/__init__.py",
        "agentproto/errors.py",
    ):
        assert (GENERATED / name).is_file(), name
    for protocol in PROTOCOLS:
        assert (GENERATED / "agentproto" / protocol / "models.py").is_file()
        assert (GENERATED / "agentproto" / protocol / "operations.py").is_file()


def test_ruff_check_is_clean() -> None:
    result = run(sys.executable, "-m", "ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_stable() -> None:
    result = run(sys.executable, "-m", "ruff", "format", "--no-cache", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    result = run(
        sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path), "agentproto"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_import_agentproto_is_lazy() -> None:
    code = (
        "import sys, json, agentproto\n"
        "before = sorted(m for m in sys.modules if m.startswith('agentproto'))\n"
        "agentproto.acp\n"
        "middle = sorted(m for m in sys.modules if m.startswith('agentproto'))\n"
        "from agentproto.acp import PromptRequest\n"
        "after = sorted(m for m in sys.modules if m.startswith('agentproto'))\n"
        "print(json.dumps([before, middle, after]))\n"
    )
    result = run(sys.executable, "-c", code)
    assert result.returncode == 0, result.stderr
    before, middle, after = json.loads(result.stdout)
    assert before == ["agentproto"]
    assert "agentproto.acp" in middle and "agentproto.acp.models" not in middle
    assert "agentproto.acp.models" in after
    assert not any(m.startswith("agentproto.aap") for m in after)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_public_name_resolves(protocol: str) -> None:
    code = (
        f"import agentproto.{protocol} as p\n"
        "missing = [n for n in p.__all__ if getattr(p, n, None) is None]\n"
        "assert not missing, missing\n"
        "print(len(p.__all__))\n"
    )
    result = run(sys.executable, "-c", code)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 0


@pytest.mark.slow
def test_wheel_builds_installs_and_imports_in_a_fresh_venv(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    build = run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--wheel-dir",
        str(dist),
        str(copy_of_generated(tmp_path)),
    )
    assert build.returncode == 0, build.stdout + build.stderr
    wheels = list(dist.glob("agentproto-*.whl"))
    assert len(wheels) == 1
    check_wheel_metadata(wheels[0])
    # The build must not leave artefacts behind in generated/ (it is the golden tree).
    assert not (GENERATED / "build").exists()
    assert not list(GENERATED.glob("*.egg-info"))

    env_dir = tmp_path / "venv"
    # The dependencies come from the environment running the tests (a .pth file naming its
    # site-packages, which works whether that is a virtualenv or the system Python) without a
    # network install; the wheel itself is installed into the new venv, so the import below
    # cannot see generated/.
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    site = run(str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    # (a venv made with --system-site-packages reads those too: name every site folder)
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    ours |= {p for p in sys.path if p.endswith(("site-packages", "dist-packages"))}
    (Path(site.stdout.strip()) / "_test_deps.pth").write_text("\n".join(sorted(ours)) + "\n")
    install = run(str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheels[0]))
    assert install.returncode == 0, install.stdout + install.stderr
    code = (
        "import agentproto, agentproto.acp.models as m, pathlib\n"
        "assert 'site-packages' in agentproto.__file__, agentproto.__file__\n"
        "assert (pathlib.Path(agentproto.__file__).parent / 'py.typed').exists()\n"
        "r = m.PromptRequest.model_validate("
        "{'sessionId': 's', 'prompt': [{'type': 'text', 'text': 'hi'}]})\n"
        "from agentproto.aap import AAPClient\n"
        "with AAPClient('http://127.0.0.1:9/v1') as c: assert str(c.base_url).endswith('/v1/')\n"
        "import importlib.metadata as md\n"
        "needs = sorted({r.split('<')[0].split('>')[0] for r in md.requires('agentproto') or []})\n"
        "assert needs == ['PyYAML', 'anyio', 'asyncpg', 'fastjsonschema', 'httpcore', 'httpx',"
        " 'jsonschema', 'mcp', 'opentelemetry-api', 'pydantic', 'starlette', 'uvicorn',"
        " 'websockets'], needs\n"
        "print(r.session_id, agentproto.__version__)\n"
    )
    result = run(str(python), "-c", code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("s ")


def check_wheel_metadata(wheel: Path) -> None:
    """The licence text, the project URLs and the changelog travel with the wheel."""
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        licence = [n for n in names if ".dist-info/" in n and n.rsplit("/", 1)[-1] == "LICENSE"]
        assert len(licence) == 1, names
        text = archive.read(licence[0]).decode()
        assert (GENERATED / "LICENSE").read_text() == text
        assert "Apache License" in text and "Version 2.0, January 2004" in text
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    meta = metadata.decode()
    assert "License: Apache-2.0" in meta and "License-File: LICENSE" in meta
    for label in ("Repository", "Changelog", "Issues"):
        assert f"\nProject-URL: {label}, https://" in meta
    changelog = (GENERATED / "CHANGELOG.md").read_text()
    assert "# Changelog of agentproto" in meta
    newest = changelog.split("\n## ", 2)[1].split("\n", 1)[0]  # the newest entry's heading
    assert f"\n## {newest}\n" in meta


def test_the_sdist_holds_the_licence_and_the_changelog(tmp_path: Path) -> None:
    import tarfile

    built = run(
        sys.executable,
        "-m",
        "build",
        "--sdist",
        "--no-isolation",
        "--outdir",
        str(tmp_path / "dist"),
        str(copy_of_generated(tmp_path)),
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (sdist,) = (tmp_path / "dist").glob("agentproto-*.tar.gz")
    with tarfile.open(sdist) as archive:
        top = {name.split("/", 1)[1] for name in archive.getnames() if name.count("/") == 1}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml"} <= top


def copy_of_generated(tmp_path: Path) -> Path:
    """setuptools writes build/ and *.egg-info beside the sources: build from a copy."""
    source = tmp_path / "src"
    shutil.copytree(GENERATED, source, ignore=shutil.ignore_patterns("__pycache__"))
    return source


@pytest.mark.parametrize("readme", ["README.md", "generated/README.md"])
def test_readme_examples_parse_and_import_what_exists(readme: str) -> None:
    """Every Python block of the READMEs is valid Python, and every name it imports from
    agentproto exists (a renamed class or module breaks this test, not a user's first try)."""
    import ast
    import importlib
    import re

    text = (GENERATED.parent / readme).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    imported = 0
    for block in blocks:
        for node in ast.walk(ast.parse(block)):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith(
                "agentproto"
            ):
                continue
            assert node.module is not None
            module = importlib.import_module(node.module)
            for alias in node.names:
                if not hasattr(
                    module, alias.name
                ):  # a submodule: from agentproto.flows import giphy
                    importlib.import_module(f"{node.module}.{alias.name}")
                imported += 1
    assert imported >= 5
