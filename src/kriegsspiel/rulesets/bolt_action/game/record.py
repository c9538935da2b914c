"""Record a Bolt Action family game and replay a record to see if it reproduces."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kriegsspiel
from kriegsspiel.core.records import read_record, record_text
from kriegsspiel.core.scenario import parse_scenario
from kriegsspiel.errors import DataFileError
from kriegsspiel.rulesets.bolt_action.army import parse_army
from kriegsspiel.rulesets.bolt_action.data import DATA_DIR
from kriegsspiel.rulesets.bolt_action.game.state import Action, BoltActionGame

DECISIONS = ("draw", "order", "react", "ambush")


def header(
    game: BoltActionGame, scenario_text: str, army_texts: tuple[str, str], players: tuple[str, str]
) -> dict[str, Any]:
    """What a replay needs: versions, the scenario and lists as given, the seed."""
    data_file = DATA_DIR / f"{game.ruleset.replace('-', '_')}.yaml"
    import hashlib

    return {
        "kriegsspiel": kriegsspiel.__version__,
        "ruleset": game.ruleset,
        "rules_data_sha256": hashlib.sha256(data_file.read_bytes()).hexdigest(),
        "scenario": scenario_text,
        "armies": list(army_texts),
        "seed": game.seed,
        "players": list(players),
    }


def new_game(head: dict[str, Any]) -> BoltActionGame:
    ruleset = head["ruleset"]
    scenario = parse_scenario(head["scenario"], "record: scenario")
    armies = tuple(
        parse_army(text, f"record: army {i + 1}", ruleset) for i, text in enumerate(head["armies"])
    )
    return BoltActionGame(ruleset, scenario, (armies[0], armies[1]), seed=int(head["seed"]))


def decisions(events: list[dict[str, Any]]) -> list[Action]:
    """The chance outcomes and decisions, in order, from a record's events."""
    out = []
    for e in events:
        if e.get("event") in DECISIONS:
            data = {k: v for k, v in e.items() if k not in ("event", "turn")}
            out.append(Action.from_json({"kind": e["event"], **data}))
    return out


@dataclass(frozen=True, slots=True)
class Replay:
    reproduced: bool
    events: int
    first_difference: int | None  # 1-based line of the record
    expected: str
    actual: str


def replay(path: str | Path) -> Replay:
    """Re-run a record's game with its seed and decisions; compare the records byte by byte."""
    head, events, text = read_record(path)
    try:
        game = new_game(head)
    except KeyError as exc:
        raise DataFileError(str(path), [f"line 1: the header lacks {exc.args[0]!r}"]) from None
    for action in decisions(events):
        if game.is_terminal():
            break
        game.apply_action(action)
    head_fields = {k: v for k, v in head.items() if k != "format"}
    again = record_text(head_fields, game.events)
    if again == text:
        return Replay(True, len(events), None, "", "")
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
    )
