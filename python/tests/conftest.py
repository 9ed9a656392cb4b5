"""Shared fixtures: the repository's CLI (build/hdgcl, or $HDGCL_CLI) to compare with, and
the tests' kernel cache (build/test-cache, as ctest's HDGCL_TEST_CACHE) so that pytest
compiles no kernel ctest compiled already."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("XDG_CACHE_HOME", str(ROOT / "build" / "test-cache"))


@pytest.fixture(scope="session")
def cli() -> Path:
    path = Path(os.environ.get("HDGCL_CLI", ROOT / "build" / "hdgcl"))
    if not path.is_file():
        pytest.fail(f"{path}: no hdgcl executable (build the repository first, or set "
                    "HDGCL_CLI)")
    return path


@pytest.fixture(scope="session")
def run_cli(cli, tmp_path_factory):
    """run_cli("--mesh", "square:4", ...) -> the dict of hdgcl solve --json."""
    def run(*args: str) -> dict:
        out = tmp_path_factory.mktemp("cli") / "out.json"
        subprocess.run([str(cli), "solve", "--quiet", "--json", str(out), *args], check=True)
        return json.loads(out.read_text())
    return run


@pytest.fixture(scope="session")
def examples() -> Path:
    return ROOT / "examples"
