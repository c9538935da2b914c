"""The code stays lint-clean and type-clean: ruff and mypy run as part of the suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> list[str]:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install '.[test]'")
    return [found]


def test_ruff_lint_and_format() -> None:
    lint = subprocess.run(
        [*_tool("ruff"), "check", "src", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = subprocess.run(
        [*_tool("ruff"), "format", "--check", "src", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_mypy_strict_on_src() -> None:
    result = subprocess.run([*_tool("mypy")], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_each_sampled_family_names_a_test_there_is() -> None:
    """A family the fast suite samples (conftest's SAMPLED_FAMILIES) names a test function
    of its file, so a renamed test is not quietly run in full (or sampled by a stale name)."""
    from conftest import SAMPLED_FAMILIES

    here = Path(__file__).parent
    for family, every in SAMPLED_FAMILIES.items():
        file, function = family.split("::")
        assert f"\ndef {function}(" in (here / file).read_text(encoding="utf-8"), family
        assert every >= 2, family
