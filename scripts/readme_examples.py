"""Refresh (or check) the real output of every ``$ kriegsspiel ...`` example in README.md.

python scripts/readme_examples.py          # rewrite the outputs in place
python scripts/readme_examples.py --check  # exit 1 if any output is stale
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"```console\n\$ (kriegsspiel [^\n]*)\n(.*?)```", re.S)
WIDTH = "100"


def run(command: str) -> str:
    args = shlex.split(command)[1:]
    env = {**os.environ, "COLUMNS": WIDTH, "NO_COLOR": "1", "TERM": "dumb"}
    result = subprocess.run(
        [sys.executable, "-m", "kriegsspiel", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    text = result.stdout + result.stderr
    if result.returncode:
        text += f"[exit status {result.returncode}]\n"
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def refreshed(text: str) -> str:
    return BLOCK.sub(lambda m: f"```console\n$ {m.group(1)}\n{run(m.group(1))}```", text)


def main() -> int:
    text = README.read_text()
    new = refreshed(text)
    if "--check" in sys.argv:
        if new != text:
            print("README.md examples are stale: run python scripts/readme_examples.py")
            return 1
        return 0
    README.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
