"""Record a Bolt Action family game and replay a record to see if it reproduces."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

import kriegsspiel
from kriegsspiel.ai.players import PlayerKind
from kriegsspiel.core.datafile import Strict, problems
from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.records import dumps, read_record, record_text
from kriegsspiel.core.scenario import parse_scenario
from kriegsspiel.errors import DataFileError
from kriegsspiel.rulesets.bolt_action.army import parse_army
from kriegsspiel.rulesets.bolt_action.data import DATA_DIR
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.record_events import EVENTS, Decision, unknown_event
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def header(
    game: BoltActionGame, scenario_text: str, army_texts: tuple[str, str], players: tuple[str, str]
) -> dict[str, Any]:
    """What a replay needs (the scenario and lists as given, the seed, the players), and
    what it was made with (the version, the rules data), which a replay that does not
    reproduce names if they differ."""
    return {
        "kriegsspiel": kriegsspiel.__version__,
        "ruleset": game.ruleset,
        "rules_data_sha256": rules_data_sha256(game.ruleset),
        "scenario": scenario_text,
        "armies": list(army_texts),
        "seed": game.seed,
        "players": list(players),
    }


def rules_data_sha256(ruleset: str) -> str:
    """The hash of the shipped rules data the game was played by (games use no other)."""
    import hashlib

    data_file = DATA_DIR / f"{ruleset.replace('-', '_')}.yaml"
    return hashlib.sha256(data_file.read_bytes()).hexdigest()


class RecordHeader(Strict):
    """The first line of a game record: what a replay needs to set the game up again."""

    model_config = ConfigDict(strict=True)  # a seed is a number, not "2"

    format: str
    kriegsspiel: str
    ruleset: Literal["konflikt47", "bolt-action-1"]  # the rulesets whose games are recorded
    rules_data_sha256: str
    scenario: str
    armies: tuple[str, str]
    seed: int = Field(ge=0)
    players: tuple[PlayerKind, PlayerKind]


def new_game(head: dict[str, Any], name: str = "record") -> BoltActionGame:
    """The recorded game as it stood before its first decision."""
    checked = _checked(RecordHeader, head, name, 1)
    scenario = parse_scenario(checked.scenario, f"{name}: scenario")
    armies = tuple(
        parse_army(text, f"{name}: army {i + 1}", checked.ruleset)
        for i, text in enumerate(checked.armies)
    )
    return BoltActionGame(checked.ruleset, scenario, (armies[0], armies[1]), seed=checked.seed)


def decisions(events: Sequence[dict[str, Any]], name: str = "record") -> list[tuple[int, Action]]:
    """The chance outcomes and decisions, in order, from a record's events, each with its
    line in the record (the header is line 1). Every line is checked as the kind of event
    it names first: one changed by hand is a bad file, named at its line and field."""
    out = []
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
    reproduced: bool
    events: int
    first_difference: int | None  # 1-based line of the record
    expected: str
    actual: str
    finished: bool = True  # the record goes on to the game's end (one cut short does not)
    made_otherwise: str = ""  # how the record's making differs from this replay's, if it does


def replay(path: str | Path) -> Replay:
    """Re-run a record's game with its seed and decisions; compare the records byte by byte."""
    head, events, text = read_record(path)
    name = str(path)
    game = new_game(head, name)
    for line, action in decisions(events, name):
        if game.is_terminal():
            break
        try:
            game.apply_action(action)
        except IllegalActionError as exc:  # the record was changed, or comes from elsewhere
            recorded = text.splitlines()[line - 1]
            return Replay(
                False,
                len(events),
                line,
                recorded,
                f"(not legal here: {exc})",
                made_otherwise=_made_otherwise(head),
            )
    head_fields = {k: v for k, v in head.items() if k != "format"}
    again = record_text(head_fields, game.events)
    if again == text:
        return Replay(True, len(events), None, "", "", game.is_terminal())
    old, new = text.splitlines(), again.splitlines()
    line = next(
        (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
        min(len(old), len(new)),
    )
    return Replay(
        False,
        len(events),
        line + 1,
        old[line] if line < len(old) else "(end)",
        new[line] if line < len(new) else "(end)",
        made_otherwise=_made_otherwise(head),
    )


def _made_otherwise(head: dict[str, Any]) -> str:
    """What the record was made with that this replay does not have: another version of
    kriegsspiel, or other rules data (a rule changed since, say). Empty if neither."""
    differs = []
    if head["kriegsspiel"] != kriegsspiel.__version__:
        differs.append(f"kriegsspiel {head['kriegsspiel']} (this is {kriegsspiel.__version__})")
    if head["rules_data_sha256"] != rules_data_sha256(head["ruleset"]):
        differs.append("other rules data than this version ships")
    return " and ".join(differs)
