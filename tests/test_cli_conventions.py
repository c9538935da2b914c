"""The conventions every kriegsspiel command keeps: an option of one value is given once,
a bare command shows its help, --version, and unknown options told with close guesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

import kriegsspiel
from kriegsspiel.cli_options import GivenOnce


def run_wide(*args: str, columns: str) -> subprocess.CompletedProcess[str]:
    """run_cli with the console COLUMNS wide (a help's rows then fit one line each)."""
    return subprocess.run(
        [sys.executable, "-c", "from kriegsspiel.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "COLUMNS": columns},
    )


def _commands() -> list[tuple[str, object]]:
    """Every command of the app, by its path (``odds shoot``, ``play``)."""
    import typer.main

    from kriegsspiel.cli import app

    found: list[tuple[str, object]] = []

    def walk(prefix: str, group: object) -> None:
        for name, command in getattr(group, "commands", {}).items():
            if hasattr(command, "commands"):
                walk(f"{prefix}{name} ", command)
            else:
                found.append((f"{prefix}{name}", command))

    walk("", typer.main.get_command(app))
    return found


def test_every_command_refuses_a_repeated_option_by_the_one_mechanism() -> None:
    """One class, GivenOnce, for every command: none is left to the parser's silent
    'the last one wins' (as play, evaluate, army and scenario were)."""
    commands = _commands()
    assert {"play", "evaluate", "army", "scenario", "odds shoot"} <= {n for n, _ in commands}
    assert [name for name, command in commands if not isinstance(command, GivenOnce)] == []


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["play", "--scenario", "hold-the-crossroads", "--scenario", "meeting-engagement",
          "--quiet"], "--scenario or -s"),
        (["play", "--seed", "1", "--seed", "2", "--quiet"], "--seed"),
        (["evaluate", "--games", "2", "-n", "3", "--no-store"], "--games or -n"),
        (["scenario", "hold-the-crossroads", "--svg", "a1.svg", "--svg", "a2.svg"], "--svg"),
        (["army", "us-tesla-company", "--copy", "c1.yaml", "--copy", "c2.yaml"], "--copy"),
        (["results", "--out", "a.csv", "--out", "b.csv", "--export", "csv"], "--out or -o"),
        (["sweep", "x.yaml", "--seed", "1", "--seed", "2"], "--seed"),
        (["aid", "--port", "8001", "--port", "8002"], "--port"),
        (["rules", "konflikt47", "--copy", "r1.yaml", "--copy", "r2.yaml"], "--copy"),
    ],
)  # fmt: skip
def test_a_single_value_option_given_twice_is_refused(
    args: list[str], option: str, tmp_path: Path
) -> None:
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert done.stderr == (
        f"kriegsspiel: error: {option} is given more than once; it takes one value (the "
        "parser would keep only the last): give it once.\n"
    )
    assert list(tmp_path.iterdir()) == []  # nothing played, drawn, copied or stored


def test_repeatable_options_and_flags_may_be_given_again(tmp_path: Path) -> None:
    done = run_cli("army", "us-tesla-company", "--json", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = run_cli(
        "scenario", "meeting-engagement", "--army", "us-tesla-company",
        "--army", "german-schwerefeld-battlegroup", "--json", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("args", "commonest"), [([], "play, odds, army, aid"), (["odds"], "shoot, assault, morale")],
)  # fmt: skip
def test_a_bare_command_shows_its_help_and_says_in_a_line_a_command_is_missing(
    args: list[str], commonest: str
) -> None:
    """Its help, and one line (not click's empty "Error:") saying what is missing, with
    the commands most often wanted: exit status 2 alone said nothing of it."""
    done = run_cli(*args)
    assert done.returncode == 2  # (click's status for a command given nothing to do)
    assert "Usage: kriegsspiel" in done.stdout and "Commands" in done.stdout
    told = f"kriegsspiel: error: no command given; the commonest: {commonest}.\n"
    assert done.stderr == told


def test_version_names_the_package_and_code_version() -> None:
    from kriegsspiel.sim.code import code_version

    done = run_cli("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"kriegsspiel {kriegsspiel.__version__} (code version {code_version()}, as the "
        "results store and Dask workers check it)\n"
    )
    assert "--version" in run_cli("--help").stdout


@pytest.mark.parametrize(
    ("args", "told"),
    [
        (["army", "--list"],
         "No such option: --list; 'kriegsspiel army' with no name lists the shipped army lists. "
         "See 'kriegsspiel army --help'."),
        (["scenario", "--list"],
         "No such option: --list; 'kriegsspiel scenario' with no name lists the shipped "
         "scenarios."),
        (["results", "--bogus"], "No such option: --bogus. See 'kriegsspiel results --help'."),
        (["army", "--rulset", "x"], "No such option: --rulset (did you mean '--ruleset'?)."),
        (["play", "--seeds", "3"], "No such option: --seeds (did you mean '--seed'?)."),
        (["odds", "shoot", "--covr", "soft"], "No such option: --covr (did you mean '--cover'?)."),
        (["aid", "--opne"], "No such option: --opne (did you mean '--open'?)."),
    ],
)  # fmt: skip
def test_an_unknown_option_is_told_with_guesses_only_when_close(args: list[str], told: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stderr.startswith("kriegsspiel: error: ") and done.stderr.count("\n") == 1
    assert told in done.stderr, done.stderr
    assert "Possible options" not in done.stderr


def every_command() -> list[tuple[str, ...]]:
    """Every command and sub-command, as its words (("play",), ("odds", "shoot") ...),
    read from the command line's own tree: a list written out by hand missed the odds
    sub-commands, whose help had no example."""
    import typer
    from typer.core import TyperGroup

    from kriegsspiel.cli import app

    def under(group: TyperGroup, words: tuple[str, ...]) -> list[tuple[str, ...]]:
        found: list[tuple[str, ...]] = []
        for name, command in group.commands.items():
            found.append((*words, name))
            if isinstance(command, TyperGroup):
                found += under(command, (*words, name))
        return found

    root = typer.main.get_command(app)
    assert isinstance(root, TyperGroup)
    return under(root, ())


def test_every_command_is_found() -> None:
    found = every_command()
    assert ("play",) in found and ("odds",) in found and ("odds", "figure") in found
    assert len([c for c in found if c[0] == "odds"]) == 12  # (the group and its eleven)


@pytest.mark.parametrize("command", every_command(), ids=" ".join)
def test_each_commands_help_ends_with_an_example_that_parses(command: tuple[str, ...]) -> None:
    """The example line's command is a real one: its options parse (checked by asking
    for its help with them, which reads them before answering); an odds sub-command's
    example (quick, and writing no file) is run, and answers. A sub-command's example
    fits on one line of an 80-column terminal, so it can be copied whole."""
    import shlex

    done = run_wide(*command, "--help", columns="200")
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "Example: kriegsspiel" in line)
    example = shlex.split(line.split("Example: kriegsspiel", 1)[1])
    assert tuple(example[: len(command)]) == command
    parsed = run_cli(*example, "--help")
    assert parsed.returncode == 0, parsed.stderr
    if len(command) > 1:
        narrow = run_wide(*command, "--help", columns="80").stdout.splitlines()
        assert line.strip() in [row.strip() for row in narrow]
        ran = run_cli(*example)
        assert ran.returncode == 0 and ran.stdout.strip(), ran.stderr


@pytest.mark.parametrize(
    ("command", "option", "default"),
    [
        ("play", "--scenario", "meeting-engagement"),
        ("evaluate", "--scenario", "meeting-engagement"),
        ("aid", "--scenario", "meeting-engagement"),
        ("play", "--army", "the edition's two sample lists"),
        ("evaluate", "--army", "the edition's two sample lists"),
        ("aid", "--army", "the edition's two sample lists"),
        ("results", "--out", "the screen"),
        (
            "play",
            "--ruleset",
            "the one the lists are for, else the --rules-file's, else konflikt47",
        ),
    ],
)
def test_help_states_each_default(command: str, option: str, default: str) -> None:
    done = run_wide(command, "--help", columns="400")
    row = next(line for line in done.stdout.splitlines() if f" {option} " in line)
    assert f"[default: ({default})]" in row, row
    assert "(default:" not in row.replace(f"[default: ({default})]", "")  # one default, not two


def test_evaluate_help_shows_the_range_of_games_and_the_parser_keeps_to_it() -> None:
    done = run_wide("evaluate", "--help", columns="400")
    assert "[1<=x<=" in next(line for line in done.stdout.splitlines() if "--games" in line)
    refused = run_cli("evaluate", "--games", "0", "--no-store")
    assert refused.returncode == 2
    assert "0 is not in the range 1<=x<=" in refused.stderr


def test_a_scenario_is_checked_with_the_sample_lists_when_no_list_is_given(
    tmp_path: Path,
) -> None:
    """A scenario whose deployment zone holds no sample list was shown as fine without
    --army, while --svg and play refused it: it is checked with the samples, as a game takes
    them, and told (exit 0: a scenario for smaller forces is no broken file)."""
    assert (
        run_cli("scenario", "hold-the-crossroads", "--copy", "mine.yaml", cwd=tmp_path).returncode
        == 0
    )
    text = (tmp_path / "mine.yaml").read_text()
    zone = "polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]"
    assert zone in text
    (tmp_path / "small.yaml").write_text(
        text.replace(zone, "polygon: [[0, 0], [6, 0], [6, 2], [0, 2]]")
    )
    done = run_cli("scenario", "small.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    verdict = " ".join(done.stdout.split())
    assert "The scenario file is sound, but a game given no --army cannot be played on it: " in (
        verdict
    )
    assert "small.yaml: line 59, field deployment.0:" in verdict and "has no room for" in verdict
    assert "(the konflikt47 sample lists)" in verdict and "(the bolt-action-1 sample" in verdict
    assert verdict.endswith("give --army A --army B to check yours.")
    data = json.loads(run_cli("scenario", "small.yaml", "--json", cwd=tmp_path).stdout)
    assert data["sound_with"] == []
    # a game of the samples, or their drawing, is refused there as before
    svg = run_cli("scenario", "small.yaml", "--svg", "t.svg", cwd=tmp_path)
    assert svg.returncode == 2 and "has no room for" in svg.stderr
    assert not (tmp_path / "t.svg").exists()
    sound = run_cli("scenario", "mine.yaml", cwd=tmp_path)
    assert sound.returncode == 0, sound.stderr
    assert " ".join(sound.stdout.split()).endswith(
        "The scenario is sound: the konflikt47 and bolt-action-1 sample lists deploy on it, "
        "and a game of them can be played here (--army A --army B checks your own lists)."
    )


def test_scenario_json_is_indented_and_holds_the_lists_it_was_checked_with() -> None:
    import json

    pair = ["--army", "us-tesla-company", "--army", "german-schwerefeld-battlegroup"]
    done = run_cli("scenario", "meeting-engagement", *pair, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('{\n  "')  # indented as odds' and evaluate's
    assert done.stderr == ""  # (the verdict is in the JSON, not beside it)
    data = json.loads(done.stdout)
    assert data["sound_with"] == [
        {
            "ruleset": "konflikt47",
            "armies": ["us-tesla-company", "german-schwerefeld-battlegroup"],
            "sample_lists": False,
        }
    ]
    samples = json.loads(run_cli("scenario", "meeting-engagement", "--json").stdout)
    assert [(e["ruleset"], e["sample_lists"]) for e in samples["sound_with"]] == [
        ("konflikt47", True),
        ("bolt-action-1", True),
    ]


@pytest.mark.parametrize(
    "args",
    [["army"], ["army", "us-tesla-company"], ["scenario"], ["rules"], ["rules", "konflikt47"]],
)
def test_every_json_is_indented_alike(args: list[str]) -> None:
    import json

    done = run_cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(("{\n  ", "[\n  {\n    "))
    assert done.stdout == json.dumps(json.loads(done.stdout), indent=2) + "\n"


@pytest.mark.parametrize("command", ["army", "scenario"])
def test_the_listing_says_which_part_is_the_name(command: str) -> None:
    """Names hold dashes: 'give the name before the dash' could not be followed."""
    done = run_cli(command)
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].endswith("(give the name on the left):")
    assert "before the dash" not in done.stdout


def test_the_dask_install_advice_gives_the_checkout_form_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """'kriegsspiel[dask]' alone sends a checkout's user to the package index, as the aid's
    advice does not: both give the checkout's form (pip install -e '.[...]')."""
    import sys as system

    from kriegsspiel.errors import UsageError
    from kriegsspiel.sim.cluster import DaskExecutor

    monkeypatch.setitem(system.modules, "distributed", None)  # (import: ImportError)
    with pytest.raises(UsageError) as raised:
        DaskExecutor("tcp://127.0.0.1:1")
    assert str(raised.value) == (
        "--scheduler needs Dask distributed: pip install 'kriegsspiel[dask]' "
        "(from a checkout: pip install -e '.[dask]')."
    )
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    assert (
        "`pip install 'kriegsspiel[dask]'` (from a checkout: `pip install -e '.[dask]'`)" in readme
    )


def test_output_to_a_file_is_not_hard_wrapped(tmp_path: Path) -> None:
    """At 80 columns a file of the game broke 'Side B: US Army Tesla Company \\n(tactical)'
    and the record's name; without a terminal, nothing is wrapped (COLUMNS unset)."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    record = "a-record-with-a-rather-long-name-that-would-not-fit-in-eighty-columns.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "kriegsspiel", "play", "--record", record],
        capture_output=True, text=True, timeout=300, check=False, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "Side B: US Army Tesla Company (tactical)" in lines[1]
    assert lines[-2] == f"Record written to {record} (replay with: kriegsspiel replay {record})"
    assert lines[-1].startswith("Next: --players human,tactical to play side A yourself, ")
    assert lines[-1].endswith("; kriegsspiel --help for every command.")  # (one line)
    assert any(len(line) > 80 for line in lines)
    # an explicit width is kept (the README's examples are made at COLUMNS=100)
    narrow = subprocess.run(
        [sys.executable, "-m", "kriegsspiel", "play", "--record", "b.jsonl"],
        capture_output=True, text=True, timeout=300, check=False,
        env={**env, "COLUMNS": "60"}, cwd=tmp_path,
    )  # fmt: skip
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 60
    # and the help, read before the command runs, stays at a reader's width
    helped = run_cli("play", "--help")
    assert max(len(line) for line in helped.stdout.splitlines()) <= 80


@pytest.mark.parametrize(
    "words", [("play", "--help"), ("army", "--help"), ("odds",), ("odds", "shoot", "--help")]
)
def test_help_sent_to_a_pipe_keeps_a_readers_width(words: tuple[str, ...]) -> None:
    """A command's help piped to ``less`` (COLUMNS unset) was laid out 10,000 columns wide:
    the unwrapped width was set before the command's own help was printed."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run(
        [sys.executable, "-m", "kriegsspiel", *words],
        capture_output=True, text=True, timeout=120, check=False, env=env,
    )  # fmt: skip
    shown = done.stdout + done.stderr
    assert "Usage:" in shown
    assert max(len(line) for line in shown.splitlines()) <= 80


def test_vehicle_assault_takes_assaults_name_for_the_start_models_too() -> None:
    """assault names it --attacker-start-models, vehicle-assault --start-models: the one
    name works in both, and the two names are one option (given both: refused)."""
    import json

    base = ["odds", "vehicle-assault", "--models", "6", "--target", "medium tank",
            "--from", "9", "--vehicle-weapon", "MMG", "--json"]  # fmt: skip
    short = run_cli(*base, "--start-models", "10")
    long = run_cli(*base, "--attacker-start-models", "10")
    unset = run_cli(*base)
    assert short.returncode == long.returncode == unset.returncode == 0, long.stderr
    assert json.loads(short.stdout) == json.loads(long.stdout) != json.loads(unset.stdout)
    both = run_cli(*base, "--start-models", "10", "--attacker-start-models", "10")
    assert both.returncode == 2
    assert both.stderr == (
        "kriegsspiel: error: --start-models and --attacker-start-models are the same option "
        "(the second is assault's name for it): give it once.\n"
    )


def test_the_assault_options_the_probe_found_undocumented_are_in_the_readme() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    for option in ("--attacker-pins", "--defender-pins", "--defender-assault-weapons",
                   "--attacker-start-models", "--start-models", "--version"):  # fmt: skip
        assert f"`{option}" in readme or f" {option}`" in readme, option
    assert "`sound_with`" in readme  # scenario --json


@pytest.mark.parametrize("group", [(), ("odds",)])
def test_a_commands_summary_is_its_first_paragraph_wrapped_to_the_screen(
    group: tuple[str, ...],
) -> None:
    """The list of commands kept a docstring's line breaks: 'AI against AI, or' ended a
    line of play's summary at any width. Wide, each summary is one line, whole."""
    import inspect

    import typer.main

    from kriegsspiel.cli import app

    done = run_wide(*group, "--help", columns="300")
    command = typer.main.get_command(app)
    for name in group:
        command = command.commands[name]  # type: ignore[attr-defined]
    for name, sub in command.commands.items():  # type: ignore[attr-defined]
        first = " ".join(inspect.cleandoc(sub.help).split("\n\n")[0].split())
        row = next(line for line in done.stdout.splitlines() if line.startswith(f"│ {name} "))
        assert row[2:].split(None, 1)[1].rstrip(" │") == first, row


def test_a_required_argument_is_shown_as_an_optional_one_is() -> None:
    """'{path}' (typer's) beside '[army]': a required argument is <record>, <sweep>."""
    assert (
        "Usage: kriegsspiel replay [OPTIONS] <record>"
        in run_wide("replay", "--help", columns="100").stdout
    )
    assert (
        "Usage: kriegsspiel sweep [OPTIONS] <sweep>"
        in run_wide("sweep", "--help", columns="100").stdout
    )
    assert (
        "Usage: kriegsspiel army [OPTIONS] [army]"
        in run_wide("army", "--help", columns="100").stdout
    )
