"""Shared helpers for the test suite."""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import settings

T = TypeVar("T")

# Property tests draw their examples from a fixed seed, like every other random thing in the
# suite, so a run passes or fails the same way each time (and the time it takes is the same);
# HYPOTHESIS_PROFILE=explore draws fresh examples on each run to look for new failures. No
# example has a deadline: a loaded machine is slower, and speed is not what they check.
settings.register_profile("seeded", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "seeded"))


def within_se(
    observed: float, expected: float | Fraction, variance: float, n: int, k: float = 4.0
) -> bool:
    """Is a Monte Carlo mean within ``k`` standard errors of the exact value?"""
    se = math.sqrt(max(variance, 1e-12) / n)
    return abs(observed - float(expected)) <= k * se + 1e-12


def bernoulli_ok(hits: int, n: int, p: float | Fraction, k: float = 4.0) -> bool:
    p = float(p)
    return within_se(hits / n, p, p * (1 - p), n, k)


def within_4_se(p: Fraction, successes: int, n: int) -> bool:
    """Is a Monte Carlo frequency within 4 standard errors of the exact probability?"""
    se = math.sqrt(float(p) * (1 - float(p)) / n)
    if se == 0:
        return successes == p * n
    return abs(successes / n - float(p)) <= 4 * se


def out_of_turn(unit: Any) -> str:
    """How a test takes a play aid unit's die out of the bag to order it Down: a Down
    reaction, or a vehicle's die by damage (a vehicle other than recce has no reaction)."""
    return "damage" if unit.kind == "vehicle" else "reaction"


def copy_of(folder: Path, ruleset: str, *edits: tuple[str, str], name: str = "") -> Path:
    """A copy of ``ruleset``'s shipped data with ``edits`` (each text found once) made."""
    from kriegsspiel.rulesets.rules_data import shipped_data

    text = shipped_data(ruleset).read_text()
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = folder / (name or f"{ruleset}.yaml")
    path.write_text(text)
    return path


def one_unit_armies(folder: Path) -> list[str]:
    """The two Konflikt '47 sample armies cut to their first unit each, written in
    ``folder``: few indices, so the numbering's limit allows cells fine enough to cost
    hundreds of MB (the environments' memory bound is then the one that binds)."""
    import yaml

    import kriegsspiel

    armies = []
    shipped = Path(kriegsspiel.__file__).parent / "data" / "armies" / "konflikt47"
    for name in ("us-tesla-company", "german-schwerefeld-battlegroup"):
        army = yaml.safe_load((shipped / f"{name}.yaml").read_text())
        army["units"] = army["units"][:1]
        army["points"] = army["units"][0]["points"]
        path = folder / f"{name}.yaml"
        path.write_text(yaml.safe_dump(army, sort_keys=False))
        armies.append(str(path))
    return armies


def run_cli(
    *args: str, cwd: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run the real entry point in a fresh interpreter (exit codes, stderr), in ``cwd``."""
    return subprocess.run(
        [sys.executable, "-c", "from kriegsspiel.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=cwd,
    )


def in_a_fresh_process(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a newly started interpreter: one thread, nothing cached, whatever
    this process has run before (a Dask client leaves threads behind, for one)."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(fn, *args).result(timeout=300)


SIM_DATA = Path(__file__).parent / "data" / "sim"
# the small patrols matchup, as command-line arguments, played by random players
PATROLS_RANDOM = [
    "--ruleset", "konflikt47", "--scenario", str(SIM_DATA / "skirmish.yaml"),
    "--army", str(SIM_DATA / "patrol-a.yaml"), "--army", str(SIM_DATA / "patrol-b.yaml"),
    "--players", "random,random",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _signal_handlers_restored() -> Any:
    """kriegsspiel's main() installs its Ctrl-C and SIGTERM handlers and leaves them (a
    real run exits at once); a test that runs main() in this process gets the process's
    own handlers back, so later tests meet Python's."""
    saved = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    yield
    for signum, handler in zip((signal.SIGINT, signal.SIGTERM), saved, strict=True):
        if handler is not None:  # (None: a handler not set from Python, left alone)
            signal.signal(signum, handler)


# Families of cases, each a command run in a fresh interpreter, that the fast suite samples
# to stay within its 10 minutes on two cores: every Nth case (the first, then each Nth) runs
# in it, and all of them with the slow tests (`pytest -m slow`). Each family's cases are the
# same check on other input, so a sample keeps the check; the slow run keeps every input.
SAMPLED_FAMILIES = {
    "test_cli.py::test_bad_input_is_one_paragraph_and_exit_2": 2,
    "test_armies_scenarios.py::test_a_terrain_category_the_terrain_table_lacks_is_refused_at_its_line": 4,
    "test_bolt_action_rules.py::test_a_rules_file_whose_numbers_the_rules_cannot_play_is_refused_at_its_line": 3,
    "test_odds_parameter_words.py::test_the_command_line_is_told_its_option": 3,
    "test_cli_conventions.py::test_each_commands_help_ends_with_an_example_that_parses": 2,
    "test_output_files.py::test_an_empty_name_is_said_to_be_empty_not_a_folder": 3,
    "test_sim_cli.py::test_bad_input_is_one_clear_line_and_status_2": 2,
    "test_data_numbers.py::test_a_scenario_number_that_is_no_measure_is_refused_naming_its_line_and_field": 2,
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark slow all but every Nth case of each :data:`SAMPLED_FAMILIES` family."""
    seen: dict[str, int] = {}
    for item in items:
        family = f"{Path(str(item.fspath)).name}::{item.originalname}"  # type: ignore[attr-defined]
        every = SAMPLED_FAMILIES.get(family)
        if every is None:
            continue
        nth = seen.get(family, 0)
        seen[family] = nth + 1
        if nth % every:
            item.add_marker(pytest.mark.slow)
