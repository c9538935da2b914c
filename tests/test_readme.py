"""The README's examples show the real, current output of each command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_starts_with_the_two_setup_commands() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    block = lines[lines.index("```sh") + 1 : lines.index("```sh") + 3]
    assert "pip install ." in block[0] and "kriegsspiel" in block[0]
    assert 'pip install -e ".[test]"' in block[1] and block[1].endswith("pytest")
    assert block[1] in (ROOT / ".ci" / "run").read_text()


def test_readme_examples_are_current() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "readme_examples.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "examples are current" in result.stdout  # (it says how many it ran)


def test_readme_python_examples_run_as_pasted(tmp_path: Path) -> None:
    """Each ```python block of the README, run as a script in an empty folder."""
    import re

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert blocks
    for number, block in enumerate(blocks):
        script = tmp_path / f"example_{number}.py"
        script.write_text(block)
        done = subprocess.run(
            [sys.executable, str(script)],
            capture_output=True,
            text=True,
            check=False,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr


def _script(name: str):  # type: ignore[no-untyped-def]
    """A script of scripts/ as a module (its pictures' names; nothing is run)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_picture_the_readme_shows_is_drawn_by_a_script_and_is_there() -> None:
    """The README's pictures in docs/img are each redrawn by scripts/readme_pictures.py or
    scripts/aid_screenshots.py (so none goes stale unseen), and each is there; docs/img
    holds no picture the README has stopped showing."""
    import re

    shown = re.findall(r"!\[[^\]]*\]\(docs/img/([^)]+)\)", (ROOT / "README.md").read_text())
    pictures, screenshots = _script("readme_pictures"), _script("aid_screenshots")
    drawn = [*pictures.PICTURES.values(), pictures.SOLO, *screenshots.SCREENSHOTS]
    assert sorted(shown) == sorted(drawn)
    for name in shown:
        assert (ROOT / "docs" / "img" / name).stat().st_size > 0, name
    assert sorted(p.name for p in (ROOT / "docs" / "img").iterdir()) == sorted(shown)
