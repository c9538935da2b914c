"""A matchup (ruleset, scenario, two army lists, two kinds of player, and a designer's
rules file, if any) and one game of it.

The same function sets up and plays a game for ``kriegsspiel play`` and for the batch
simulator, so any game of an evaluation can be watched again with ``play --seed``.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from kriegsspiel.ai.players import (
    SPEC_EXAMPLE,
    PlayerKind,
    Seat,
    parse_players,
    parse_seats,
    parse_spec,
)
from kriegsspiel.core import arguments
from kriegsspiel.core.names import a_or_an
from kriegsspiel.core.seeds import side_seed
from kriegsspiel.errors import (
    RULES_FILE_WANTED,
    DataFileError,
    ParameterError,
    UsageError,
    UsageTypeError,
    did_you_mean,
    empty_name,
    named,
    nearest,
)
from kriegsspiel.rulesets import check_ruleset

if TYPE_CHECKING:
    from kriegsspiel.ai.players import Player
    from kriegsspiel.core.scenario import Scenario
    from kriegsspiel.rulesets.bolt_action.army import ArmyList
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

PLAYER_KINDS: tuple[str, ...] = get_args(PlayerKind)
SEATS: tuple[str, ...] = get_args(Seat)
GAME_RULESETS = ("konflikt47", "bolt-action-1")
DEPLOYED = ", deployment "
#: The hex digits of a file's digest shown wherever one is shown (a key keeps all 16).
SHOWN_DIGEST = 8  # how a store's ruleset column tells a shuffled deployment


@dataclass(frozen=True, slots=True)
class Source:
    """A file's label (as the user gave it, or a shipped sample's name) and its text."""

    label: str
    text: str
    # a list a sweep made (a variant's), which has no file of its own: the file the sweep's
    # --lists-to writes it to, as the command that plays it names it, and (if it is not
    # written yet) how to write it. Not part of what the list is (its games are its text's).
    as_file: str | None = field(default=None, compare=False)
    how_to_write: str | None = field(default=None, compare=False)

    @property
    def digest(self) -> str:
        """A hash of what the file says, not how: comments, spacing and the order of a
        mapping's fields change nothing (so editing a comment keeps a list's stored games)."""
        return _digest(self.text)

    @property
    def short_digest(self) -> str:
        """The start of :attr:`digest`, as every output shows a rules file's (the text,
        ``--json``, the results store's labels): enough to tell two versions apart."""
        return self.digest[:SHOWN_DIGEST]


@lru_cache(maxsize=256)
def _digest(text: str) -> str:
    import yaml

    from kriegsspiel.core.datafile import yaml_data

    try:
        content = "data " + json.dumps(_shots_as_text(yaml_data(text)), sort_keys=True)
    except (yaml.YAMLError, TypeError, ValueError, RecursionError):
        # not plain data (a date, bytes, keys of mixed kinds, an anchor inside itself): the
        # text itself, which the checks refuse or which only a copy of the file matches
        content = "text " + text
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:16]


def _shots_as_text(data: Any) -> Any:
    """``data`` with a rules file's weapon shots written 2 taken as "2", as they are read
    (shots are text, for dice): the one rules file, whichever it writes, has one digest."""
    if isinstance(data, list):
        return [_shots_as_text(item) for item in data]
    if not isinstance(data, dict):
        return data
    return {
        key: str(value)
        if key == "shots" and isinstance(value, int) and not isinstance(value, bool)
        else _shots_as_text(value)
        for key, value in data.items()
    }


@dataclass(frozen=True, slots=True)
class Matchup:
    """Army A against army B on a scenario; ``players`` are A's and B's, as ``--players``
    names them (the tactical AI with its options: "tactical:explore=2");
    ``rules``, a designer's rules file (a modified copy of the edition's data file) the
    games are played by, or None for the edition's shipped data."""

    ruleset: str
    scenario: Source
    armies: tuple[Source, Source]
    players: tuple[str, str] = ("tactical", "tactical")
    rules: Source | None = None
    # the order each side's units set up in: "list-order" (the rules') or "shuffled"
    # (drawn for each game from its seed, so a unit's place in its list decides nothing)
    deployment: str = "list-order"

    @property
    def key(self) -> str:
        """Content hash: the same files and players give the same key wherever they live
        (a player with its options, "tactical:explore=2", is another player). A rules
        file adds what it says (its digest), and a shuffled deployment says so: games
        under other rules, or set up otherwise, are other games. Without them (and with
        players without options), the key is what it was before they were played, so the
        games stored then are still found."""
        parts = [self.ruleset, self.scenario.digest, *(a.digest for a in self.armies)]
        house = [] if self.rules is None else [f"rules {self.rules.digest}"]
        order = [] if self.deployment == "list-order" else [f"deployment {self.deployment}"]
        return hashlib.sha256(
            "|".join([*parts, *self.players, *house, *order]).encode()
        ).hexdigest()[:20]

    @property
    def rules_file(self) -> str | None:
        """The rules file's label (as given), or None for the shipped rules."""
        return None if self.rules is None else self.rules.label

    @property
    def rules_text(self) -> str | None:
        """The rules file's text, or None for the shipped rules."""
        return None if self.rules is None else self.rules.text

    @property
    def described_ruleset(self) -> str:
        """The ruleset, and the rules file if there is one (with a short digest of what it
        says: two versions of one file are told apart), and a shuffled deployment, as the
        results store lists it ("konflikt47, deployment shuffled")."""
        house = (
            ""
            if self.rules is None
            else (f" with rules file {self.rules.label} ({self.rules.short_digest})")
        )
        order = "" if self.deployment == "list-order" else f"{DEPLOYED}{self.deployment}"
        return f"{self.ruleset}{house}{order}"

    @property
    def names(self) -> tuple[str, str]:
        """Army A's and army B's names as reports show them (:func:`told_apart`): with
        their files where two different lists share a name."""
        a, b = told_apart(self.armies)
        return a, b

    @property
    def title(self) -> str:
        return " v ".join(self.names)

    def mirrored(self) -> Matchup:
        """The same matchup seen from the other side: army B (and its player) as army A.

        Its games are this matchup's games, with A and B's results exchanged: every
        evaluation swaps the armies' sides in half its games, so nothing favours A.
        """
        return Matchup(
            self.ruleset,
            self.scenario,
            (self.armies[1], self.armies[0]),
            (self.players[1], self.players[0]),
            self.rules,
            self.deployment,
        )

    def play_command(self, seed: int, swapped: bool) -> str:
        """The ``kriegsspiel play`` command that replays one game of this matchup, quoted
        for a POSIX shell (a list's path may hold spaces or quotes) so it can be pasted; a
        variant's list is named by the file a sweep writes it to (see :meth:`play_note`)."""
        first, second = (1, 0) if swapped else (0, 1)
        scenario, army_a, army_b = (
            shlex.quote(source.as_file or source.label)
            for source in (self.scenario, self.armies[first], self.armies[second])
        )
        rules = "" if self.rules is None else f" --rules-file {shlex.quote(self.rules.label)}"
        order = "" if self.deployment == "list-order" else f" --deployment {self.deployment}"
        return (
            f"kriegsspiel play --ruleset {self.ruleset}{rules} --scenario {scenario} "
            f"--army {army_a} --army {army_b} "
            f"--players {self.players[first]},{self.players[second]} --seed {seed}{order}"
        )

    def play_note(self) -> str:
        """What to do before :meth:`play_command` can run, in parentheses ("" if nothing):
        write out a variant's list, which has no file until a sweep writes it."""
        notes = dict.fromkeys(a.how_to_write for a in self.armies if a.how_to_write)
        return "".join(f" ({note})" for note in notes)


def is_named(given: str, sample: Path) -> bool:
    """Does ``given`` name the shipped ``sample`` (its name, with or without its ending,
    in any case)?"""
    return given.lower() in (sample.stem.lower(), sample.name.lower())


def pick_file(kind: str, given: str, samples: list[Path], base: Path | None = None) -> Path:
    """A file path (relative to ``base`` if given), or the stem of a shipped sample."""
    if not given.strip():  # (Path("") is the current folder: not what was meant)
        shipped = ", ".join(s.stem for s in samples)
        raise UsageError(
            f"{kind} was given an empty name ({given!r}); give {a_or_an(kind)} file, or a shipped "
            f"{kind}: {shipped}."
        )
    places = ([base / given] if base else []) + [Path(given)]
    for path in places:
        if path.is_file():
            return path
    for sample in samples:  # shipped names, as other names, in any case
        if is_named(given, sample):
            return sample
    names = ", ".join(s.stem for s in samples)
    refuse_non_file(kind, given, places)
    if kind == "army":
        from kriegsspiel.rulesets.bolt_action.army import sample_armies

        current = next((r for r in GAME_RULESETS if sample_armies(r) == samples), None)
        for other in GAME_RULESETS:
            if other != current and any(is_named(given, p) for p in sample_armies(other)):
                ask = named(
                    "ruleset",
                    shown=f"{other} (in a sweep file, ruleset: {other})",
                    python=f"ruleset={other!r}",
                )
                raise ParameterError(
                    f"army {given!r} is a shipped {other} list, but this matchup is played "
                    f"under {current or 'another ruleset'} (its shipped lists: {names}); to "
                    f"play it, give {ask}."
                )
    for path in places:
        for suffix in (".yaml", ".yml"):
            near = path.with_name(path.name + suffix)
            if near.is_file():  # a file named without its ending: said, not guessed (a
                raise UsageError(  # shipped name and a file could otherwise be confused)
                    f"{kind} {given!r}{did_you_mean([str(near)])} is neither a file nor a "
                    f"shipped {kind} ({names}): give a file's name with its ending."
                )
    hint = did_you_mean(shipped_near(given, samples))
    raise UsageError(f"{kind} {given!r}{hint} is neither a file nor a shipped {kind} ({names}).")


def shipped_near(given: str, samples: list[Path]) -> list[str]:
    """The shipped samples' names nearest ``given`` ("us-tesla": us-tesla-company), if any
    is near; none for a path (a file's name is not a shipped one's)."""
    if "/" in given or given.lower().endswith((".yaml", ".yml")):
        return []
    return nearest(given, [s.stem for s in samples])


def refuse_non_file(kind: str, given: str, places: list[Path]) -> None:
    """A UsageError if one of ``places`` (where ``given`` was looked for) is a folder or a
    broken link: said so, not "neither a file nor a shipped ..."."""
    from kriegsspiel.core.datafile import not_a_file

    for path in places:
        problem = not_a_file(path)
        if problem is not None:
            raise UsageError(f"{kind} {given!r} {problem}.")


def read_source(kind: str, given: str, samples: list[Path], base: Path | None = None) -> Source:
    path = pick_file(kind, given, samples, base)
    label = path.stem if path in samples else str(path)
    try:
        return Source(label, path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:  # (told as a data file that is not text is told)
        from kriegsspiel.core.datafile import not_text

        told = not_text(exc, "a YAML file written in a text editor")
        raise UsageError(f"cannot read {kind} file {path}: it {told}") from None
    except OSError as exc:  # (as a data file is told: "cannot be read (Permission denied)")
        raise UsageError(
            f"{kind} file {path} cannot be read ({exc.strerror or exc}); make it readable, "
            "or give another file."
        ) from None


def game_ruleset(ruleset: str) -> str:
    """The ruleset's name, if whole games of it are played; else a UsageError saying so."""
    ruleset = check_ruleset(ruleset)
    if ruleset not in GAME_RULESETS:
        raise UsageError(f"whole games are built for konflikt47 and bolt-action-1, not {ruleset}.")
    return ruleset


def lists_ruleset(
    armies: Sequence[str], base: Path | None = None, rules: Source | None = None
) -> str:
    """The ruleset to play ``armies`` under when none is asked for: the one their files
    name (``ruleset:``) or whose shipped lists they are, if they agree; else the one the
    rules file ``rules`` is the data of, if one is given (no lists given: its samples);
    else the default, konflikt47 (whose check then says what a list is for, and how to
    ask for it)."""
    named = {edition for given in armies if (edition := list_edition(given, base)) is not None}
    if len(named) == 1:
        return named.pop()
    house = None if rules is None else rules_edition(rules)
    return house if not named and house is not None else "konflikt47"


def list_edition(given: str, base: Path | None = None) -> str | None:
    """The edition the list ``given`` is for: the one its file names (``ruleset:``), or
    whose shipped list it is; None if it cannot be told (its own check says why)."""
    from kriegsspiel.rulesets.bolt_action.army import sample_armies

    places = ([base / given] if base else []) + [Path(given)]
    path = next((p for p in places if p.is_file()), None)
    if path is None:
        shipped = [r for r in GAME_RULESETS if any(is_named(given, p) for p in sample_armies(r))]
        return shipped[0] if len(shipped) == 1 else None
    try:
        return text_edition(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeError):
        return None  # (the list's own check tells what is wrong with it)


def text_edition(text: str) -> str | None:
    """The edition a list's ``text`` names (``ruleset:``), if it names one whose games are
    played; None otherwise (its own check says what is wrong)."""
    import yaml

    from kriegsspiel.core.datafile import yaml_data

    try:
        data = yaml_data(text)
    except (yaml.YAMLError, ValueError, TypeError, RecursionError):
        return None
    named = data.get("ruleset") if isinstance(data, dict) else None
    return named if named in GAME_RULESETS else None


def check_one_edition(armies: Sequence[str], base: Path | None = None) -> None:
    """Refuse two lists for different editions, saying which list is which (each was
    refused as the other edition's, and asking for that edition refused the other)."""
    from kriegsspiel.rulesets import RULESETS

    editions = [list_edition(given, base) for given in armies]
    if len(armies) != 2 or None in editions or editions[0] == editions[1]:
        return
    told = [
        f"army {side} ({given}) is a {RULESETS[str(edition)]} list ({edition})"
        for side, given, edition in zip("AB", armies, editions, strict=True)
    ]
    raise UsageError(
        f"the two lists are for different editions: {told[0]}, {told[1]}; a game is played "
        "under one edition: give two lists of the same one."
    )


def rules_named(rules: Source | None) -> dict[str, str | None]:
    """The rules file games were played (or lists and scenarios checked) by, as every
    ``--json`` names it: its label and the start of a digest of what it says, as results
    lists it (two versions of one file told apart); both None for the shipped rules."""
    return {
        "rules_file": None if rules is None else rules.label,
        "rules_digest": None if rules is None else rules.short_digest,
    }


def read_rules(given: str, base: Path | None = None) -> Source:
    """A designer's rules file (``--rules-file``; a sweep's ``rules_file``, looked for
    beside the sweep file first: ``base``) as a Source named by its path; DataFileError,
    as ``odds --rules-file`` tells it, if it cannot be read (none there, a folder)."""
    from kriegsspiel.core.datafile import read_yaml_text

    if not given.strip():  # (Path("") is the current folder: not what was meant)
        raise empty_name(named("rules_file"), given, RULES_FILE_WANTED)
    places = ([base / given] if base else []) + [Path(given)]
    # the first file there; else the first thing there at all (a folder, a link to nothing:
    # told as such, not as a file missing from the current folder)
    there = [p for p in places if p.exists() or p.is_symlink()]
    path = next((p for p in places if p.is_file()), there[0] if there else places[-1])
    return Source(str(path), read_yaml_text(path))


def rules_edition(rules: Source) -> str | None:
    """The edition whose data a rules file says it is (its ``ruleset``), if it names one
    whose games are played (None if it names none: its check says what is wrong)."""
    import yaml

    from kriegsspiel.core.datafile import yaml_data

    try:
        data = yaml_data(rules.text)
    except (yaml.YAMLError, ValueError, TypeError, RecursionError):
        return None
    named = data.get("ruleset") if isinstance(data, dict) else None
    return named if named in GAME_RULESETS else None


def check_rules(
    ruleset: str,
    rules: Source,
    asked: str = "the edition asked for",
    *,
    sweep: bool = False,
    charts: bool = False,
) -> None:
    """Refuse a rules file that is another edition's data than ``ruleset``'s, saying so
    (``asked``: what ``ruleset`` is, e.g. "the sweep file's ruleset"; ``sweep``: the file
    is a sweep file's ``rules_file``, where the problem is told; ``charts``: the file's
    charts are asked for, with no lists), and a broken one at its line and field
    (DataFileError), before any list is checked or game set up."""
    from kriegsspiel.rulesets.bolt_action.edition import rules_for
    from kriegsspiel.rulesets.rules_data import other_data, other_edition

    given = named("rules_file", shown=rules.label, python=f"rules_file {rules.label}")
    label = f"this file ({rules.label})" if sweep else given
    other_data(
        label,
        rules.text,
        ruleset,
        may_ask=GAME_RULESETS,
        asked_by="games are played by",
        path=rules.label,
    )
    edition = rules_edition(rules)
    this = label if sweep else f"{label}: this file"
    said = other_edition(this, rules.label, rules.text, ruleset, asked)
    if said is not None and edition is not None:
        ask = (
            f"ruleset: {edition}"
            if sweep
            else named("ruleset", shown=edition, python=f"ruleset={edition!r}")
        )
        other = f"ask for the {edition} charts ({ask})" if charts else f"lists of {edition} ({ask})"
        raise ParameterError(f"{said}; give a copy of the {ruleset} data file, or {other}.")
    rules_for(ruleset, rules.label, rules.text)


def read_scenario(given: str | None, base: Path | None = None) -> Source:
    """A scenario: its file (a path, relative to ``base`` if given) or a shipped one's
    name; None: the shipped sample (the last shipped scenario)."""
    from kriegsspiel.core.scenario import sample_scenarios

    scenarios = sample_scenarios()
    # ('' is refused as an empty name, not taken for the sample)
    chosen = given if given is not None else scenarios[-1].stem
    return read_source("scenario", chosen, scenarios, base)


def build_matchup(
    ruleset: str | None,
    scenario: str | Path | None,
    armies: Sequence[str | Path],
    players: str | Sequence[str] = "tactical,tactical",
    base: Path | None = None,
    rules_file: str | Path | Source | None = None,
    *,
    seats: bool = False,
    deployment: str = "list-order",
) -> Matchup:
    """Resolve names and files into a checked matchup (samples when none are given).

    ``scenario`` and each of ``armies`` (army A, then army B; none for the ruleset's two
    samples) is a file (a path, relative to ``base`` if given) or a shipped one's name;
    ``players`` is "tactical,random" or ("tactical", "random"), army A's first. A
    ``ruleset`` of None is the lists' own (:func:`lists_ruleset`). ``rules_file``, a
    designer's rules file (its path, or as read: a Source), is what the lists are checked
    against and the games played by; None: the edition's shipped data. ``seats``: a
    person may play a side ("human", for one game at the terminal, not for many).
    ``deployment``: "list-order" (the rules') or "shuffled" (each game's units set up in an
    order drawn from its seed)."""
    from kriegsspiel.rulesets.bolt_action.army import sample_armies
    from kriegsspiel.rulesets.bolt_action.game.set_up_order import check_deployment

    _check_kinds(ruleset, scenario, armies)
    check_deployment(deployment)
    check_one_edition([str(army) for army in armies], base)
    if not isinstance(rules_file, Source | None):  # (a str or a Path; else refused by name)
        arguments.path(
            "rules_file",
            rules_file,
            f"rules_file is a file's path (a str or a pathlib.Path): {RULES_FILE_WANTED}; "
            f"not {rules_file!r}.",
        )
    rules = rules_file if isinstance(rules_file, Source | None) else read_rules(str(rules_file))
    asked = f"the edition {named('ruleset', python=f'ruleset={ruleset!r}')} asks for"
    if ruleset is None:
        ruleset = lists_ruleset([str(army) for army in armies], base, rules)
        asked = "the edition the lists are for" if armies else "the edition asked for"
    ruleset = game_ruleset(ruleset)
    if rules is not None:
        check_rules(ruleset, rules, asked)
    if not isinstance(players, str):
        players = ",".join(players)
    scenario = None if scenario is None else str(scenario)
    given = [str(army) for army in armies]
    try:
        kinds = parse_seats(players) if seats else parse_players(players)
    except UsageError as exc:
        raise ParameterError(f"{named('players')}: {exc}") from None
    if kinds is None:
        kinds_named = SEATS if seats else PLAYER_KINDS
        example = "human,tactical" if seats else "tactical,random"
        raise ParameterError(
            f"{named('players')} takes two of {'/'.join(kinds_named)} (the tactical AI with "
            f"its options, as {SPEC_EXAMPLE}), e.g. {example} (got {players!r})."
            + (
                " A person plays one game at a time: 'human' is for kriegsspiel play."
                if not seats and "human" in players.lower()
                else ""
            )
        )
    if len(given) not in (0, 2):
        raise ParameterError(
            f"give {named('two armies', python='two armies (army A, then army B: names or files)')}"
            ", or none for the samples."
        )
    chosen = read_scenario(scenario, base)
    samples = sample_armies(ruleset)
    names = given or [p.stem for p in samples[:2]]
    sources = (
        read_source("army", names[0], samples, base),
        read_source("army", names[1], samples, base),
    )
    matchup = Matchup(ruleset, chosen, sources, (kinds[0], kinds[1]), rules, deployment)
    check_setup(matchup)
    return matchup


def army_list(armies: object) -> object:
    """Python callers' armies as a list (any sequence or iterable of them); a name or
    file, or anything else, left as it is for :func:`build_matchup` to refuse by name."""
    if isinstance(armies, str | Path):
        return armies
    try:
        return list(armies)  # type: ignore[call-overload]
    except TypeError:
        return armies


def _check_kinds(ruleset: object, scenario: object, armies: object) -> None:
    """Refuse arguments of the wrong kind, as Python callers may give them, by name (each
    a UsageTypeError: a TypeError too)."""
    if ruleset is not None:
        arguments.text(
            "ruleset", ruleset, f"the ruleset is a name such as konflikt47, not {ruleset!r}."
        )
    if scenario is not None:
        arguments.path(
            "scenario",
            scenario,
            f"the scenario is a file or a shipped one's name, not {scenario!r}.",
        )
    if isinstance(armies, str | Path) or not isinstance(armies, list | tuple):
        raise UsageTypeError(
            f"the armies are a list of two files or shipped names (army A, then army B), or "
            f"none for the samples; not {armies!r}."
        )
    for army in armies:
        arguments.path("army", army, f"an army is a file or a shipped list's name, not {army!r}.")


def check_setup(matchup: Matchup) -> None:
    """Refuse now, with its message, a matchup whose files are broken or whose lists do not
    fit the scenario's deployment zones (each list in each zone), not later in a worker."""
    from kriegsspiel.core.datafile import problem_at
    from kriegsspiel.rulesets.bolt_action.game.deployment import ZoneFullError
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
    from kriegsspiel.rulesets.bolt_action.game.table_rules import TerrainCategoryError

    scenario, army_a, army_b = parsed(matchup)
    for pair in ((army_a, army_b), (army_b, army_a)):
        try:
            BoltActionGame(
                matchup.ruleset,
                scenario,
                pair,
                rules_file=matchup.rules_file,
                rules_text=matchup.rules_text,
            )
        except ZoneFullError as exc:
            if exc.zone is None:
                raise
            told = problem_at(matchup.scenario.text, ("deployment", exc.zone), str(exc))
            raise DataFileError(matchup.scenario.label, [told]) from None
        except TerrainCategoryError as exc:
            raise exc.in_file(matchup.scenario.label, matchup.scenario.text) from None


@cache
def _parsed(
    ruleset: str, scenario: Source, army_a: Source, army_b: Source, rules: Source | None = None
) -> tuple[Scenario, ArmyList, ArmyList]:
    from kriegsspiel.core.scenario import parse_scenario
    from kriegsspiel.rulesets.bolt_action.army import parse_army

    house: dict[str, str | None] = {"rules_file": None, "rules_text": None}
    if rules is not None:  # (the lists are checked against the rules they are played by)
        house = {"rules_file": rules.label, "rules_text": rules.text}
    return (
        parse_scenario(scenario.text, scenario.label),
        parse_army(army_a.text, army_a.label, ruleset, **house),
        parse_army(army_b.text, army_b.label, ruleset, **house),
    )


def parsed(matchup: Matchup) -> tuple[Scenario, ArmyList, ArmyList]:
    """The validated scenario and lists, parsed once per process."""
    return _parsed(matchup.ruleset, matchup.scenario, *matchup.armies, matchup.rules)


def army_name(source: Source) -> str:
    import yaml

    from kriegsspiel.core.datafile import yaml_data

    try:
        data = yaml_data(source.text)
    except yaml.YAMLError:
        return source.label
    return str(data.get("name", source.label)) if isinstance(data, dict) else source.label


def told_apart(sources: Sequence[Source]) -> list[str]:
    """Each list's name, and where two different lists share one (a copy of a shipped list,
    changed but not renamed), its file too: the file's name, or its whole path where two
    such files share a name (a shipped list's file is its shipped name)."""
    names = [army_name(s) for s in sources]
    texts: dict[str, dict[str, Source]] = {}  # each name: its lists, by what they say
    for name, source in zip(names, sources, strict=True):
        texts.setdefault(name, {}).setdefault(source.digest, source)

    def file(name: str, source: Source) -> str:
        short = [Path(s.label).name for s in texts[name].values()]
        own = Path(source.label).name
        return own if short.count(own) == 1 else source.label

    return [
        f"{name} ({file(name, source)})" if len(texts[name]) > 1 else name
        for name, source in zip(names, sources, strict=True)
    ]


def new_player(kind: str, seed: int) -> Player:
    """The AI player ``kind`` seated with ``seed``: its kind, with its options as
    ``--players`` takes them ("tactical:explore=2": :class:`~kriegsspiel.ai.players.PlayerSpec`)."""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.ai.players import RandomPlayer

    spec = parse_spec(kind, PLAYER_KINDS) if isinstance(kind, str) else None
    if spec is not None and spec.kind == "tactical":
        return TacticalPlayer(seed, spec.explore)
    if spec is not None and spec.kind == "random":
        return RandomPlayer(seed)
    raise UsageError(
        f"no AI player is called {kind!r}: the AI players are {' and '.join(PLAYER_KINDS)}"
        f" (the tactical AI with its options, e.g. {SPEC_EXAMPLE})"
    )


def set_up_game(matchup: Matchup, seed: int, swapped: bool = False) -> BoltActionGame:
    """The game deployed and ready for its first draw; ``swapped`` puts army B on side 0
    (side A's zone)."""
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

    scenario, army_a, army_b = parsed(matchup)
    armies = (army_b, army_a) if swapped else (army_a, army_b)
    return BoltActionGame(
        matchup.ruleset,
        scenario,
        armies,
        seed=seed,
        rules_file=matchup.rules_file,
        rules_text=matchup.rules_text,
        deployment=matchup.deployment,
    )


def play_game(matchup: Matchup, seed: int, swapped: bool = False) -> BoltActionGame:
    """Set up and play one game to its end; ``swapped`` puts army B on side 0 (side A's zone)."""
    from kriegsspiel.ai.players import play

    game = set_up_game(matchup, seed, swapped)
    kinds = matchup.players
    if swapped:
        kinds = (kinds[1], kinds[0])
    play(game, [new_player(k, side_seed(seed, side)) for side, k in enumerate(kinds)], seed)
    return game
