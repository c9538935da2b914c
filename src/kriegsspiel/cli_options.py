"""What every part of the ``kriegsspiel`` command line shares: how a usage error is told,
and the options more than one command takes."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
GameRulesetOpt = Annotated[
    str | None,
    typer.Option(
        "--ruleset",
        "-r",
        help="konflikt47 or bolt-action-1 (default: the one the lists are for).",
        show_default="konflikt47",
    ),
]
GameRulesFileOpt = Annotated[
    str | None,
    typer.Option(
        "--rules-file",
        help="Play by your own copy of the edition's rules data (YAML) instead of the shipped "
        "one: the lists are checked against it.",
    ),
]

ScenarioOpt = Annotated[
    str | None,
    typer.Option("--scenario", "-s", help="A scenario file, or the name of a shipped one."),
]
SidesOpt = Annotated[
    list[str],
    typer.Option(
        "--army", "-a", help="Two army list files (or shipped names): side A, then side B."
    ),
]


def fail(message: str) -> NoReturn:
    """Print one paragraph to stderr and exit with status 2 (a usage error)."""
    typer.echo(f"kriegsspiel: error: {message}", err=True)
    raise typer.Exit(2)
