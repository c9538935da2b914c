"""The ``kriegsspiel`` command line (typer + rich).

Heavy modules are imported inside the commands so that start-up stays close to the
interpreter's own; every deliberate error becomes one paragraph and exit status 2.
"""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING, Annotated, cast

INTERRUPTED = "kriegsspiel: interrupted."  # Ctrl-C before a run could say more (exit 130)

try:  # (Ctrl-C as the command starts, before main() can catch it, is told as in main())
    import typer

    from kriegsspiel.aid import DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SAVE
    from kriegsspiel.cli_options import (
        DeploymentOpt,
        GameRulesetOpt,
        GameRulesFileOpt,
        GivenOnce,
        JsonOpt,
        ScenarioOpt,
        SidesOpt,
        fail,
    )
    from kriegsspiel.odds_cli import odds_app
    from kriegsspiel.sim import DEFAULT_STORE, MAX_GAMES, MAX_SEED, WORKERS_PER_CORE
except KeyboardInterrupt:
    print(INTERRUPTED, file=sys.stderr)
    raise SystemExit(130) from None

if TYPE_CHECKING:
    from types import FrameType

    from kriegsspiel.rulesets.bolt_action.game.record import Replay
    from kriegsspiel.sim.commands import RunOptions

app = typer.Typer(
    name="kriegsspiel",
    help="An engine for WWII tabletop wargames: Konflikt '47, Bolt Action 1st edition, "
    "Iron Cross and House Clearing.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(odds_app, name="odds")


FRESH = "fresh"  # play and aid --seed fresh: a new seed drawn


def seed_or_fresh(given: str) -> str:
    """``play`` and ``aid``'s ``--seed``: a whole number 0 to MAX_SEED, or ``fresh`` (as
    given, checked)."""
    if given.strip().lower() == FRESH:
        return FRESH
    try:
        seed = int(given)
    except ValueError:
        seed = -1
    if not 0 <= seed <= MAX_SEED or not given.strip().isdigit():
        raise typer.BadParameter(
            f"{given!r} is neither a whole number 0 to {MAX_SEED} nor {FRESH!r} (a new seed drawn)"
        )
    return str(seed)


def _show_version(asked: bool) -> None:
    """``--version``: the package's version (game records are marked with it), and the
    code version (it and a hash of the source and data) that the results store marks its
    games with and Dask workers must share: results of other code are never reused."""
    if asked:
        from kriegsspiel import __version__
        from kriegsspiel.sim.code import code_version

        typer.echo(
            f"kriegsspiel {__version__} (code version {code_version()}, as the results store "
            "and Dask workers check it)"
        )
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="Show the version (and the code version the results store and Dask workers "
            "check) and exit.",
        ),
    ] = False,
) -> None:
    """(The options of ``kriegsspiel`` itself; each command's are its own.)"""


@app.command(
    "play", cls=GivenOnce, epilog="Example: kriegsspiel play --players human,tactical --seed 3"
)
def play_cmd(
    ctx: typer.Context,
    ruleset: GameRulesetOpt = None,
    scenario: ScenarioOpt = None,
    army: SidesOpt = [],  # noqa: B006
    seed: Annotated[
        str,
        typer.Option(
            "--seed",
            metavar="N|fresh",
            parser=seed_or_fresh,
            help=f"Seed of the game's dice, 0 to {MAX_SEED}: the same seed plays the same "
            "game; fresh draws a new one (told, to play the game again).",
        ),
    ] = "1",
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="Who plays each side: tactical, random, or human (you, at this terminal), "
            "e.g. human,tactical; tactical:explore=N has the AI pick among its orders worth "
            "within N points of its best, drawn by the seed (a varied opponent).",
        ),
    ] = "tactical,tactical",
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            help="Where to write the game record (JSON Lines). One is always written: by "
            "default in this folder, named after the ruleset, scenario and seed.",
        ),
    ] = None,
    svg: Annotated[
        str | None,
        typer.Option(
            "--svg",
            help="Draw the final table to this SVG file (when you play: before each of your "
            "decisions too, by default beside the record).",
        ),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "-q",
            help="Only the result, not the turn-by-turn account (of a game the AI plays on "
            "both sides: a game you play is told as it goes).",
        ),
    ] = False,
    rules_file: GameRulesFileOpt = None,
    deployment: DeploymentOpt = "list-order",
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            help="Go on with a game you stopped: its record (the game, its seed and its "
            "players are the record's).",
        ),
    ] = None,
) -> None:
    """Play a whole game on a real table (Konflikt '47, Bolt Action): AI against AI, or
    you against the AI (--players human,tactical).

    The AI's units set up in the order of its list, evenly spaced along its deployment zone
    (--deployment shuffled draws the order from the seed); a person's side is offered those
    places and sets up its units by hand (Enter takes a place offered, auto the rest)."""
    from kriegsspiel.errors import UsageError
    from kriegsspiel.play import run_game

    if resume is not None:
        given = [
            f"--{name.replace('_', '-')}"
            for name in (
                "ruleset",
                "scenario",
                "army",
                "seed",
                "players",
                "rules_file",
                "deployment",
            )
            if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT"
        ]
        if given:
            raise UsageError(
                f"--resume takes the game from its record; leave out {', '.join(given)}."
            )
    status = run_game(
        ruleset=ruleset,
        scenario=scenario,
        armies=army,
        seed=None if seed == FRESH else int(seed),
        players=players,
        record=record,
        svg=svg,
        quiet=quiet,
        rules_file=rules_file,
        resume=resume,
        deployment=deployment,
    )
    if status:
        raise typer.Exit(status)


ArmiesOpt = Annotated[
    list[str],
    typer.Option(
        "--army",
        "-a",
        help="Two army list files (or shipped names): army A, then army B.",
        show_default="the edition's two sample lists",
    ),
]
PlayersOpt = Annotated[
    str,
    typer.Option(
        "--players",
        help="Who plays each army: tactical or random, e.g. tactical,random; "
        "tactical:explore=N has the AI pick among its orders worth within N points of its "
        "best, drawn by each game's seed (its games are stored apart).",
    ),
]
ResultsOpt = Annotated[
    str, typer.Option("--results", help="The results store (SQLite file) to use and reuse.")
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        help=f"Local worker processes, at most {WORKERS_PER_CORE} a core (no more than the games).",
        show_default="one per core",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option("--scheduler", help="Run on a Dask distributed cluster: its scheduler's address."),
]
PlotOpt = Annotated[
    str | None, typer.Option("--plot", help="Draw the results to this .png or .svg file.")
]


NoStoreOpt = Annotated[
    bool, typer.Option("--no-store", help="Keep nothing: do not read or write a results file.")
]
PrecisionOpt = Annotated[
    float | None,
    typer.Option(
        "--precision",
        help="Stop early once every outcome's 95% interval lies within ± this of its rate (e.g. 0.01).",
    ),
]


def _run_options(
    workers: int | None,
    scheduler: str | None,
    results: str,
    no_store: bool,
    precision: float | None,
) -> RunOptions:
    from kriegsspiel.sim.cluster import checked_address
    from kriegsspiel.sim.commands import RunOptions

    if scheduler is not None:
        checked_address(scheduler, command_line=True)
    if not no_store and not results.strip():
        fail("--results needs a file name (or --no-store to keep no results).")
    if no_store and results != DEFAULT_STORE:
        fail(
            f"--no-store keeps no results file, so --results {results!r} would be unused; give one or the other."
        )
    return RunOptions(workers, scheduler, None if no_store else results, precision)


@app.command(
    "evaluate", cls=GivenOnce, epilog="Example: kriegsspiel evaluate --games 40 --plot evaluate.png"
)
def evaluate_cmd(
    ruleset: GameRulesetOpt = None,
    scenario: ScenarioOpt = None,
    army: ArmiesOpt = [],  # noqa: B006
    games: Annotated[
        int,
        typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="How many games to play."),
    ] = 100,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the whole run.")
    ] = 1,
    players: PlayersOpt = "tactical,tactical",
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    results: ResultsOpt = DEFAULT_STORE,
    no_store: NoStoreOpt = False,
    precision: PrecisionOpt = None,
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    rules_file: GameRulesFileOpt = None,
    deployment: DeploymentOpt = "list-order",
) -> None:
    """Play many games of one matchup (sides swapped every other game) and report who wins."""
    from kriegsspiel.sim.commands import run_evaluate

    run_evaluate(
        ruleset=ruleset,
        scenario=scenario,
        armies=army,
        players=players,
        games=games,
        seed=seed,
        options=_run_options(workers, scheduler, results, no_store, precision),
        plot=plot,
        as_json=as_json,
        rules_file=rules_file,
        deployment=deployment,
    )


@app.command(
    "sweep",
    cls=GivenOnce,
    epilog="Example: kriegsspiel sweep konflikt47-walker-or-tank --games 20 --plot sweep.png",
)
def sweep_cmd(
    path: Annotated[
        str,
        typer.Argument(metavar="sweep", help="A sweep file (YAML), or a shipped sweep's name."),
    ],
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            min=1,
            max=MAX_GAMES,
            help="Games a matchup.",
            show_default="the file's",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", min=0, max=MAX_SEED, help="Seed of every run.", show_default="the file's"
        ),
    ] = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    results: ResultsOpt = DEFAULT_STORE,
    no_store: NoStoreOpt = False,
    precision: PrecisionOpt = None,
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    lists_to: Annotated[
        str | None,
        typer.Option(
            "--lists-to",
            help="Write each variant's list into this folder (to play or evaluate it).",
        ),
    ] = None,
    deployment: Annotated[
        str | None,
        typer.Option(
            "--deployment",
            help="The order each side's units set up in: list-order (the rules') or "
            "shuffled (drawn for each game from its seed).",
            show_default="the file's, else list-order",
        ),
    ] = None,
) -> None:
    """Run every matchup of a sweep file and print the table of results (a heat map with --plot)."""
    from kriegsspiel.sim.sweep_command import run_sweep

    options = _run_options(workers, scheduler, results, no_store, precision)
    run_sweep(path, games, seed, options, plot, as_json, lists_to, deployment)


@app.command(
    "results", cls=GivenOnce, epilog="Example: kriegsspiel results --export csv --out games.csv"
)
def results_cmd(
    results: ResultsOpt = DEFAULT_STORE,
    export: Annotated[
        str | None,
        typer.Option(
            "--export",
            help="Export every stored game (or --matchup's): csv or json, a row a game; "
            "units-csv, a row a unit of each game.",
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            help="Write the export to this file (- for the screen).",
            show_default="the screen",
        ),
    ] = None,
    matchup: Annotated[
        str | None,
        typer.Option(
            "--matchup",
            help="Only the matchup with this id (as listed, e.g. 3f9c02ab; its start will do).",
        ),
    ] = None,
    prune: Annotated[
        bool,
        typer.Option(
            "--prune",
            help="Delete the games of other code versions (never reused), then shrink the file.",
        ),
    ] = False,
) -> None:
    """List what the results store holds, export it game by game, or prune it."""
    from kriegsspiel.sim.commands import run_results

    run_results(results, export, out, matchup, prune)


@app.command("aid", cls=GivenOnce, epilog="Example: kriegsspiel aid --scenario hold-the-crossroads")
def aid_cmd(
    ruleset: GameRulesetOpt = None,
    scenario: ScenarioOpt = None,
    army: SidesOpt = [],  # noqa: B006
    turns: Annotated[
        int | None, typer.Option("--turns", help="Turns to play (default: the scenario's).")
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(
            "--seed",
            metavar="N|fresh",
            parser=seed_or_fresh,
            help=f"Seed of the dice the aid rolls, 0 to {MAX_SEED}, or fresh.",
            show_default=FRESH,
        ),
    ] = None,
    save: Annotated[
        str,
        typer.Option(
            "--save", help="The file the game is saved in after every step, and resumed from."
        ),
    ] = DEFAULT_SAVE,
    new: Annotated[
        bool, typer.Option("--new", help="Start a new game in place of the one saved there.")
    ] = False,
    host: Annotated[str, typer.Option("--host", help="Address to serve on.")] = DEFAULT_HOST,
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port.")] = DEFAULT_PORT,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="Open the page in your browser.")
    ] = True,
    rules_file: GameRulesFileOpt = None,
    password: Annotated[
        str | None,
        typer.Option(
            "--password",
            help="Only those who give this word may change the game (anyone may watch); "
            "for a game served to the network with --host 0.0.0.0.",
        ),
    ] = None,
) -> None:
    """A play aid for a game on a real table (Konflikt '47, Bolt Action), in your browser:
    the order-dice bag, each unit's die, pins and models, and the exact odds of its tests,
    shots and assaults."""
    from kriegsspiel.aid.command import GameAsked, run_aid

    dice = None if seed in (None, FRESH) else int(seed)
    asked = GameAsked(ruleset, scenario, tuple(army), turns, dice, save, new, rules_file)
    status = run_aid(asked, host=host, port=port, open_browser=open_browser, password=password)
    raise typer.Exit(status)


@app.command(
    "army", cls=GivenOnce, epilog="Example: kriegsspiel army us-tesla-company --copy mine.yaml"
)
def army_cmd(
    army: Annotated[
        str | None,
        typer.Argument(help="An army list file, or a shipped list's name; none: list those."),
    ] = None,
    ruleset: Annotated[
        str | None,
        typer.Option("--ruleset", "-r", help="The edition the list must be for."),
    ] = None,
    copy: Annotated[
        str | None,
        typer.Option("--copy", help="Write the list to this new file, to make it your own."),
    ] = None,
    as_json: JsonOpt = False,
    rules_file: Annotated[
        str | None,
        typer.Option(
            "--rules-file",
            help="Check the list against your own copy of the edition's rules data (YAML) "
            "(with --weapons or --targets: show its tables).",
        ),
    ] = None,
    weapons: Annotated[
        bool,
        typer.Option(
            "--weapons",
            help="Show the edition's weapons chart (the names a list's weapons are given by), "
            "not a list.",
        ),
    ] = False,
    targets: Annotated[
        bool,
        typer.Option(
            "--targets",
            help="Show the edition's damage values (what a unit is hit as: a vehicle's "
            "damage_value_of, odds --target), not a list.",
        ),
    ] = False,
) -> None:
    """Check an army list and show it as a roster, or list the shipped ones (or the
    weapons chart and damage values a list is written with)."""
    from kriegsspiel.army_command import run_army

    charts = ("weapons",) * weapons + ("targets",) * targets
    run_army(army, ruleset, copy, as_json, rules_file, charts)


@app.command(
    "scenario",
    cls=GivenOnce,
    epilog="Example: kriegsspiel scenario hold-the-crossroads --svg table.svg",
)
def scenario_cmd(
    scenario: Annotated[
        str | None,
        typer.Argument(help="A scenario file, or a shipped scenario's name; none: list those."),
    ] = None,
    svg: Annotated[
        str | None,
        typer.Option("--svg", help="Draw the table with two lists deployed, as a game begins."),
    ] = None,
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            "-r",
            help="The edition whose terrain table checks the scenario, and of the lists "
            "--army gives.",
            show_default="the lists' own; none: every edition's table checks it",
        ),
    ] = None,
    army: ArmiesOpt = [],  # noqa: B006
    copy: Annotated[
        str | None,
        typer.Option("--copy", help="Write the scenario to this new file, to make it your own."),
    ] = None,
    as_json: JsonOpt = False,
    rules_file: Annotated[
        str | None,
        typer.Option(
            "--rules-file",
            help="Your own copy of the edition's rules data (YAML): its terrain table checks "
            "the scenario, and the lists --army gives are checked against it.",
        ),
    ] = None,
) -> None:
    """Check a scenario and show it as a briefing, or list the shipped ones."""
    from kriegsspiel.scenario_command import run_scenario

    run_scenario(scenario, copy, svg, ruleset, army, as_json, rules_file)


@app.command(
    "rules", cls=GivenOnce, epilog="Example: kriegsspiel rules konflikt47 --copy house-rules.yaml"
)
def rules_cmd(
    rules: Annotated[
        str | None,
        typer.Argument(
            help="A rules data file (your copy) to check and compare with its ruleset's "
            "shipped data, or a ruleset's name; none: list the shipped ones."
        ),
    ] = None,
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            "-r",
            help="The ruleset (konflikt47, bolt-action-1, iron-cross or house-clearing) whose "
            "shipped data is shown or copied; with a file, the ruleset it must be the data of.",
            show_default="the file's own",
        ),
    ] = None,
    copy: Annotated[
        str | None,
        typer.Option(
            "--copy", help="Write the rules data to this new file, to edit as house rules."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Copy a ruleset's rules data to edit, or check a copy and list what it changes."""
    from kriegsspiel.rules_command import run_rules

    run_rules(rules, ruleset, copy, as_json)


@app.command(
    "replay",
    cls=GivenOnce,
    epilog="Example: kriegsspiel replay kriegsspiel-konflikt47-meeting-engagement-seed1.jsonl",
)
def replay_cmd(
    path: Annotated[
        str,
        typer.Argument(metavar="record", help="A game record written by 'kriegsspiel play'."),
    ],
    tell: Annotated[
        bool,
        typer.Option(
            "--account",
            help="Tell the game turn by turn as 'play' did (as far as it reproduces), "
            "then say whether it reproduces.",
        ),
    ] = False,
) -> None:
    """Re-run a recorded game and say whether it reproduces byte for byte."""
    from kriegsspiel.errors import empty_name
    from kriegsspiel.rulesets.bolt_action.game.record import replay

    if not path.strip():  # (Path("") is the current folder: not what was meant)
        raise empty_name("replay", path, "a game record (the .jsonl file play wrote)")
    result = replay(path)
    if tell and result.game is not None:
        from kriegsspiel.render.game_account import account, opening, result_line, set_up_lines
        from kriegsspiel.rulesets.bolt_action.to_hit import hit_words

        game = result.game
        players = result.head.get("players") or ("?", "?")
        for line in opening(game, players, result.head.get("rules_file")):
            typer.echo(line)
        for line in set_up_lines(game):  # (a side set up by hand: who stood where)
            typer.echo(line)
        agreed = game.events[: result.events if result.reproduced else _agreed(result)]
        rules = game.rules
        told = account(
            list(agreed), game.units, rally=rules.rally_pins.text, words=hit_words(rules)
        )
        for line in told:
            typer.echo(line)
        if result.reproduced and game.is_terminal():
            typer.echo(result_line(game))
    if result.reproduced:
        typer.echo(f"{path}: reproduced ({result.events} events identical).")
        for note in result.notes():
            typer.echo(f"{path}: {note}")
        return

    typer.echo(f"{path}: does NOT reproduce; first difference at line {result.first_difference}:")
    for line in result.difference():
        typer.echo(line)
    for note in result.notes():
        typer.echo(f"{path}: {note}")
    if result.made_otherwise:
        typer.echo(f"The record was made with {result.made_otherwise}: that may be why.")
    raise typer.Exit(1)


def _agreed(result: Replay) -> int:
    """How many replayed events agree with a record that does not reproduce: those before
    the first line that differs (line 1 is the header)."""
    return max(0, (result.first_difference or 1) - 2)


def _quiet_signals() -> None:
    """Pass over Ctrl-C and SIGTERM from here on: the program is telling an error and about
    to exit with its status, and an interrupt now would only tangle a traceback into it.
    (A handler that does nothing, not SIG_IGN, which programs started later would inherit.)"""
    signal.signal(signal.SIGINT, _passed_over)
    signal.signal(signal.SIGTERM, _passed_over)


def _passed_over(signum: int, frame: object) -> None:
    """An interrupt while an error is told: nothing to do, the program is ending."""


def _told(exc: Exception) -> str:
    """An error as the command line tells it: one worded in a Python function's parameters
    (a ParameterError a command has not told with its own options already, a run's
    SimulationError or StoreError, a set-up's refusal, a list's DataFileError) names the
    parameters the commands share as their options, the results store as --results or
    --no-store, and the way to resume as running the same command again
    (:data:`~kriegsspiel.odds_options.COMMAND_LINE`)."""
    from kriegsspiel.errors import Worded
    from kriegsspiel.odds_options import COMMAND_LINE

    if isinstance(exc, Worded):
        return exc.told_as(COMMAND_LINE)
    return str(exc)


def main() -> None:
    """Entry point: run the app, turning every deliberate error into exit status 2, and
    Ctrl-C, whenever it comes (a command importing its modules, say), into one line and
    exit status 130; SIGTERM (a batch system stopping the job) is told the same way, with
    exit status 143, so a run says what it stored either way."""

    from kriegsspiel.errors import KriegsspielError, sentence

    signal.signal(signal.SIGINT, _note_interrupt)
    signal.signal(signal.SIGTERM, _note_interrupt)
    try:
        code = app(standalone_mode=False, prog_name="kriegsspiel")  # (its errors: told below)
    except KriegsspielError as exc:
        _quiet_signals()  # (a Ctrl-C while the error is told would print a traceback)
        from kriegsspiel.sim.runner import Interrupted

        if isinstance(exc, Interrupted):  # a stop, not an error: what was kept, how to go on
            typer.echo(f"kriegsspiel: {_stopped_by()}: {exc}", err=True)
            sys.exit(_stopped_status())
        typer.echo(f"kriegsspiel: error: {sentence(_told(exc))}", err=True)
        sys.exit(2)
    except _command_line_error() as exc:  # an option's value, an unknown option, a missing one
        _quiet_signals()
        if type(exc).__name__ == "NoArgsIsHelpError":  # (a bare command: its help, shown)
            told = str(getattr(exc, "format_message", lambda: "")())
            if told.strip():  # (typer drew the help already, unless rich is missing)
                typer.echo(told)
            typer.echo(f"kriegsspiel: error: {sentence(missing_command(exc))}", err=True)
            sys.exit(2)  # (click's status for a command given nothing to do)
        typer.echo(f"kriegsspiel: error: {sentence(usage_problem(exc))}", err=True)
        sys.exit(2)
    except BaseException as exc:
        if (isinstance(exc, SystemExit) and not exc.code) or not (_INTERRUPTS or interrupted(exc)):
            raise
        typer.echo(_as_stopped(INTERRUPTED), err=True)
        sys.exit(_stopped_status())
    if code == 130:  # a Ctrl-C inside a command, which typer returns as a silent status
        typer.echo(_as_stopped(INTERRUPTED), err=True)
        code = _stopped_status()
    sys.exit(code if isinstance(code, int) else 0)  # (a command's typer.Exit with a status)


def _stopped_status() -> int:
    """130 for Ctrl-C (128 + SIGINT), 143 for SIGTERM (128 + SIGTERM), as shells report."""
    return 128 + (signal.SIGTERM if signal.SIGTERM in _INTERRUPTS else signal.SIGINT)


def _as_stopped(text: str) -> str:
    """A message of an interruption, saying "stopped (SIGTERM)" where that stopped it."""
    if signal.SIGTERM not in _INTERRUPTS:
        return text
    return text.replace("interrupted.", "stopped (SIGTERM).", 1)


def _stopped_by() -> str:
    """How a run that was stopped says so: "stopped", or "stopped (SIGTERM)"."""
    return "stopped (SIGTERM)" if signal.SIGTERM in _INTERRUPTS else "stopped"


# the commands most often wanted after a group's name, told when none is given
_COMMONEST = {"kriegsspiel": "play, odds, army, aid", "kriegsspiel odds": "shoot, assault, morale"}


def missing_command(exc: Exception) -> str:
    """The line (within 80 columns, as the help above it) that says a group
    (``kriegsspiel``, ``kriegsspiel odds``) was given no command: the commonest named."""
    path = str(getattr(getattr(exc, "ctx", None), "command_path", "") or "kriegsspiel")
    commonest = _COMMONEST.get(path)
    return "no command given" + (f"; the commonest: {commonest}." if commonest else ".")


# click's words for a value of the wrong kind, in a wargamer's
_KINDS = {
    "is not a valid int range": "is not a whole number",
    "is not a valid integer": "is not a whole number",
    "is not a valid float range": "is not a number",
    "is not a valid float": "is not a number",
    "is not a valid int": "is not a whole number",  # (after the longer phrases above)
}


def _command_line_error() -> type[Exception]:
    """The errors typer's parser raises: its own copy of click's since typer 0.2x, which
    it exports as TyperException; click's own before that."""
    found = getattr(typer, "TyperException", None)
    if found is None:  # pragma: no cover (typer before it kept its own click)
        import click

        found = click.ClickException
    return cast("type[Exception]", found)


def usage_problem(exc: Exception) -> str:
    """One line for a usage error the parser found, naming where to read more: typer drew
    it in a box under the usage line, unlike every error kriegsspiel finds itself."""
    format_message = getattr(exc, "format_message", None)
    text = str(format_message() if format_message is not None else exc)
    ctx = getattr(exc, "ctx", None)
    if type(exc).__name__ == "NoSuchOption":  # (click's guesses: its own, redone below)
        text = _no_such_option(str(getattr(exc, "option_name", "")), ctx) or text
    for clicks, ours in _KINDS.items():
        text = text.replace(clicks, ours)
    path = getattr(ctx, "command_path", None)
    more = f" See '{path} --help'." if path else ""
    from kriegsspiel.errors import sentence

    return f"{sentence(text)}{more}"


# commands that list what they ship when given no name: where --list is the natural guess
_LISTS = {"army": "army lists", "scenario": "scenarios", "rules": "rulesets' rules data"}


def _no_such_option(given: str, ctx: object) -> str:
    """An unknown option told with the command's options that are close to it, compared
    without their dashes (click's guess compares them with, so that ``--list`` came out as
    ``--ruleset``, ``--bogus`` as ``--out``); ``--list`` to a command that lists with no
    name says so. Empty if the command is not known."""
    from kriegsspiel.errors import suggest

    command = getattr(ctx, "command", None)
    if command is None:
        return ""
    name = str(getattr(command, "name", ""))
    if given == "--list" and name in _LISTS:
        return (
            f"No such option: --list; 'kriegsspiel {name}' with no name lists the shipped "
            f"{_LISTS[name]}"
        )
    options = {
        opt: opt.lstrip("-")
        for param in getattr(command, "params", [])
        for opt in getattr(param, "opts", []) + getattr(param, "secondary_opts", [])
        if opt.startswith("--")
    }
    bare = {name: opt for opt, name in options.items()}  # (each option by its bare name)
    return f"No such option: {given}{suggest(given.lstrip('-'), (), bare)}"


_INTERRUPTS: list[int] = []  # Ctrl-Cs (and SIGTERMs) seen by main()


def _note_interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C raises KeyboardInterrupt, as Python's own handler does, and is noted: a C
    extension being imported (shapely's, importing numpy) turns it into an ImportError
    that says nothing of it. SIGTERM is taken the same way: the run stops as on Ctrl-C."""
    _INTERRUPTS.append(signum)
    signal.default_int_handler(signum, frame)


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is, or came of, a Ctrl-C: typer turns one into a silent exit 130,
    and a module being imported may wrap it in another error (pydantic in a RuntimeError)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


if __name__ == "__main__":
    main()
