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
# an example may type its answers in: $ printf 'answers' | kriegsspiel ...
BLOCK = re.compile(r"```console\n\$ ((?:printf '[^'\n]*' \| )?kriegsspiel [^\n]*)\n(.*?)```", re.S)
WIDTH = "100"


def run(command: str, folder: str) -> str:
    typed = ""
    if command.startswith("printf "):
        answers, command = command.split(" | ", 1)
        typed = shlex.split(answers)[1].replace("\\n", "\n")
    args = shlex.split(command)[1:]
    env = {**os.environ, "COLUMNS": WIDTH, "NO_COLOR": "1", "TERM": "dumb"}
    result = subprocess.run(
        [sys.executable, "-m", "kriegsspiel", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        input=typed,  # (none: the command finds its input at its end at once)
        cwd=folder,  # the records the examples write go there, not over the reader's files
    )
    text = result.stdout + result.stderr
    if result.returncode:
        text += f"[exit status {result.returncode}]\n"
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def refreshed(text: str) -> str:
    """The README with each example's output as it is now, the examples run in order in
    one scratch folder (a later example may read a record an earlier one wrote)."""
    with tempfile.TemporaryDirectory() as folder:
        return BLOCK.sub(
            lambda m: f"```console\n$ {m.group(1)}\n{run(m.group(1), folder)}```", text
        )


def main() -> int:
    text = README.read_text()
    new = refreshed(text)
    examples = len(BLOCK.findall(text))
    if "--check" in sys.argv:
        if new != text:
            print("README.md examples are stale: run python scripts/readme_examples.py")
            return 1
        print(f"README.md: all {examples} examples are current")
        return 0
    README.write_text(new)
    print(
        f"README.md: {examples} examples run, {'some changed' if new != text else 'none changed'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
