"""What every benchmark's Markdown report shares: the machine line, and writing it out."""

from __future__ import annotations

import argparse
import os
import platform
from pathlib import Path

RESULTS = Path(__file__).parent / "results"


def machine() -> str:
    """Which machine the figures come from (they mean nothing without it)."""
    return (
        f"Machine: {platform.platform()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )


def publish(out: Path, lines: list[str]) -> None:
    """Write the report where the README links to it, and show it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    print("\n".join(lines))


def arguments(description: str | None, report: str) -> argparse.ArgumentParser:
    """A benchmark's command line, with ``--out`` (where its report goes: ``report`` in
    benchmarks/results unless told); the benchmark adds its own options."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=RESULTS / report)
    return parser
