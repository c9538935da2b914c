"""``kriegsspiel play``: set up a game from files (or the shipped samples) and play it out."""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from kriegsspiel.ai.players import parse_seats
from kriegsspiel.errors import RULES_FILE_WANTED, GameDidNotEnd, UsageError, clause, empty_name
from kriegsspiel.outfiles import (
    SVG_KIND,
    check_output,
    check_replacing,
    is_game_record,
    is_svg,
    writing,
)
from kriegsspiel.sim.matchup import Matchup, build_matchup, play_game

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


# --quiet leaves out what happens; a person playing a side needs it to play (a probe got
# every prompt and none of the game between them): refused, not half-obeyed
QUIET_WITH_A_PERSON = (
    "--quiet prints only the result of a game the AI plays on both sides; a game you play "
    "(a 'human' seat, or --resume) is told as it goes, so leave --quiet out."
)


def run_game(
    *,
    ruleset: str | None,
    scenario: str | None,
    armies: list[str],
    seed: int | None,
    players: str,
    record: str | None,
    svg: str | None,
    quiet: bool,
    rules_file: str | None = None,
    resume: str | None = None,
    deployment: str = "list-order",
) -> int:
    """Play the game, print its account and write its record (and drawing); the exit
    status. A side played by a person ("human") is asked at the terminal
    (:mod:`kriegsspiel.solo`); ``resume`` goes on with such a game from its record.
    ``seed`` None draws a fresh one, told with the game's title to play it again."""
    from kriegsspiel.core.records import write_record
    from kriegsspiel.render.game_account import account, result_line
    from kriegsspiel.rulesets.bolt_action.game.record import header
    from kriegsspiel.rulesets.bolt_action.to_hit import hit_words

    for option, given in (("--record", record), ("--svg", svg)):
        if given is not None and not given.strip():
            raise UsageError(f"{option} needs a file name; leave it out for the default.")
    if resume is not None and not resume.strip():  # (it has no default: a new game has none)
        raise empty_name("--resume", resume, "the record of the game to go on with")
    if rules_file is not None and not rules_file.strip():
        raise empty_name("--rules-file", rules_file, RULES_FILE_WANTED)
    if quiet and resume is not None:
        raise UsageError(QUIET_WITH_A_PERSON)
    if resume is not None:
        return _resume(resume, record, svg)
    matchup = build_matchup(
        ruleset, scenario, armies, players, rules_file=rules_file, seats=True, deployment=deployment
    )
    if quiet and "human" in matchup.players:
        raise UsageError(QUIET_WITH_A_PERSON)
    drawn = seed is None
    if seed is None:
        seed = fresh_seed()
    place = Path(matchup.scenario.label).stem  # (a shipped name, or the file's)
    default = f"kriegsspiel-{matchup.ruleset}-{place}-seed{seed}.jsonl"
    record_path = record if record is not None else default  # ('' refused: an empty name)
    inputs: dict[str, str | None] = {f"the army list {a!r}": a for a in armies}
    inputs["the scenario file"] = scenario
    inputs["the rules file"] = rules_file
    check_output(record_path, "--record", inputs=inputs)
    replaces = check_replacing(record_path, "--record", "a game record", is_game_record)
    if replaces:
        _keep_a_game_in_progress(record_path, record is None)
    kinds = matchup.players
    if "human" in kinds and svg is None:
        svg = str(Path(record_path).with_suffix(".svg"))  # a person needs to see the table
    redraws = False  # (True: the drawing replaces one kriegsspiel made)
    if svg is not None:  # ('' refused: an empty name)
        redraws = _check_svg(svg, record_path, "--record", inputs)
    console = Console(highlight=False)
    army_texts = (matchup.armies[0].text, matchup.armies[1].text)
    if "human" in kinds:
        from kriegsspiel.sim.matchup import set_up_game
        from kriegsspiel.solo.human import terminal_asker
        from kriegsspiel.solo.session import SoloGame
        from kriegsspiel.solo.set_up import hand_set_up

        game = set_up_game(matchup, seed)
        _title(console, game, matchup, drawn)
        head = header(game, matchup.scenario.text, army_texts, kinds)
        head["placements"] = hand_set_up(kinds)  # (each side a person plays sets up first)
        assert svg is not None
        seats = parse_seats(",".join(kinds))
        assert seats is not None  # (build_matchup has checked them)
        solo = SoloGame(game, seats, head, record_path, svg, console, terminal_asker(console))
        return solo.play()
    try:
        game = play_game(matchup, seed)
    except GameDidNotEnd as exc:  # (a bug's, or a rules file's): the game so far is kept
        from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

        if not isinstance(exc.state, BoltActionGame):
            raise
        stopped = exc.state
        _title(console, stopped, matchup, drawn)
        if not quiet:
            rules = stopped.rules
            told = account(
                stopped.events, stopped.units, rally=rules.rally_pins.text, words=hit_words(rules)
            )
            for line in told:
                console.print(line, markup=False)
        with writing(record_path, "the record") as temp:
            head = header(stopped, matchup.scenario.text, army_texts, kinds)
            write_record(temp, head, stopped.events)
        raise GameDidNotEnd(
            f"{clause(exc)}. The game so far is recorded in {record_path} (see it with: kriegsspiel "
            f"replay --account {shlex.quote(record_path)})"
        ) from None
    _title(console, game, matchup, drawn)
    if not quiet:
        rules = game.rules
        told = account(game.events, game.units, rally=rules.rally_pins.text, words=hit_words(rules))
        for line in told:
            console.print(line, markup=False)
    console.print(result_line(game))
    with writing(record_path, "the record") as temp:
        write_record(temp, header(game, matchup.scenario.text, army_texts, kinds), game.events)
    instead = ", in place of the record that was there" if replaces else ""
    console.print(
        f"Record written to {record_path}{instead} (replay with: kriegsspiel replay "
        f"{shlex.quote(record_path)})"
    )
    if svg:
        from kriegsspiel.render.table_svg import write_svg

        with writing(svg, "--svg") as temp:
            write_svg(game, temp)
        instead = ", in place of the drawing that was there" if redraws else ""
        console.print(f"Table drawn to {svg}{instead}")
    if not quiet:
        console.print(_next_hint(svg), markup=False)
    return 0


def _next_hint(svg: str | None) -> str:
    """What to try after a game the AI played on both sides: play a side yourself, draw
    the table (unless it was drawn), see every command."""
    draw = "" if svg else ", --svg table.svg to draw the final table"
    return (
        f"Next: --players human,tactical to play side A yourself{draw}; "
        "kriegsspiel --help for every command."
    )


def _check_svg(svg: str, record: str, option: str, inputs: dict[str, str | None]) -> bool:
    """Refuse now the drawing ``svg`` that could not be written, or would destroy one of
    ``inputs`` or the record (given as ``option``), or a file that is not a drawing
    kriegsspiel made; True if it replaces one."""
    check_output(svg, "--svg", (".svg",), inputs=inputs)
    if Path(svg).resolve() == Path(record).resolve():
        raise UsageError(f"--svg and {option} both name {svg!r}; give two files.")
    return check_replacing(svg, "--svg", SVG_KIND, is_svg)


def _broken_record(path: str) -> None:
    """If ``path`` starts as a kriegsspiel record (its format named), raise what its reader
    says is wrong with it (a header field missing, say); else return, and the file stays
    refused as not a record."""
    from kriegsspiel.core.records import FORMATS
    from kriegsspiel.rulesets.bolt_action.game.record import replay

    try:
        with open(path, "rb") as file:
            first = json.loads(file.readline())
    except (OSError, ValueError, RecursionError):
        return
    if isinstance(first, dict) and first.get("format") in FORMATS:
        replay(path)  # (raises, naming the line and the field)


def _title(console: Console, game: BoltActionGame, matchup: Matchup, drawn: bool) -> None:
    """The lines that open the game: scenario, edition and seed; the sides; how it is won;
    and, if its seed was ``drawn`` fresh, how to play it again."""
    from kriegsspiel.render.game_account import opening

    rules = None if matchup.rules is None else matchup.rules.label
    first, *rest = opening(game, matchup.players, rules)
    console.print(first, style="bold", markup=False)
    if drawn:
        console.print(
            f"(a fresh seed, {game.seed}: --seed {game.seed} plays this game again)", markup=False
        )
    for line in rest:
        console.print(line, markup=False)


#: ``play --seed fresh`` draws its seed below this: a number short enough to type again
FRESH_SEEDS = 1_000_000


def fresh_seed() -> int:
    """A new seed for a game, drawn from the system's randomness (not from any seed)."""
    return random.SystemRandom().randrange(FRESH_SEEDS)


def _keep_a_game_in_progress(path: str, default: bool) -> None:
    """Refuse to write a new game over the record of one a person is still playing (it
    stopped before its end: 'quit', the end of the input, Ctrl-C): that record is the only
    copy of the game, which ``--resume`` goes on with. A finished game's record, or an AI
    game's, is replaced as any record is."""
    try:
        with open(path, "rb") as file:
            head = json.loads(file.readline())
            last = b""
            for line in file:
                if line.strip():
                    last = line
        over = json.loads(last).get("event") == "game over" if last else False
    except (OSError, ValueError, RecursionError, AttributeError):
        return  # (not readable as a record: check_replacing has had its say)
    players = head.get("players") if isinstance(head, dict) else None
    if over or not isinstance(players, list) or "human" not in players:
        return
    named = "the default record" if default else "--record"
    raise UsageError(
        f"{path} ({named}) holds a game a person is playing that has not ended: go on with "
        f"it with 'kriegsspiel play --resume {shlex.quote(path)}', or give another --record "
        "(or move that file aside) to start a new game; it is not written over."
    )


def _resume(path: str, record: str | None, svg: str | None) -> int:
    """Go on with the game saved in the record at ``path`` (it is saved there again)."""
    from kriegsspiel.solo.human import terminal_asker
    from kriegsspiel.solo.session import resumed

    if record is not None:
        raise UsageError("--resume goes on writing the record it is given; leave --record out.")
    check_output(path, "--resume")
    if not _starts_as_a_record(path):
        _broken_record(path)  # (a record broken in its header: said at its line and field)
        raise UsageError(
            f"--resume {path!r} is not a kriegsspiel game record (its line 1 is no record "
            "header); give the record of a game of 'kriegsspiel play' (--record, or the "
            "name it printed when you stopped)."
        )
    svg = svg or str(Path(path).with_suffix(".svg"))
    _check_svg(svg, path, "--resume", {"the record to resume": path})
    console = Console(highlight=False)
    ask = terminal_asker(console)
    return resumed(path, svg_path=svg, console=console, ask=ask).play()


def _starts_as_a_record(path: str) -> bool:
    """Whether the file at ``path`` starts as a game record (its header on line 1); True
    where it cannot be read, for the reader to say why (a missing file, say)."""
    try:
        with open(path, "rb") as file:
            return is_game_record(file.read(1 << 20))
    except OSError:
        return True
