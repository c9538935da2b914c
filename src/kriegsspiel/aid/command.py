"""``kriegsspiel aid``: the play aid for a game on a real table, served to a browser."""

from __future__ import annotations

import errno
import shlex
import socket
import webbrowser
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from kriegsspiel.aid import DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SAVE
from kriegsspiel.aid.session import AidSession, check_save, is_save
from kriegsspiel.aid.tracker import Tracker
from kriegsspiel.core.scenario import MOST_TURNS
from kriegsspiel.errors import RULES_FILE_WANTED, UsageError, empty_name
from kriegsspiel.outfiles import check_replacing

GUARD = (
    "the play aid needs its web server: install it with pip install 'kriegsspiel[aid]' "
    "(from a checkout: pip install -e '.[aid]')"
)


@dataclass(frozen=True, slots=True)
class GameAsked:
    """The game the command line asks for: the lists (the edition's samples when none are
    given), the turns (the scenario's by default), the dice's seed and the save file."""

    ruleset: str | None = None
    scenario: str | None = None
    armies: tuple[str, ...] = ()
    turns: int | None = None
    seed: int | None = None
    save: str = DEFAULT_SAVE
    new: bool = False
    rules_file: str | None = None  # a designer's rules (the save then holds their text)


def _order_dice_edition(ruleset: str) -> None:
    """Refuse an edition without an order-dice bag, by what the aid needs: it keeps the
    bag of the Bolt Action family (Iron Cross activates with command points, House
    Clearing rolls figures up)."""
    from kriegsspiel.rulesets import check_ruleset
    from kriegsspiel.sim.matchup import GAME_RULESETS

    name = check_ruleset(ruleset)
    if name not in GAME_RULESETS:
        raise UsageError(
            f"--ruleset {ruleset}: the play aid keeps an order-dice bag, which only "
            f"{' and '.join(GAME_RULESETS)} have ({name} has none); give --ruleset "
            f"{GAME_RULESETS[0]} or {GAME_RULESETS[1]}."
        )


def set_up(asked: GameAsked) -> tuple[AidSession, str]:
    """The game to serve: the one saved in ``asked.save`` (unless ``asked.new``), else a
    new one of the lists; and a line saying which."""
    from kriegsspiel.sim.matchup import army_name, build_matchup, parsed

    check_save(asked.save)
    if Path(asked.save).exists():
        check_replacing(asked.save, "--save", "a play aid save", is_save)
        if not asked.new:
            start = AidSession.saved_start(asked.save)
            clashes, notes = _against_save(asked, start)
            if clashes:
                again = f"kriegsspiel aid --save {shlex.quote(asked.save)}"
                raise UsageError(
                    f"--save {asked.save} holds a game ({start.armies[0]} against "
                    f"{start.armies[1]}, {start.ruleset}, {start.length_text()}) that "
                    + ("this option does" if len(clashes) == 1 else "these options do")
                    + f" not agree with: {'; '.join(clashes)}. To go on with the saved game, "
                    f"run {again} (the options that agree with it may stay); to start a new "
                    "game there instead, add --new (it writes over the save); or give "
                    "another --save file."
                )
            session = AidSession.resume(asked.save, seed=asked.seed)
            now = session.now
            return session, " ".join(
                [
                    f"Going on with the game saved in {asked.save}: turn {now.turn} of "
                    f"{now.turns}, {now.armies[0]} against {now.armies[1]}.",
                    *notes,
                    *session.notes,
                ]
            )
    if asked.ruleset is not None:
        _order_dice_edition(asked.ruleset)
    if asked.rules_file is not None and not asked.rules_file.strip():
        raise empty_name("--rules-file", asked.rules_file, RULES_FILE_WANTED)
    if asked.turns is not None and asked.turns < 1:
        raise UsageError(f"--turns {asked.turns}: a game lasts at least one turn; give 1 or more.")
    if asked.turns is not None and asked.turns > MOST_TURNS:
        raise UsageError(
            f"--turns {asked.turns:,}: kriegsspiel plays games of at most {MOST_TURNS} turns "
            f"(a tool limit, not a rule; the shipped scenarios are 6 turns); give 1 to "
            f"{MOST_TURNS}."
        )
    matchup = build_matchup(
        asked.ruleset,
        asked.scenario,
        asked.armies,
        "tactical,tactical",
        rules_file=asked.rules_file,
    )
    game_scenario, army_a, army_b = parsed(matchup)
    first = Tracker.start(
        matchup.ruleset,
        (army_a, army_b),
        asked.turns or game_scenario.turns,
        rules_file=matchup.rules_file,
        rules_text=matchup.rules_text,
        victory=game_scenario.victory,
        # --turns: that many turns, no roll for another (the players' own length)
        another_turn_on=game_scenario.another_turn_on if asked.turns is None else None,
    )
    names = " against ".join(army_name(a) for a in matchup.armies)
    house = "" if matchup.rules_file is None else f" by the rules in {matchup.rules_file}"
    return AidSession(first, seed=asked.seed, save=asked.save), (
        f"A new game of {first.rules.data.title}{house}: {names}, {first.length_text()}; saved "
        f"in {asked.save} after every step."
    )


def _against_save(asked: GameAsked, start: Tracker) -> tuple[list[str], list[str]]:
    """The options given with a ``--save`` that holds a game, set against the game's
    start: each that does not agree with it, with what the save holds; and notes for the
    players (a rules file changed since the game began: the save's copy plays on).

    The save holds the edition, the lists' units, the turns, the rules file's name and
    text and how the scenario is won (not its name: a ``--scenario`` agrees where its
    turns, unless ``--turns`` is given, and its victory do)."""
    from kriegsspiel.sim.matchup import Source, build_matchup, game_ruleset, parsed

    clashes: list[str] = []
    notes: list[str] = []
    if asked.ruleset is not None and game_ruleset(asked.ruleset) != start.ruleset:
        clashes.append(f"--ruleset {asked.ruleset} (the saved game is {start.ruleset})")
    if asked.rules_file is not None:
        if not asked.rules_file.strip():
            raise empty_name("--rules-file", asked.rules_file, RULES_FILE_WANTED)
        given = str(Path(asked.rules_file))
        if start.rules_file is None:
            clashes.append(
                f"--rules-file {asked.rules_file} (the saved game is played by the "
                "edition's own rules)"
            )
        elif given != start.rules_file:
            clashes.append(
                f"--rules-file {asked.rules_file} (the saved game is played by the rules in "
                f"{start.rules_file})"
            )
        elif _text_now(given) not in (None, start.rules_text):
            notes.append(
                f"{given} has changed since the game began: it goes on by the rules as they "
                "were then (the save holds them)."
            )
    if asked.turns is not None and (asked.turns, None) != (start.turns, start.another_turn_on):
        clashes.append(f"--turns {asked.turns} (the saved game has {start.length_text()})")
    if clashes or not (asked.armies or asked.scenario):
        return clashes, notes
    # the lists and the scenario as the saved game's edition and rules read them
    rules = None if start.rules_text is None else Source(start.rules_file or "", start.rules_text)
    matchup = build_matchup(start.ruleset, asked.scenario, asked.armies, rules_file=rules)
    scenario, army_a, army_b = parsed(matchup)
    if asked.armies:
        again = Tracker.start(
            start.ruleset,
            (army_a, army_b),
            start.turns,
            rules_file=start.rules_file,
            rules_text=start.rules_text,
            victory=start.victory,
            another_turn_on=start.another_turn_on,
        )
        if (again.armies, again.units) != (start.armies, start.units):
            names = " ".join(f"--army {a}" for a in asked.armies)
            same = again.armies == start.armies
            clashes.append(
                f"{names} (the saved game is {start.armies[0]} against {start.armies[1]}"
                + (": lists of those names, but not as they were when it began)" if same else ")")
            )
    if asked.scenario:
        if start.victory is not None and scenario.victory != start.victory:
            clashes.append(
                f"--scenario {asked.scenario} (won on {scenario.victory}; the saved game is "
                f"won on {start.victory})"
            )
        elif asked.turns is None and (scenario.turns, scenario.another_turn_on) != (
            start.turns,
            start.another_turn_on,
        ):
            fixed = (
                f": give --turns {start.turns} with it, or leave it out"
                if start.another_turn_on is None
                else ": leave it out"
            )
            clashes.append(
                f"--scenario {asked.scenario} ({scenario.length_text()}; the saved game has "
                f"{start.length_text()}{fixed})"
            )
    return clashes, notes


def _text_now(path: str) -> str | None:
    """A rules file's text as it is now, or None if it cannot be read (gone)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def run_aid(
    asked: GameAsked, *, host: str, port: int, open_browser: bool, password: str | None = None
) -> int:
    """Serve the play aid until Ctrl-C; the exit status. With a ``password`` only those
    who give it may change the game."""
    try:
        from kriegsspiel.aid.server import create_app, serve
    except ImportError as exc:
        raise UsageError(f"{GUARD} ({exc})") from None
    if password is not None and not password.strip():
        raise UsageError("--password needs a word; leave it out to serve without one.")
    _check_free(host, port)
    session, said = set_up(asked)
    console = Console(highlight=False)
    console.print(escape(said))
    address = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"
    console.print(f"The play aid is at [bold]{address}[/bold] (Ctrl-C stops it; nothing is lost).")
    if password is not None:
        console.print("Its page asks for the password before the first step; anyone may watch.")
    elif host not in ("127.0.0.1", "localhost", "::1"):
        console.print(
            escape(
                f"Served on {host} without --password: anyone who can reach it can change the "
                "game (give --password WORD to keep the steps to the players)."
            )
        )
    if open_browser:
        webbrowser.open(address)
    serve(create_app(session, password), host, port)
    again = going_on(asked.save, host=host, port=port, open_browser=open_browser)
    keyed = "" if password is None else ", given --password and its word again"
    console.print(
        escape(f"Stopped. The game is saved in {asked.save}: {again} goes on with it{keyed}."),
        soft_wrap=True,  # (the command never broken, so it is copied whole)
    )
    return 0


def going_on(save: str, *, host: str, port: int, open_browser: bool) -> str:
    """The command that goes on with the game saved in ``save``, served as it was: with
    each option it was started with that the save does not hold (the save file, the
    address, the port, no browser) where it was not the default. (A password is not
    repeated on the screen: the stop message asks for it in words.)"""
    words = ["kriegsspiel", "aid"]
    if save != DEFAULT_SAVE:
        words += ["--save", save]
    if host != DEFAULT_HOST:
        words += ["--host", host]
    if port != DEFAULT_PORT:
        words += ["--port", str(port)]
    if not open_browser:
        words.append("--no-open")
    return shlex.join(words)


HOSTS = (
    "give an address of this machine: 127.0.0.1 (this machine only, the default) or "
    "0.0.0.0 (every network it is on)"
)


def _check_free(host: str, port: int) -> None:
    """Refuse now an address the server could not listen on: a host that is no address
    (or none of this machine's), or a port another program has."""
    if not host.strip():
        raise UsageError(f"--host was given an empty name ({host!r}); {HOSTS}.")
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:  # (socket.gaierror: no such name or address)
        why = getattr(exc, "strerror", None) or exc
        raise UsageError(f"--host {host}: there is no such address ({why}); {HOSTS}.") from None
    family, kind, _, _, address = found[0]
    with socket.socket(family, kind) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRNOTAVAIL:
                raise UsageError(
                    f"--host {host}: not an address of this machine ({exc.strerror or exc}), "
                    f"so nothing can be served there; {HOSTS}."
                ) from None
            raise UsageError(
                f"--host {host} --port {port}: cannot serve there ({exc.strerror or exc}); "
                "give another --port (or stop what is using it)"
            ) from None
