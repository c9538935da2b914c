"""Game records read back: every record play writes replays; every line is checked as the
event it names."""

from __future__ import annotations

import json
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.core.records import dumps, write_record
from kriegsspiel.errors import DataFileError
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.record_events import EVENTS
from kriegsspiel.sim.matchup import build_matchup, play_game

SRC = Path(__file__).resolve().parent.parent / "src" / "kriegsspiel"
RULESETS = ("konflikt47", "bolt-action-1")
SCENARIOS = ("meeting-engagement", "hold-the-crossroads")
PLAYERS = ("random,random", "tactical,tactical", "tactical,random")


def write_game(path: Path, ruleset: str, scenario: str, players: str, seed: int) -> str:
    """Play a game as ``kriegsspiel play`` does and write its record; return the text."""
    matchup = build_matchup(ruleset, scenario, [], players)
    game = play_game(matchup, seed)
    texts = (matchup.armies[0].text, matchup.armies[1].text)
    head = record.header(game, matchup.scenario.text, texts, matchup.players)
    return write_record(path, head, game.events)


@cache
def sample_text() -> str:
    """A whole Konflikt '47 game between two tactical players, as play writes it."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return write_game(Path(folder, "game.jsonl"), "konflikt47", "meeting-engagement",
                          "tactical,tactical", 2)  # fmt: skip


def written(path: Path, lines: list[str], end: str = "\n") -> Path:
    path.write_text("\n".join(lines) + end, encoding="utf-8")
    return path


def changed(path: Path, number: int, **fields: object) -> Path:
    """The sample record with line ``number`` (1-based) changed; a field given as None
    is taken out."""
    lines = sample_text().splitlines()
    row = json.loads(lines[number - 1])
    for key, value in fields.items():
        if value is None:
            row.pop(key, None)
        else:
            row[key] = value
    lines[number - 1] = dumps(row)
    return written(path, lines)


def line_of(event: str, after: int = 0) -> int:
    """The 1-based line of the sample's first ``event`` after line ``after``."""
    lines = sample_text().splitlines()
    return next(
        i + 1 for i in range(after, len(lines)) if json.loads(lines[i]).get("event") == event
    )


def replay_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("replay", str(path), timeout=120)


# ----------------------------------------------------------------------------- what play writes
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("players", PLAYERS)
def test_every_record_play_writes_replays(
    ruleset: str, scenario: str, players: str, tmp_path: Path
) -> None:
    """Records of both rulesets, both shipped scenarios, tactical and random players all
    pass the strict check of every line, and reproduce to the game's end."""
    seeds = range(3) if players == "random,random" else range(1)
    for seed in seeds:
        path = tmp_path / f"{seed}.jsonl"
        write_game(path, ruleset, scenario, players, seed)
        result = record.replay(path)
        assert result.reproduced, (seed, result.first_difference, result.expected, result.actual)
        assert result.finished


def test_every_event_the_game_logs_is_one_a_record_may_hold() -> None:
    """Each name the engine logs an event by (rare ones too: a shockwave, no escape) has its
    model, so that no record play writes is refused; and no model names an event never
    logged."""
    code = "\n".join(p.read_text() for p in (SRC / "rulesets" / "bolt_action").rglob("*.py"))
    logged = set(re.findall(r'\blog\(\s*"([^"]+)"', code))
    logged |= set(re.findall(r'event(?:: str)? = "([^"]+)"', code))
    logged |= set(re.findall(r'event="([^"]+)"', code))
    logged |= {"react", "ambush", "retain"}  # logged by their action's kind
    assert logged == set(EVENTS)


# ----------------------------------------------------------------------------- 5. every line checked
@pytest.mark.parametrize(
    ("event", "fields", "said"),
    [
        ("order", {"event": "bogus"}, "field event: there is no event 'bogus' in a game's record"),
        (
            "order",
            {"event": "oder"},
            "field event: there is no event 'oder' in a game's record (did you mean 'order'?)",
        ),
        ("order", {"event": None}, "field event: missing"),
        ("order", {"unit": None}, "field unit: Field required"),
        ("order", {"turn": "one"}, "field turn: Input should be a valid integer"),
        ("order", {"unit": "17"}, "field unit: Input should be a valid integer"),
        ("order", {"to": [1, 2, 3]}, "field to: Tuple should have at most 2 items"),
        ("order", {"colour": "red"}, "field colour: there is no such field here"),
        ("draw", {"side": 1.0}, "field side: Input should be a valid integer"),
        ("move", {"run": 0}, "field run: Input should be a valid boolean"),
        ("shoot", {"hits": "2"}, "field hits: Input should be a valid integer"),
        ("start", {"seed": None}, "field seed: Field required"),
        ("game over", {"score": [1]}, "field score.1: Field required"),
    ],
)
def test_a_line_is_checked_as_the_event_it_names(
    event: str, fields: dict[str, object], said: str, tmp_path: Path
) -> None:
    number = line_of(event)
    with pytest.raises(DataFileError, match=re.escape(f"line {number}, {said}")):
        record.replay(changed(tmp_path / "changed.jsonl", number, **fields))


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"seed": "2"}, "line 1, field seed: Input should be a valid integer"),
        ({"armies": "one list"}, "line 1, field armies: Input should be a valid array"),
    ],
)
def test_a_header_field_of_the_wrong_kind_is_a_bad_file(
    fields: dict[str, object], said: str, tmp_path: Path
) -> None:
    path = changed(tmp_path / "head.jsonl", 1, **fields)
    with pytest.raises(DataFileError, match=re.escape(said)):
        record.replay(path)


def test_a_bad_line_is_named_with_exit_status_2(tmp_path: Path) -> None:
    number = line_of("order")
    said = replay_cli(changed(tmp_path / "changed.jsonl", number, unit="17"))
    assert said.returncode == 2 and "Traceback" not in said.stderr
    assert f"changed.jsonl: line {number}, field unit: Input should be a valid integer" in (
        said.stderr
    )
