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
