"""``kriegsspiel aid``: the play aid for a game on a real table, served to a browser."""

from __future__ import annotations

import webbrowser
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from kriegsspiel.aid.session import AidSession, check_save, is_save
from kriegsspiel.aid.tracker import Tracker
from kriegsspiel.errors import UsageError
from kriegsspiel.outfiles import check_replacing

GUARD = (
    "the play aid needs its web server: install it with pip install 'kriegsspiel[aid]' "
    "(from a checkout: pip install -e '.[aid]')"
)


def set_up(
    *,
    ruleset: str | None,
    scenario: str | None,
    armies: list[str],
    turns: int | None,
    seed: int | None,
    save: str,
    new: bool,
) -> tuple[AidSession, str]:
    """The game to serve: the one saved in ``save`` (unless ``new``), else a new one of
    the lists (the edition's samples when none are given); and a line saying which."""
    from kriegsspiel.sim.matchup import army_name, build_matchup, parsed

    check_save(save)
    if Path(save).exists():
        check_replacing(save, "--save", "a play aid save", is_save)
        if not new:
            if armies or scenario or ruleset or turns is not None:
                raise UsageError(
                    f"--save {save} holds a game: it goes on with that one. Give --new to "
                    "start a new game there, or another --save file."
                )
            session = AidSession.resume(save, seed=seed)
            now = session.now
            return session, (
                f"Going on with the game saved in {save}: turn {now.turn} of {now.turns}, "
                f"{now.armies[0]} against {now.armies[1]}."
            )
    matchup = build_matchup(ruleset, scenario, armies, "tactical,tactical")
    game_scenario, army_a, army_b = parsed(matchup)
    if turns is not None and turns < 1:
        raise UsageError(f"--turns {turns}: a game lasts at least one turn; give 1 or more.")
    first = Tracker.start(matchup.ruleset, (army_a, army_b), turns or game_scenario.turns)
    names = " against ".join(army_name(a) for a in matchup.armies)
    return AidSession(first, seed=seed, save=save), (
        f"A new game of {first.rules.data.title}: {names}, {first.turns} turns; saved in "
        f"{save} after every step."
    )


def run_aid(
    *,
    ruleset: str | None,
    scenario: str | None,
    armies: list[str],
    turns: int | None,
    seed: int | None,
    save: str,
    new: bool,
    host: str,
    port: int,
    open_browser: bool,
) -> int:
    """Serve the play aid until Ctrl-C; the exit status."""
    try:
        from kriegsspiel.aid.server import create_app, serve
    except ImportError as exc:
        raise UsageError(f"{GUARD} ({exc})") from None
    session, said = set_up(
        ruleset=ruleset,
        scenario=scenario,
        armies=armies,
        turns=turns,
        seed=seed,
        save=save,
        new=new,
    )
    console = Console(highlight=False)
    console.print(escape(said))
    address = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"
    console.print(f"The play aid is at [bold]{address}[/bold] (Ctrl-C stops it; nothing is lost).")
    if open_browser:
        webbrowser.open(address)
    serve(create_app(session), host, port)
    return 0
