"""A person setting up their own side by hand before the first turn (``kriegsspiel play``,
kriegsspiel.solo.set_up; the engine's rule in deployment.set_up_by_hand): places accepted
and refused, the record's placements round trip, resuming at the set-up, the account and
piped input."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
from conftest import SIM_DATA
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from kriegsspiel.core.records import FORMAT
from kriegsspiel.core.scenario import parse_scenario
from kriegsspiel.errors import DataFileError
from kriegsspiel.render.game_account import set_up_lines
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.deployment import (
    Placement,
    PlacementRefused,
    setup_refusal,
)
from kriegsspiel.rulesets.bolt_action.game.record import header, new_game, replay
from kriegsspiel.rulesets.bolt_action.game.spacing import HULL, UNIT_GAP
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.sim.matchup import build_matchup, set_up_game
from kriegsspiel.solo.briefing import shot_line
from kriegsspiel.solo.session import SoloGame, resumed
from kriegsspiel.solo.set_up import SET_UP_HELP, hand_set_up

PATROLS = {
    "ruleset": "konflikt47",
    "scenario": str(SIM_DATA / "skirmish.yaml"),
    "armies": [str(SIM_DATA / "patrol-a.yaml"), str(SIM_DATA / "patrol-b.yaml")],
}

# the meeting engagement's zones, with a farmhouse inside side A's
FARM = """
name: farm
turns: 3
victory: units destroyed
table: {width: 72, height: 48}
terrain:
  - {name: Farmhouse, category: building, cover: hard, polygon: [[30, 2], [36, 2], [36, 8], [30, 8]]}
deployment:
  - {side: south, polygon: [[0, 0], [72, 0], [72, 12], [0, 12]]}
  - {side: north, polygon: [[0, 36], [72, 36], [72, 48], [0, 48]]}
"""


def farm_game(placements: dict[int, list[Placement]] | None = None) -> BoltActionGame:
    armies = [load_army(p, "konflikt47") for p in sample_armies("konflikt47")[:2]]
    scenario = parse_scenario(FARM, "farm.yaml")
    return BoltActionGame(
        "konflikt47", scenario, (armies[0], armies[1]), seed=1, placements=placements
    )


def refused(placements: dict[int, list[Placement]]) -> PlacementRefused:
    with pytest.raises(PlacementRefused) as caught:
        farm_game(placements)
    return caught.value


def keeps_the_rule(game: BoltActionGame) -> None:
    """Every unit inside its side's zones (a vehicle's whole hull), on ground it may be set up on (a vehicle's hull
    on the table), and 1" or more from every other unit's models."""
    names = game.scenario.sides()
    for unit in game.units:
        zones = [z for z in game.scenario.deployment if names.index(z.side) == unit.side]
        reach = HULL if unit.vehicle is not None else 0.0  # a vehicle's whole hull in the zone
        for m in unit.models:
            assert any(
                min(p[0] for p in z.polygon) - 1e-6 + reach
                <= m.x
                <= max(p[0] for p in z.polygon) + 1e-6 - reach
                and min(p[1] for p in z.polygon) - 1e-6 + reach
                <= m.y
                <= max(p[1] for p in z.polygon) + 1e-6 - reach
                for z in zones
            )
            for feature in game.table.features_at(m):
                assert setup_refusal(game.rules, feature, unit) is None
            if unit.vehicle is not None:  # its hull on the table
                assert min(m.x, m.y, 72 - m.x, 48 - m.y) >= HULL - 1e-9, unit.name
        for other in game.units:
            if other is not unit:
                gap = min(
                    math.dist((m.x, m.y), (o.x, o.y)) for m in unit.models for o in other.models
                )
                assert gap >= UNIT_GAP - 1e-9, (unit.name, other.name, gap)


# ----------------------------------------------------------------------------- the rule
def test_a_place_in_the_zone_is_taken_and_the_units_after_it_make_room() -> None:
    """A unit placed by hand stands with its centre there, facing as told (else the middle
    of the table); a later unit whose offered place it took is offered the nearest that
    will do; the other side stands as the automatic set-up put it."""
    auto = farm_game()
    squad, second = auto.units[1], auto.units[2]
    at = (second.anchor.x, second.anchor.y)  # where the next squad was to stand
    game = farm_game({0: [Placement(squad.uid, at, 90.0)]})
    placed = game.units[squad.uid]
    assert (placed.anchor.x, placed.anchor.y) == pytest.approx(at)
    assert placed.heading == 90.0
    xs = {round(m.x, 6) for m in placed.models}  # ranks facing east: files run north-south
    assert len(xs) == math.ceil(len(placed.models) / 5)
    moved = game.units[second.uid]
    assert moved.anchor.distance_to(second.anchor) > 0  # it made room
    keeps_the_rule(game)
    for unit in game.units[len(auto.units) // 2 :]:
        if unit.side == 1:
            assert unit.coords == auto.units[unit.uid].coords
    assert game.set_up_places[squad.uid][1] == 90.0
    facing_middle = farm_game({0: [Placement(squad.uid, (20.0, 6.0))]})
    assert facing_middle.units[squad.uid].heading == 0.0  # side A faces north, the middle


def test_an_empty_set_up_by_hand_is_the_automatic_one() -> None:
    """Each unit taking the place offered stands exactly where the automatic set-up put it,
    on both sides: a quick start ('auto') plays the game the AI would set up."""
    auto = farm_game()
    for placements in ({0: []}, {1: []}, {0: [], 1: []}, {0: [Placement(0), Placement(1)]}):
        game = farm_game(placements)
        assert [u.coords for u in game.units] == [u.coords for u in auto.units]
        assert [u.heading for u in game.units] == [u.heading for u in auto.units]


def test_a_place_outside_the_zone_in_a_building_or_too_near_a_model_is_refused() -> None:
    """Each refused with the automatic set-up's own reason, the unit named, and the nearest
    place on the 1" grid that would do, which is then accepted."""
    outside = refused({0: [Placement(1, (20.0, 14.0))]})
    assert "would not stand wholly inside the deployment zone of side A (" in str(outside)
    assert 'x 0–72", y 0–12"' in str(outside) and "ranks of five" in str(outside)
    inside = refused({0: [Placement(0, (33.0, 5.0))]})
    assert str(inside) == "Platoon HQ: Farmhouse is a building (no unit sets up in one)."
    near = refused({0: [Placement(0, (20.0, 6.0)), Placement(1, (20.5, 6.5))]})
    assert 'within 1" of a unit already set up (Platoon HQ' in str(near)
    for exc, placed in ((outside, []), (inside, []), (near, [Placement(0, (20.0, 6.0))])):
        assert exc.nearest is not None
        at = (exc.nearest.x, exc.nearest.y)
        game = farm_game({0: [*placed, Placement(exc.unit, at)]})
        assert game.set_up_places[exc.unit][0] == exc.nearest
        keeps_the_rule(game)
    assert outside.nearest is not None and outside.nearest.y < 12
    # a unit of the other side, or one placed twice, is no placement of this side's
    assert "is not one of the units of side A " in str(refused({0: [Placement(20, (5, 5))]}))
    assert "placed twice" in str(refused({0: [Placement(0, (5, 5)), Placement(0, (9, 5))]}))


@settings(max_examples=40)
@given(
    x=st.floats(-5, 77, allow_nan=False),
    y=st.floats(-5, 20, allow_nan=False),
    facing=st.one_of(st.none(), st.floats(0, 359)),
    unit=st.integers(0, 8),
)
def test_a_place_typed_is_set_up_only_where_the_rule_lets_it(
    x: float, y: float, facing: float | None, unit: int
) -> None:
    """Wherever a unit is placed: either it stands there and every unit keeps the rule, or
    it is refused, and the nearest place named (if any) is accepted."""
    try:
        game = farm_game({0: [Placement(0, (10.0, 6.0)), Placement(unit, (x, y), facing)]})
    except PlacementRefused as exc:
        if exc.nearest is not None:
            placed = [] if exc.unit == 0 else [Placement(0, (10.0, 6.0))]
            fixed = farm_game({0: [*placed, Placement(exc.unit, (exc.nearest.x, exc.nearest.y))]})
            keeps_the_rule(fixed)
        return
    keeps_the_rule(game)
    if unit != 0:
        assert game.set_up_places[unit][0].distance_to(game.units[unit].anchor) < 1e-9


# ----------------------------------------------------------------------------- at the terminal
class Typist:
    """Types the ``answers`` in order at the set-up's prompts, then "quit" at any other;
    the end of its answers is the end of the input (EOFError)."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def new_solo(
    tmp_path: Path,
    ask: Typist,
    seats: str = "human,tactical",
    ruleset: str = "konflikt47",
    scenario: str | None = None,
    seed: int = 4,
) -> SoloGame:
    """A new game (by default Konflikt '47's meeting engagement: nine units a side, side
    A's zone x 0–72", y 0–12"), its record's header naming the sides a person sets up."""
    matchup = build_matchup(ruleset, scenario, [], seats, seats=True)
    game = set_up_game(matchup, seed)
    kinds = matchup.players
    head = header(
        game, matchup.scenario.text, (matchup.armies[0].text, matchup.armies[1].text), kinds
    )
    head["placements"] = hand_set_up(kinds)
    return SoloGame(
        game,
        (kinds[0], kinds[1]),
        head,
        str(tmp_path / "game.jsonl"),
        str(tmp_path / "game.svg"),
        Console(file=io.StringIO(), width=120),
        ask,  # type: ignore[arg-type]
    )


def said(solo: SoloGame) -> str:
    return " ".join(solo.console.file.getvalue().split())  # type: ignore[attr-defined]


def head_of(path: Path) -> dict[str, object]:
    return json.loads(path.read_text().splitlines()[0])  # type: ignore[no-any-return]


def test_the_set_up_at_the_terminal_takes_places_refuses_and_steps_back(tmp_path: Path) -> None:
    """Enter takes the place offered, a typed place (with 'facing D') is checked and said,
    a refused one names why and the nearest that would do, 'back' takes the last unit
    back; 'reverse', words that are no place, and 'hint' are answered, not taken; the
    record's header holds each placement; then the game begins."""
    ask = Typist(
        "", "20 14", "back", "(12, 4) facing 45", "9 3 reverse", "nonsense", "hint",
        "30 6 facing 45", "auto", "quit",
    )  # fmt: skip
    solo = new_solo(tmp_path, ask)
    assert solo.play() == 0
    told = said(solo)
    assert "Set-up: side A" in told and 'x 0–72", y 0–12"' in told
    assert "Not allowed:" in told and "The nearest place that would do: (20.0, 11.0)" in told
    assert "Took back Platoon HQ" in told and "'reverse' is for a move" in told
    # (troops: the facing lays out their ranks, said so; a move chooses none for them)
    assert "set up at (12.0, 4.0), its ranks facing 45° (troops see and fire all round" in told
    assert "'nonsense': not a place" in told and "automatic set-up puts it" in told
    assert "Side A set up by hand:" in told
    assert ask.prompts[-1].startswith("Unit to order")  # the game had begun
    placed = head_of(tmp_path / "game.jsonl")["placements"]
    assert isinstance(placed, dict) and list(placed) == ["A"]
    first, second, *rest = placed["A"]
    assert first == {"unit": 0, "at": [12.0, 4.0], "facing": 45.0}
    assert second == {"unit": 1, "at": [30.0, 6.0], "facing": 45.0}
    assert len(rest) == 7 and all(p.keys() == {"unit"} for p in rest)
    assert solo.game.units[1].heading == 45.0
    assert solo.game.units[1].anchor.distance_to(solo.game.set_up_places[1][0]) < 1e-9
    verdict = replay(tmp_path / "game.jsonl")
    assert verdict.reproduced and verdict.game is not None
    assert [u.coords for u in verdict.game.units] == [u.coords for u in solo.game.units]


def test_a_set_up_stopped_goes_on_with_resume_as_if_never_stopped(tmp_path: Path) -> None:
    """'quit' (or the end of the input) at the set-up saves it; --resume asks for the next
    unit, and the game set up so is the game set up in one go, line for line."""
    answers = ["", "10 4", "(20, 3) facing 30", "auto"]
    whole = tmp_path / "whole"
    whole.mkdir()
    assert new_solo(whole, Typist(*answers)).play() == 0  # (the end of input after it)
    parts = tmp_path / "parts"
    parts.mkdir()
    first = new_solo(parts, Typist(*answers[:2]))  # the input ends at the third unit
    assert first.play() == 0
    assert "Stopped during the set-up." in said(first) and "turn 1" not in said(first)
    assert head_of(parts / "game.jsonl")["placements"] == {
        "A": [{"unit": 0}, {"unit": 1, "at": [10.0, 4.0]}]
    }
    again = replay(parts / "game.jsonl")
    assert again.reproduced and again.in_progress()
    ask = Typist(*answers[2:])
    go_on = resumed(
        str(parts / "game.jsonl"),
        svg_path=str(parts / "game.svg"),
        console=Console(file=io.StringIO(), width=120),
        ask=ask,  # type: ignore[arg-type]
    )
    assert go_on.play() == 0
    assert ask.prompts[0].startswith(f"Set up {go_on.game.units[2].name} (3 of")
    assert (parts / "game.jsonl").read_text() == (whole / "game.jsonl").read_text()


def test_both_people_set_up_side_a_first(tmp_path: Path) -> None:
    """With a person on each side, side A sets its whole force up, then side B; each side
    is said and kept in the record."""
    solo = new_solo(tmp_path, Typist("5 3", "auto", "auto"), seats="human,human")
    assert solo.play() == 0
    told = said(solo)
    assert told.index("Set-up: side A") < told.index("Set-up: side B")
    assert "side B sets up after" in told
    placed = head_of(tmp_path / "game.jsonl")["placements"]
    assert isinstance(placed, dict) and list(placed) == ["A", "B"]
    assert placed["A"][0] == {"unit": 0, "at": [5.0, 3.0]}
    assert all(p.keys() == {"unit"} for p in placed["B"])


# ----------------------------------------------------------------------------- the record
def test_a_record_with_placements_replays_and_one_changed_by_hand_is_refused(
    tmp_path: Path,
) -> None:
    """The placements are the header's: a replay, --resume and replay --account set the
    game up from them; a place moved out of the zone, facing without a place, or a unit of
    the other side is named at line 1, field placements."""
    solo = new_solo(tmp_path, Typist("", "10 4 facing 20", "auto"))
    solo.play()
    path = tmp_path / "game.jsonl"
    head = {**head_of(path)}
    game = new_game(head)
    assert game.set_up_places == solo.game.set_up_places
    assert [u.coords for u in game.units] == [u.coords for u in solo.game.units]
    for placed, why in (
        ([{"unit": 0}, {"unit": 1, "at": [10.0, 20.0]}], "would not stand wholly inside"),
        ([{"unit": 0, "facing": 90.0}], "facing needs at"),
        ([{"unit": 9, "at": [10.0, 4.0]}], "is not one of the units of side A "),
    ):
        with pytest.raises(DataFileError, match=why) as caught:
            new_game({**head, "placements": {"A": placed}}, "changed.jsonl")
        assert "line 1" in str(caught.value) and "placements" in str(caught.value)
    # a game set up by the automatic set-up alone writes no placements
    assert "placements" not in header(farm_game(), "", ("", ""), ("tactical", "tactical"))
    assert head["format"] == FORMAT


def test_the_account_says_who_set_up_where(tmp_path: Path) -> None:
    """The account (play's after the set-up, replay --account's after its opening) lists
    each unit a person set up, its place and facing, and which took the place offered; a
    side that took every place offered is one line."""
    solo = new_solo(tmp_path, Typist("", "10 4 facing 20", "quit"))
    solo.play()
    lines = set_up_lines(new_game(head_of(tmp_path / "game.jsonl")))
    assert lines[0] == "Side A set up by hand:"
    assert lines[1].endswith("facing 0° (the place offered)")
    assert lines[2].endswith('at (10", 4"), facing 20°')
    assert lines[3].endswith("not set up yet: at the places offered)")
    from conftest import run_cli

    told = run_cli("replay", "--account", str(tmp_path / "game.jsonl"))
    assert told.returncode == 0, told.stderr
    assert "\n".join(lines) in told.stdout
    quick = new_solo(tmp_path, Typist("auto"))
    quick.play()
    assert set_up_lines(quick.game) == ["Side A set up by hand: every unit at the place offered"]
    assert set_up_lines(farm_game()) == []


def test_piped_answers_set_up_and_play_and_the_end_of_input_saves(tmp_path: Path) -> None:
    """From piped answers, 'auto' is a quick start and the game's own answers follow; the
    end of the input at the set-up saves it and says how to go on (exit status 0)."""
    from typer.testing import CliRunner

    from kriegsspiel.cli import app

    patrols = [
        "--ruleset", "konflikt47", "--scenario", PATROLS["scenario"],
        "--army", PATROLS["armies"][0], "--army", PATROLS["armies"][1],
    ]  # fmt: skip
    runner = CliRunner()
    quick = tmp_path / "quick.jsonl"
    got = runner.invoke(
        app,
        ["play", *patrols, "--players", "human,tactical", "--record", str(quick)],
        input="auto\n1\nrally\nquit\n",
    )
    assert got.exit_code == 0, got.output
    assert "Unit to order: 1" in got.output and "Stopped in turn 1" in got.output
    stopped = tmp_path / "stopped.jsonl"
    cut = runner.invoke(
        app,
        ["play", *patrols, "--players", "tactical,human", "--record", str(stopped)],
        input="\n30 10\n",
    )
    assert cut.exit_code == 0, cut.output
    told = " ".join(cut.output.split())
    assert "Set-up: side B" in told and "Not allowed:" in told
    assert "go on with: kriegsspiel play --resume" in told  # (its path wrapped)
    assert head_of(stopped)["placements"] == {"B": [{"unit": 2}]}  # (patrols: 2 units a side)
    assert "outlined:" in (tmp_path / "stopped.svg").read_text()


def test_a_gun_set_up_in_rough_ground_is_told_it_will_not_move_and_offered_no_move(
    tmp_path: Path,
) -> None:
    """The solo probe's 6-pdr, set up in the crossroads' Rubble field (rough ground, "No*"
    to artillery), was told only the ground; its order menu then offered an Advance it
    could not make and refused a Run in the infantry's "No Run" words. The set-up now says
    it is dug in and will not move; the menu offers no Advance nor Run, naming the rule,
    and keeps its other orders."""
    ask = Typist()
    solo = new_solo(tmp_path, ask, ruleset="bolt-action-1", scenario="hold-the-crossroads", seed=8)
    gun = next(u for u in solo.game.units if u.side == 0 and u.kind == "artillery")
    ask.answers[:] = [*[""] * gun.uid, "55,12", "auto", str(gun.uid + 1), "advance", "run"]
    solo.play()
    told = said(solo)
    rule = "where artillery may be set up but cannot move once set up (terrain table No*)"
    assert "Rubble field (rough ground, soft cover). Mind: it stands dug in in Rubble" in told
    assert "so it will not move all game" in told
    assert "(Advance is not open to it now: it stands dug in in Rubble field" in told
    assert f"'advance': not open to {gun.name} now: it stands dug in" in told
    assert f"'run': not open to {gun.name} now: it stands dug in" in told
    assert told.count(rule) == 5
    assert "which a Run may not cross" not in told
    assert " 1 Fire " in told and " 2 Ambush " in told


def test_odds_at_the_set_up_gives_the_units_shots_from_the_place_asked_about(
    tmp_path: Path,
) -> None:
    """Solo probe: 'odds' at "Set up ...:" was "not a place", though every prompt of the
    game takes it. It now gives the unit's shots in the first turn from the place offered, as
    'odds' gives them in the game; 'odds x,y' from a place typed (checked as a set-up
    there is, nothing set up); 'odds NAME' any unit's. The help says so."""
    ask = Typist(*[""] * 8, "odds", "odds 68 10 facing 45", "odds 36 40", "odds sherman", "auto")
    solo = new_solo(tmp_path, ask)
    assert solo.play() == 0
    told = said(solo)
    game = solo.game  # (every unit at the place offered: turn 1 begun)
    panzer = next(u for u in game.units if u.name == "Panzer IV Ausf. H")
    sherman = next(u for u in game.units if u.name == "M4 Sherman")
    assert "not a place" not in told
    assert [p for p in ask.prompts if p.startswith("Set up Panzer IV")] == [ask.prompts[8]] * 5
    offered = (
        "Panzer IV Ausf. H (A) set up at the place offered, (68.0, 6.0), firing in the first turn (a "
        "Fire order) at the enemy as it stands now: "
    )
    assert offered in told
    line = shot_line(game, panzer, sherman, moving=False)
    assert "23% to knock it out" in line
    assert told.count(f"M4 Sherman: {line}") == 1
    turned = told[told.index("set up at (68.0, 10.0) facing 45°, firing in the first turn") :]
    assert 'M4 Sherman: 32.0": 1 shot of Heavy AT gun' in turned
    assert (
        "No odds from there: it may not be set up there: Panzer IV Ausf. H would not stand "
        "wholly inside the deployment zone of side A"
    ) in told
    assert (
        "M4 Sherman (B) firing in the first turn from where it stands now (a Fire order):" in told
    )
    assert "'odds' its shots from the place offered in the first turn" in told
    assert "'odds' gives the shots the unit would have in the first turn" in " ".join(
        SET_UP_HELP.split()
    )
    placed = head_of(tmp_path / "game.jsonl")["placements"]
    assert placed == {"A": [{"unit": u} for u in range(9)]}
