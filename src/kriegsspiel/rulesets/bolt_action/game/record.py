"""Record a Bolt Action family game and replay a record to see if it reproduces."""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

import kriegsspiel
from kriegsspiel.ai.players import SPEC_EXAMPLE, RecordedSeat, recorded_seat
from kriegsspiel.core import arguments
from kriegsspiel.core.datafile import Strict, problems, yaml_data
from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.records import FORMAT, FORMATS, dumps, format_number, read_lines
from kriegsspiel.core.scenario import parse_scenario
from kriegsspiel.errors import DataFileError, clause
from kriegsspiel.rulesets import RULESETS
from kriegsspiel.rulesets.bolt_action.army import parse_army
from kriegsspiel.rulesets.bolt_action.data import DATA_DIR
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.deployment import Placement, PlacementRefused
from kriegsspiel.rulesets.bolt_action.game.record_events import (
    ADDED_WHAT,
    EVENTS,
    Decision,
    Reseed,
    as_written_in,
    in_format,
    unknown_event,
)
from kriegsspiel.rulesets.bolt_action.game.set_up_order import LIST_ORDER
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import TerrainCategoryError


def header(
    game: BoltActionGame, scenario_text: str, army_texts: tuple[str, str], players: tuple[str, str]
) -> dict[str, Any]:
    """What a replay needs (the scenario and lists as given, the seed, the players, and
    the designer's rules file the game was played by, if any: its name and whole text),
    and what it was made with (the version, the rules data), which a replay that does not
    reproduce names if they differ. A game by the shipped rules has no rules file's fields."""
    rules = game.rules
    rules.data  # noqa: B018 (read: a rules file's text is known once its data is)
    head = {
        "kriegsspiel": kriegsspiel.__version__,
        "ruleset": game.ruleset,
        "rules_data_sha256": rules_data_sha256(game.ruleset, rules.text),
        "scenario": scenario_text,
        "armies": list(army_texts),
        "seed": game.seed,
        "players": list(players),
    }
    if rules.text is not None:
        head |= {"rules_file": rules.rules_file or "rules file", "rules": rules.text}
    if game.deployment != LIST_ORDER:  # (a record of the rules' own set-up is as it was)
        head["deployment"] = game.deployment
    if game.placements is not None:  # (a side set up by hand; none: as it was)
        head["placements"] = placements_json(game.placements)
    return head


#: the sides as a record's placements name them
SIDES = ("A", "B")


def placements_json(placements: Mapping[int, Sequence[Placement]]) -> dict[str, Any]:
    """The placements of the sides set up by hand as a record's header holds them: by
    side, each unit's number, and its place (``at``) and ``facing`` where they were given."""
    return {
        SIDES[side]: [
            {"unit": p.unit}
            | ({} if p.at is None else {"at": list(p.at)})
            | ({} if p.facing is None else {"facing": p.facing})
            for p in placed
        ]
        for side, placed in sorted(placements.items())
    }


def rules_data_sha256(ruleset: str, text: str | None = None) -> str:
    """The hash of the rules data the game was played by: the shipped file's, or that of
    the ``text`` of a designer's rules file."""
    import hashlib

    if text is not None:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    data_file = DATA_DIR / f"{ruleset.replace('-', '_')}.yaml"
    return hashlib.sha256(data_file.read_bytes()).hexdigest()


class PlacementLine(Strict):
    """A unit set up by hand, as a record's header holds it (see :class:`Placement`)."""

    model_config = ConfigDict(strict=True)

    unit: int = Field(ge=0)
    at: tuple[float, float] | None = None  # where it was placed; none: the place offered
    facing: float | None = None  # the way it faces; none: the middle of the table

    @model_validator(mode="after")
    def _facing_with_a_place(self) -> PlacementLine:
        if self.facing is not None and self.at is None:
            raise ValueError("facing needs at: a unit is turned where it is placed")
        return self


# the rulesets whose games are recorded
RecordedRuleset = Literal["konflikt47", "bolt-action-1"]


def _recorded_player(player: str) -> str:
    if recorded_seat(player) is None:  # (an option refused: a UsageError, a ValueError)
        choices = get_args(RecordedSeat)
        raise ValueError(
            f"{player!r} is not one of the choices here; give {', '.join(choices[:-1])} or "
            f"{choices[-1]} (the tactical AI with its options, as {SPEC_EXAMPLE})"
        )
    return player


# who played a side, as a record names it: a seat's player as --players names it
# ("tactical:explore=2"), or "agent"
RecordedPlayer = Annotated[str, AfterValidator(_recorded_player)]


class RecordHeader(Strict):
    """The first line of a game record: what a replay needs to set the game up again."""

    model_config = ConfigDict(strict=True)  # a seed is a number, not "2"

    format: str
    kriegsspiel: str
    ruleset: RecordedRuleset
    rules_data_sha256: str
    scenario: str
    armies: tuple[str, str]
    seed: int = Field(ge=0)
    # who played each side: a seat's player as --players names it ("tactical:explore=2"),
    # or "agent"
    players: tuple[RecordedPlayer, RecordedPlayer]
    # a game by a designer's rules file: the file's name as given, and its whole text
    # (a record of a game by the shipped rules has neither)
    rules_file: str | None = None
    rules: str | None = None
    # the order each side's units set up in (the list's unless the record says otherwise)
    deployment: Literal["list-order", "shuffled"] = "list-order"
    # the sides a person set up by hand, each unit placed in the order it was (a record of
    # a game set up by the automatic set-up alone has none)
    placements: dict[Literal["A", "B"], list[PlacementLine]] | None = None

    @model_validator(mode="after")
    def _rules_with_their_name(self) -> RecordHeader:
        if (self.rules_file is None) != (self.rules is None):
            given, missing = (
                ("rules_file", "rules") if self.rules is None else ("rules", "rules_file")
            )
            raise ValueError(
                f"{given} needs {missing}: a game by a rules file records its name "
                "(rules_file) and its text (rules)"
            )
        return self


def new_game(head: dict[str, Any], name: str = "record") -> BoltActionGame:
    """The recorded game as it stood before its first decision (played by the rules file
    the record holds, if it holds one)."""
    checked = _checked(RecordHeader, head, name, 1)
    _check_edition(checked, name)
    scenario = parse_scenario(checked.scenario, f"{name}: scenario")
    # the rules file as the record holds it, told as part of the record
    house = f"{name}: rules file {checked.rules_file}" if checked.rules is not None else None
    armies = tuple(
        parse_army(
            text,
            f"{name}: army {i + 1}",
            checked.ruleset,
            rules_file=house,
            rules_text=checked.rules,
        )
        for i, text in enumerate(checked.armies)
    )
    placements = (
        None
        if checked.placements is None
        else {
            SIDES.index(side): [Placement(p.unit, p.at, p.facing) for p in placed]
            for side, placed in checked.placements.items()
        }
    )
    try:
        return BoltActionGame(
            checked.ruleset,
            scenario,
            (armies[0], armies[1]),
            seed=checked.seed,
            rules_file=house,
            rules_text=checked.rules,
            deployment=checked.deployment,
            placements=placements,
        )
    except TerrainCategoryError as exc:  # (a record written before categories were checked)
        raise exc.in_file(f"{name}: scenario", checked.scenario) from None
    except PlacementRefused as exc:  # (a record changed by hand, or made otherwise)
        raise DataFileError(name, [placement_problem(checked.placements or {}, exc)]) from None


def placement_problem(
    placements: dict[Literal["A", "B"], list[PlacementLine]], exc: PlacementRefused
) -> str:
    """A record's placement refused, as its file's problem: the field of the unit's
    placement (``placements.A.0``; ``placements`` where it has none of its own), why, and
    the nearest place that would do where there is one."""
    where = "placements"
    for side, placed in placements.items():
        for i, p in enumerate(placed):
            if p.unit == exc.unit:
                where = f"placements.{side}.{i}"
    told = f"line 1, field {where}: {clause(exc)}"
    if exc.nearest is not None:
        told += f" (the nearest place that would do: at [{exc.nearest.x:g}, {exc.nearest.y:g}])"
    return told


def _check_edition(head: RecordHeader, name: str) -> None:
    """Refuse a header whose ruleset is not the edition both its army lists are for (their
    ``ruleset:``): the lists agree, so the header's field is what is wrong, and is named
    (line 1, field ruleset) with the editions a record may name. Lists that disagree, or
    that do not read, are left to be told as each list's own error."""
    import yaml

    editions = set()
    for text in head.armies:
        try:
            data = yaml_data(text)
        except yaml.YAMLError:
            return
        editions.add(data.get("ruleset") if isinstance(data, dict) else None)
    recorded = get_args(RecordedRuleset)
    if len(editions) != 1:
        return
    (edition,) = editions
    if not isinstance(edition, str) or edition == head.ruleset or edition not in recorded:
        return
    raise DataFileError(
        name,
        [
            f"line 1, field ruleset: {head.ruleset!r} ({RULESETS[head.ruleset]}), but the "
            f"record's two army lists are for {RULESETS[edition]}: it should be {edition!r} "
            f"(a record's ruleset is {' or '.join(repr(r) for r in recorded)}, the edition "
            "of its lists)"
        ],
    )


def decisions(
    events: Sequence[dict[str, Any]], name: str = "record"
) -> list[tuple[int, Action | Reseed]]:
    """The chance outcomes and decisions, in order, from a record's events, each with its
    line in the record (the header is line 1), and where the dice were reseeded. Every
    line is checked as the kind of event it names first: one changed by hand is a bad
    file, named at its line and field."""
    out: list[tuple[int, Action | Reseed]] = []
    for number, row in enumerate(events, start=2):
        kind = row.get("event")
        model = EVENTS.get(kind) if isinstance(kind, str) else None
        if model is None:
            said = (
                unknown_event(kind)
                if "event" in row
                else "missing; every line after the header names its event"
            )
            raise DataFileError(name, [f"line {number}, field event: {said}"])
        line = _checked(model, row, name, number)
        if isinstance(line, Decision):
            out.append((number, line.action()))
        elif isinstance(line, Reseed):
            out.append((number, line))
    return out


M = TypeVar("M", bound=BaseModel)


def _checked(model: type[M], row: dict[str, Any], name: str, line: int) -> M:
    """``row`` (line ``line`` of the record ``name``) as ``model``, read strictly as the
    JSON it came from (a number is not "17"), or an error naming its line and field."""
    try:
        return model.model_validate_json(dumps(row))
    except ValidationError as exc:
        raise DataFileError(name, problems(exc, lambda loc: line, model)) from None


@dataclass(frozen=True, slots=True)
class Replay:
    """Whether a record reproduces, where it parts from the replay if not, and how the
    record ends (cut short, without its final newline, with blank lines after)."""

    reproduced: bool
    events: int  # the record's whole lines after the header
    first_difference: int | None  # 1-based line of the record
    expected: str
    actual: str
    finished: bool = True  # the record goes on to the game's end (one cut short does not)
    made_otherwise: str = ""  # how the record's making differs from this replay's, if it does
    cut_line: int | None = None  # the last line, cut short mid-way: left out of the replay
    final_newline: bool = True
    blank_at_end: int = 0
    bom: bool = False  # the file begins with a byte-order mark, passed over
    # the rules file the record holds, if its text is not what its hash was recorded from
    held_rules_changed: str | None = None
    # the replayed game, as far as it agreed with the record (its account can be told)
    game: BoltActionGame | None = field(default=None, repr=False, compare=False)
    # the record's header (its first line, read), and the record's file as named
    head: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    path: str = ""
    # a record of an older format (any but this version's), written before the fields and
    # events later formats added: its lines are compared with the replay's without them
    older_format: int | None = None  # the number of the older format the record is of

    def in_progress(self) -> bool:
        """Whether the record is that of a game a person is playing at the terminal that
        has not ended ('quit', Ctrl-C, the end of the input): one ``play --resume`` goes on
        with, not one cut short."""
        players = self.head.get("players")
        return (
            self.reproduced
            and not self.finished
            and self.cut_line is None
            and isinstance(players, list)
            and "human" in players
            and "agent" not in players
        )

    def difference(self, most: int = 300) -> list[str]:
        """The record's line and the replay's where they first part, each a line (a long
        one shown round the first character that differs), that character marked; and,
        if both are JSON, which fields differ, or that none does (the same line written
        otherwise: spaces, the fields' order)."""
        expected, actual = self.expected, self.actual
        if actual.startswith("("):  # (not a line: what the replay came to instead)
            return [f"  recorded: {_cut(expected, 0, most)}", f"  replayed: {actual}"]
        column = next(
            (i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b),
            min(len(expected), len(actual)),
        )
        start = 0 if max(len(expected), len(actual)) <= most else max(0, column - 40)
        end = None if start == 0 and max(len(expected), len(actual)) <= most else start + 120
        lead = "…" if start else ""
        told = [
            f"  recorded: {_cut(expected, start, end)}",
            f"  replayed: {_cut(actual, start, end)}",
            " " * (12 + len(lead) + column - start)
            + f"^ character {column + 1}: the first that differs",
        ]
        try:
            ours, theirs = json.loads(expected), json.loads(actual)
        except ValueError:
            return told
        if ours == theirs:
            told.append(
                "  the same fields and values, written otherwise (spaces, or the fields' "
                "order): a record is compared byte for byte, each line as play writes it"
            )
        elif isinstance(ours, dict) and isinstance(theirs, dict):
            missing = object()
            keys = dict.fromkeys([*ours, *theirs])
            fields = [k for k in keys if ours.get(k, missing) != theirs.get(k, missing)]
            told.append(f"  fields that differ: {', '.join(fields)}")
        return told

    def notes(self) -> list[str]:
        """What to say of how the record ends, besides whether it reproduces."""
        said = []
        if self.cut_line is not None:
            said.append(
                f"the last line, {self.cut_line}, is cut short (the file ends mid-line, as "
                f"when writing it was stopped); reproduced up to line {self.cut_line - 1}."
            )
        if self.in_progress():
            turn = f", stopped in turn {self.game.turn}" if self.game is not None else ""
            said.append(
                f"a game in progress{turn} (a person is playing it): go on with "
                f"kriegsspiel play --resume {shlex.quote(self.path or 'FILE')}"
            )
        elif self.reproduced and not self.finished:
            said.append(
                "the record stops before the game's end (it was cut short"
                + (", and holds no event after its header)." if not self.events else ").")
            )
        if not self.final_newline:
            said.append("the last line lacks its newline (no difference in the game).")
        if self.blank_at_end:
            many = "s" if self.blank_at_end > 1 else ""
            said.append(f"{self.blank_at_end} blank line{many} at the end passed over.")
        if self.held_rules_changed is not None and self.reproduced:
            said.append(
                f"the rules file the record holds ({self.held_rules_changed}) does not match "
                "the hash it was recorded with (rules_data_sha256): its text was changed in "
                "the record since; the game reproduces by it all the same."
            )
        if self.older_format:
            lacks = [ADDED_WHAT[n] for n in range(self.older_format + 1, len(FORMATS) + 1)]
            said.append(
                f"the record is of the older format {FORMATS[self.older_format - 1]!r}, "
                f"written without {' or '.join(lacks)}: compared without them (this version "
                f"writes {FORMAT!r}); what an account tells of them (a dice line, a pen's "
                "parts) is told from the replay's re-run, not checked against the record."
            )
        if self.bom:
            said.append(
                "the file begins with a byte-order mark (BOM), which play does not write: "
                "passed over (no difference in the game)."
            )
        return said


def _cut(line: str, start: int, end: int | None) -> str:
    """``line`` from ``start`` to ``end`` (None: its end), with an ellipsis where it is cut
    and its whole length if it is (a header line holds whole army lists)."""
    if start == 0 and (end is None or end >= len(line)):
        return line
    shown = ("…" if start else "") + line[start:end]
    return (
        shown
        + ("…" if end is not None and end < len(line) else "")
        + f" ({len(line):,} characters)"
    )


def replay(path: str | Path) -> Replay:
    """Re-run a record's game with its seed and decisions; compare it line by line with the
    record, as far as the record goes, to the first line where they part."""
    name = str(arguments.path("path", path))
    record = read_lines(path)
    head, rows, lines = record.rows[0], record.rows[1:], record.lines
    game = new_game(head, name)
    steps = decisions(rows, name)

    def result(line: int | None = None, actual: str = "") -> Replay:
        """The replay's verdict: reproduced unless it parts from the record at ``line``."""
        return Replay(
            line is None,
            len(rows),
            line,
            "" if line is None else lines[line - 1],
            actual,
            finished=game.is_terminal() and written() == len(rows),
            made_otherwise="" if line is None else _made_otherwise(head),
            cut_line=len(lines) + 1 if record.cut else None,
            final_newline=record.final_newline,
            blank_at_end=record.blank_at_end,
            bom=record.bom,
            held_rules_changed=_held_rules_changed(head),
            game=game,
            head=head,
            path=name,
            older_format=older,
        )

    number = format_number(head)
    older = number if number < len(FORMATS) else None

    def written() -> int:
        """How many lines the replay's events make in the record's format."""
        if not older:
            return len(game.events)
        return sum(1 for event in game.events if in_format(event.kind, number))

    if dumps(head) != lines[0]:
        return result(1, dumps(head))
    same = 0  # how many replayed events are found to be the record's, from the first
    seen = 0  # ... and how many of the replay's events that took (a format-1 record
    # lacks some kinds of event: those are passed over)

    def first_difference() -> Replay | None:
        nonlocal same, seen
        events = game.events
        while seen < len(events):
            if older and not in_format(events[seen].kind, number):
                seen += 1
                continue
            if same >= len(rows):
                break
            row = events[seen].to_json()
            replayed = dumps(as_written_in(row, number) if older else row)
            if replayed != lines[same + 1]:
                return result(same + 2, replayed)
            same += 1
            seen += 1
        return None

    for line, action in steps:
        if game.is_terminal():
            break
        if parted := first_difference():
            return parted
        try:
            if isinstance(action, Reseed):
                game.reseed(action.seed)
            else:
                game.apply_action(action)
        except IllegalActionError as exc:  # the record was changed, or comes from elsewhere
            due = written() + 2  # the line the replay writes next
            if due == line:
                return result(line, f"(not legal here: {clause(exc)})")
            return result(
                due, f"(a decision is due; the record's next, line {line}: {clause(exc)})"
            )
    if parted := first_difference():
        return parted
    if written() < len(rows):  # the record goes on where the replay stops
        stops = "the game is over" if game.is_terminal() else "a decision is due"
        return result(written() + 2, f"(end: {stops})")
    return result()


def _held_rules_changed(head: dict[str, Any]) -> str | None:
    """The name of the rules file a record holds, if its text does not hash to the hash
    recorded with it (None if it holds none, or it does)."""
    house = head.get("rules")
    if house is None or head["rules_data_sha256"] == rules_data_sha256(head["ruleset"], house):
        return None
    return str(head.get("rules_file", "rules file"))


def _made_otherwise(head: dict[str, Any]) -> str:
    """What the record was made with that this replay does not have: another version of
    kriegsspiel, or other rules data (a rule changed since, say). Empty if neither."""
    differs = []
    if head["kriegsspiel"] != kriegsspiel.__version__:
        differs.append(f"kriegsspiel {head['kriegsspiel']} (this is {kriegsspiel.__version__})")
    house = head.get("rules")
    if head["rules_data_sha256"] != rules_data_sha256(head["ruleset"], house):
        differs.append(
            "other rules data than this version ships"
            if house is None
            else "other rules data than the rules file the record holds (changed since?)"
        )
    return " and ".join(differs)
