"""What every part of the ``kriegsspiel`` command line shares: how a usage error is told,
and the options more than one command takes."""

from __future__ import annotations

import inspect
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand, TyperOption

if TYPE_CHECKING:
    from typer._click import Context  # (typer's own copy of click's, as its commands take)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
GameRulesetOpt = Annotated[
    str | None,
    typer.Option(
        "--ruleset",
        "-r",
        help="konflikt47 or bolt-action-1.",
        show_default="the one the lists are for, else the --rules-file's, else konflikt47",
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

DeploymentOpt = Annotated[
    str,
    typer.Option(
        "--deployment",
        help="The order each side's units set up in: list-order (the rules', evenly spaced "
        "along the zone) or shuffled (drawn for each game from its seed, so a unit's place "
        "in its list does not decide where it stands).",
    ),
]

ScenarioOpt = Annotated[
    str | None,
    typer.Option(
        "--scenario",
        "-s",
        help="A scenario file, or the name of a shipped one.",
        show_default="meeting-engagement",
    ),
]
SidesOpt = Annotated[
    list[str],
    typer.Option(
        "--army",
        "-a",
        help="Two army list files (or shipped names): side A, then side B.",
        show_default="the edition's two sample lists",
    ),
]


# the width text sent to a file or a pipe is laid out for: wide enough that no line of an
# account, a message or a file's name is broken in the middle (tables take no more than
# their cells need); an explicit COLUMNS is kept (the README's examples set one)
UNWRAPPED_COLUMNS = 10_000


@contextmanager
def unwrapped_when_not_a_terminal() -> Iterator[None]:
    """Output to a file or a pipe is not hard-wrapped at 80 columns, as rich would (it
    cannot ask a file its width): the consoles a command makes read COLUMNS, set here for
    the command alone."""
    if "COLUMNS" in os.environ or sys.stdout.isatty():
        yield
        return
    os.environ["COLUMNS"] = str(UNWRAPPED_COLUMNS)
    try:
        yield
    finally:
        os.environ.pop("COLUMNS", None)


def fail(message: str) -> NoReturn:
    """Print one paragraph to stderr, ending as a sentence (its full stop added where it
    has none), and exit with status 2 (a usage error)."""
    from kriegsspiel.errors import sentence

    typer.echo(f"kriegsspiel: error: {sentence(message)}", err=True)
    raise typer.Exit(2)


class GivenOnce(TyperCommand):
    """The class of every kriegsspiel command: it refuses an option of one value given
    twice (``--scenario A --scenario B``, ``--cover soft --cover hard``), where the parser
    would silently keep the last: the command would do what the player did not mean.
    Repeatable options (``--army``, ``--weapon``) and flags are not refused.

    Its help is its docstring's paragraphs each as one line, for rich to wrap to the
    screen (typer keeps a docstring's line breaks: the list of commands broke a summary
    mid-sentence), and its summary in that list is the first paragraph whole; a required
    argument is shown in the usage line as ``<record>`` (typer's ``{record}`` reads as a
    set of values), as an optional one is ``[army]``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.help:
            paragraphs = inspect.cleandoc(self.help).split("\n\n")
            self.help = "\n\n".join(" ".join(paragraph.split()) for paragraph in paragraphs)
            self.short_help = self.short_help or self.help.split("\n\n")[0]

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces: list[str] = super().collect_usage_pieces(ctx)
        return [re.sub(r"^\{(.+)\}$", r"<\1>", piece) for piece in pieces]

    def invoke(self, ctx: Context) -> Any:
        """Run the command with its output unwrapped when it goes to a file or a pipe.
        (Its help is printed while the command line is read, before this, so it keeps the
        width of a reader's screen.)"""
        with unwrapped_when_not_a_terminal():
            return super().invoke(ctx)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            # (the parser lists each option as often as it was given, in order)
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            seen: set[str] = set()
            for param in order:
                if not isinstance(param, TyperOption) or param.multiple or param.is_flag:
                    continue
                if param.name in seen:
                    names = " or ".join(param.opts)
                    fail(
                        f"{names} is given more than once; it takes one value (the parser "
                        "would keep only the last): give it once."
                    )
                seen.add(str(param.name))
        return super().parse_args(ctx, args)
