"""Setting up and moving by the terrain table: no model set up where the table says its
type may never be, ground a scenario makes impassable (and the road over it, a bridge),
crowded zones, and the scenario's slips told (docs/rules: "Deployment", "Impassable
ground and bridges"; docs/armies-and-scenarios.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.core.scenario import parse_scenario, scenario_warnings
from kriegsspiel.core.table import Point
from kriegsspiel.errors import DataFileError, UsageError
from kriegsspiel.rulesets.bolt_action.army import ArmyList, parse_army
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.deployment import Placement, PlacementRefused, crowding
from kriegsspiel.rulesets.bolt_action.game.spacing import HULL
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import check_move, dug_in
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

SQUAD = """  - name: Rifle Squad
    type: infantry
    quality: regular
    points: 50
    models:
      - {name: Rifleman, count: 5, weapons: [Rifle]}
"""
JEEP = """  - name: Jeep
    type: vehicle
    quality: regular
    points: 30
    vehicle:
      kind: wheeled
      damage_value_of: soft-skinned vehicle
      open_topped: true
      weapons:
        - {weapon: MMG, facing: front}
"""
TANK = """  - name: Sherman
    type: vehicle
    quality: regular
    points: 195
    vehicle:
      kind: tracked
      damage_value_of: medium tank
      weapons:
        - {weapon: Medium AT gun, facing: turret}
"""
GUN = """  - name: AT Gun
    type: artillery
    quality: regular
    points: 70
    models:
      - {name: Gun, weapons: [Medium AT gun]}
      - {name: Crew, count: 2}
"""


def army_text(*units: str) -> str:
    total = sum(int(re.search(r"points: (\d+)", u)[1]) for u in units)  # type: ignore[index]
    return (
        "name: Test force\nruleset: bolt-action-1\nfaction: United States\n"
        f"points: {total}\nunits:\n" + "".join(units)
    )


def army(*units: str) -> ArmyList:
    return parse_army(army_text(*units), "test.yaml", "bolt-action-1")


def scenario_text(terrain: str = "", south: str = "[[0, 0], [48, 0], [48, 10], [0, 10]]") -> str:
    return f"""name: Test ground
table: {{width: 48, height: 48}}
turns: 3
victory: units destroyed
terrain:
{terrain or "  []"}
deployment:
  - {{side: south, polygon: {south}}}
  - {{side: north, polygon: [[0, 38], [48, 38], [48, 48], [0, 48]]}}
"""


def game(terrain: str, *units: str, south: str | None = None) -> BoltActionGame:
    text = scenario_text(terrain, *([south] if south else []))
    return BoltActionGame(
        "bolt-action-1",
        parse_scenario(text, "test-ground.yaml"),
        (army(*units), army(SQUAD)),
        seed=1,
    )


def named(g: BoltActionGame, name: str) -> UnitState:
    return next(u for u in g.units if u.name == name and u.side == 0)


WOOD_OVER_ZONE = (
    "  - {name: Big wood, category: wood, cover: soft,"
    " polygon: [[0, 0], [48, 0], [48, 11], [0, 11]]}"
)


def test_no_wheeled_vehicle_is_set_up_in_a_wood_nor_a_gun_on_a_wall() -> None:
    """The terrain table's "No" keeps a unit out at set-up as on a move: a wood that
    covers the zone leaves a jeep no room (it was set up in it and fired from it all
    game); a wall across the zone is no place for a gun's crew (it stood on it)."""
    with pytest.raises(UsageError, match=r"no room for Jeep .*Big wood \(wood\) is impassable "):
        game(WOOD_OVER_ZONE, SQUAD, JEEP)
    walled = game(
        "  - {name: Garden wall, category: wall, cover: hard,"
        " polygon: [[0, 4.5], [48, 4.5], [48, 5.5], [0, 5.5]]}",
        GUN,
    )
    wall = walled.table.features[0]
    gun = named(walled, "AT Gun")
    assert not any(wall in walled.table.features_at(m.point) for m in gun.alive_models)


@pytest.mark.parametrize(
    ("name", "ground", "told"),
    [
        (
            "Garden wall",
            "category: wall, cover: hard",
            "which is an obstacle: no vehicle sets up on one",
        ),
        (
            "Copse",
            "category: wood, cover: soft, blocks_line_of_sight: true",
            "which blocks sight: no vehicle sets up in it",
        ),
    ],
)
def test_a_vehicles_whole_hull_is_set_up_clear_of_obstacles_and_what_blocks_sight(
    name: str, ground: str, told: str
) -> None:
    """A wall (an obstacle), or a wood that blocks sight, 1" wide across the middle of the
    zone (4.5" to 5.5" up it): a Sherman, which may drive over both, is set up with its
    whole round hull clear of it, its centre 1.5" off (before, only its centre was kept
    off, and it stood 0.5" from the strip, its hull over it), while the squad's models
    stand nearer; placed by hand 1" off it, it is refused, saying why; 1.5" off, it
    stands there."""
    strip = f"  - {{name: {name}, {ground}, polygon: [[0, 4.5], [48, 4.5], [48, 5.5], [0, 5.5]]}}"
    scenario = parse_scenario(scenario_text(strip), "test-ground.yaml")

    def set_up(placements: dict[int, list[Placement]] | None = None) -> BoltActionGame:
        armies = (army(SQUAD, TANK), army(SQUAD))
        return BoltActionGame("bolt-action-1", scenario, armies, seed=1, placements=placements)

    auto = set_up()
    tank, squad = named(auto, "Sherman"), named(auto, "Rifle Squad")
    assert abs(tank.anchor.y - 5) >= 0.5 + HULL - 1e-9
    assert min(abs(m.y - 5) for m in squad.alive_models) < 0.5 + HULL
    with pytest.raises(PlacementRefused) as caught:
        set_up({0: [Placement(tank.uid, (30.0, 3.5))]})
    assert f"Sherman: its hull would reach into {name} (" in str(caught.value)
    assert told in str(caught.value)
    placed = set_up({0: [Placement(tank.uid, (30.0, 3.0))]})
    assert placed.units[tank.uid].anchor == Point(30.0, 3.0)


def test_a_gun_may_be_set_up_dug_in_in_a_wood_and_then_cannot_move() -> None:
    """ "No*": the gun may be deployed within the terrain, and cannot move once deployed."""
    dug_in = game(WOOD_OVER_ZONE, GUN)
    gun = named(dug_in, "AT Gun")
    wood = dug_in.table.features[0]
    assert all(wood in dug_in.table.features_at(m.point) for m in gun.alive_models)
    to = Point(gun.anchor.x, gun.anchor.y + 5)
    refused = check_move(dug_in.rules, dug_in.table, gun, to, run=False)
    assert not refused.allowed and "dug in in Big wood (wood)" in refused.reason


def test_a_gun_dug_in_is_offered_no_move_and_one_on_the_edge_is_dug_in_too() -> None:
    """The solo probe's 6-pdr, set up in rough ground, was offered an Advance it could not
    make, its Run refused in the infantry's "No Run" words, and one on the ground's very
    edge (told at set-up as standing in it) drove out. A gun dug in ("No*") is refused
    every move, naming the rule; the moves offered it (the AI's and a person's) hold no
    Advance nor Run, only its other orders; one on the edge is in the ground, as the
    set-up reads it, and dug in alike; one clear of it moves."""
    game_ = game(WOOD_OVER_ZONE, GUN)
    gun = named(game_, "AT Gun")
    rules, table = game_.rules, game_.table
    assert dug_in(rules, table, gun) is table.features[0]
    orders = {a.order for a in order_candidates(game_, gun)}
    assert orders and not orders & {"Advance", "Run"}, orders
    gun.translate(0, 11 - max(m.y for m in gun.alive_models))  # its back model on the edge
    assert dug_in(rules, table, gun) is table.features[0]
    told = check_move(rules, table, gun, Point(gun.anchor.x, gun.anchor.y + 3), run=False)
    assert not told.allowed
    assert "where artillery may be set up but cannot move once set up" in told.reason
    gun.translate(0, 0.5)  # clear of it
    assert dug_in(rules, table, gun) is None
    assert check_move(rules, table, gun, Point(gun.anchor.x, gun.anchor.y + 3), run=False).allowed


def test_scenario_tells_the_zone_the_terrain_table_keeps_a_vehicle_out_of(
    tmp_path: Path,
) -> None:
    """``kriegsspiel scenario`` said such a zone was sound; the refusal names what keeps
    the unit out (it once said "clear of buildings" of a wall)."""
    (tmp_path / "woods.yaml").write_text(scenario_text(WOOD_OVER_ZONE))
    (tmp_path / "a.yaml").write_text(army_text(SQUAD, JEEP))
    (tmp_path / "b.yaml").write_text(army_text(SQUAD))
    done = run_cli("scenario", "woods.yaml", "--army", "a.yaml", "--army", "b.yaml", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "woods.yaml: line 8, field deployment.0" in done.stderr
    assert "Big wood (wood) is impassable to wheeled vehicles" in done.stderr
    assert "clear of buildings" not in done.stderr


BOCAGE = (
    "  - {name: Bocage, category: bocage, cover: hard, blocks_line_of_sight: true,"
    " impassable_to: [vehicles], polygon: [[0, 20], [48, 20], [48, 21], [0, 21]]}"
)


def test_a_scenario_may_make_bocage_impassable_to_vehicles() -> None:
    """OK* "unless it has been designated as an anti-tank obstacle, or impassable bocage
    ... in which case it is impassable to all types of vehicle" (sheets 000, 001): a tank
    crosses plain bocage, not bocage made impassable; infantry still Advance over it."""
    plain = game(BOCAGE.replace(" impassable_to: [vehicles],", ""), SQUAD, TANK)
    tank = named(plain, "Sherman")
    tank.translate(0, 17 - tank.anchor.y)
    over = Point(tank.anchor.x, 24)
    assert check_move(plain.rules, plain.table, tank, over, run=False).allowed
    designated = game(BOCAGE, SQUAD, TANK)
    tank = named(designated, "Sherman")
    tank.translate(0, 17 - tank.anchor.y)
    refused = check_move(designated.rules, designated.table, tank, over, run=False)
    assert not refused.allowed and refused.reason == "Bocage is impassable to vehicles"
    squad = named(designated, "Rifle Squad")
    squad.translate(0, 18 - squad.anchor.y)
    assert check_move(designated.rules, designated.table, squad, Point(squad.anchor.x, 23), False)


RIVER = (
    "  - {name: River, category: open ground, impassable_to: [everyone],"
    " polygon: [[0, 20], [48, 20], [48, 24], [0, 24]]}\n"
    "  - {name: Bridge road, category: road, polygon: [[22, 0], [26, 0], [26, 48], [22, 48]]}"
)


def test_a_road_over_ground_made_impassable_is_a_bridge() -> None:
    """A river impassable to everyone is crossed only along the road over it: a jeep on
    the road crosses (it was refused: 'River (rough ground) is impassable'), one beside
    the road does not, nor a squad whose flank hangs off the bridge; on the bridge the
    squad may Run (the river is open ground under the designation)."""
    g = game(RIVER, SQUAD, JEEP)
    jeep = named(g, "Jeep")
    jeep.translate(24 - jeep.anchor.x, 16 - jeep.anchor.y)
    jeep.heading = 0.0
    assert check_move(g.rules, g.table, jeep, Point(24, 30), run=True).allowed
    jeep.translate(-12, 0)
    refused = check_move(g.rules, g.table, jeep, Point(12, 30), run=True)
    assert not refused.allowed and refused.reason == "River is impassable to vehicles"
    squad = named(g, "Rifle Squad")  # five men abreast, 1" apart: 4" wide
    squad.translate(24 - squad.anchor.x, 17 - squad.anchor.y)
    xs = [m.x for m in squad.alive_models]
    assert max(xs) - min(xs) <= 4
    assert check_move(g.rules, g.table, squad, Point(24, 27), run=True).allowed
    squad.translate(3, 0)  # now men stand off the road's edge
    refused = check_move(g.rules, g.table, squad, Point(27, 27), run=True)
    assert not refused.allowed and refused.reason == "River is impassable to infantry"


def test_impassable_to_names_who_and_a_typo_is_refused_at_its_line(tmp_path: Path) -> None:
    bad = scenario_text(BOCAGE.replace("[vehicles]", "[tanks]"))
    with pytest.raises(DataFileError, match=r"line 6, field terrain\.0\.impassable_to\.0: "):
        parse_scenario(bad, "bad.yaml")
    with pytest.raises(DataFileError, match="'everyone' already takes in"):
        parse_scenario(scenario_text(BOCAGE.replace("[vehicles]", "[everyone, walkers]")), "b")


TINY = "[[0, 0], [7, 0], [7, 5], [0, 5]]"  # (a vehicle's whole hull inside: 2" of room)


def test_a_crowded_zone_is_told_and_a_roomy_one_keeps_hulls_apart(tmp_path: Path) -> None:
    """A vehicle is a point to the engine: six in a 10" x 4" zone stood 1" apart, on
    the infantry, and the scenario said "sound". Where the zone has room a vehicle now
    stands a vehicle's length from other units; where it has not, the verdict says the
    deployment is crowded."""
    roomy = game("", SQUAD, TANK, JEEP, GUN)
    assert crowding(roomy) == []
    tight = game("", SQUAD, TANK, JEEP, TANK.replace("Sherman", "Sherman 2"), south=TINY)
    assert any(told.endswith(" from Rifle Squad") for told in crowding(tight))
    (tmp_path / "tiny.yaml").write_text(scenario_text(south=TINY))
    (tmp_path / "a.yaml").write_text(army_text(TANK, JEEP, SQUAD))
    (tmp_path / "b.yaml").write_text(army_text(SQUAD))
    done = run_cli("scenario", "tiny.yaml", "--army", "a.yaml", "--army", "b.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "but the deployment is crowded: " in done.stdout
    assert "make the zones larger, or field fewer vehicles" in done.stdout


def test_objectives_all_worth_nothing_are_refused_at_their_line() -> None:
    text = scenario_text().replace("victory: units destroyed", "victory: objectives") + (
        "objectives:\n  - {name: Hill, x: 24, y: 24, points: 0}\n"
        "  - {name: Farm, x: 10, y: 24, points: 0}\n"
    )
    with pytest.raises(
        DataFileError, match=r"line 10, field objectives: every objective is worth 0"
    ):
        parse_scenario(text, "zero.yaml")
    parse_scenario(text.replace("points: 0}\n  -", "points: 1}\n  -", 1), "one.yaml")


def test_a_sides_overlapping_zones_and_a_third_side_are_noted_at_their_lines(
    tmp_path: Path,
) -> None:
    text = scenario_text() + (
        "  - {side: south, polygon: [[40, 0], [48, 0], [48, 20], [40, 20]]}\n"
        "  - {side: partisans, polygon: [[0, 20], [4, 20], [4, 24], [0, 24]]}\n"
    )
    told = scenario_warnings(parse_scenario(text, "x.yaml"))
    assert [loc for loc, _ in told] == [("deployment", 2, "polygon"), ("deployment", 3, "side")]
    assert "overlaps its zone 0 by 80 square inches" in told[0][1]
    assert "side 'partisans' is left unused" in told[1][1]
    (tmp_path / "three.yaml").write_text(text)
    done = run_cli("scenario", "three.yaml", "--ruleset", "bolt-action-1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "note: three.yaml: line 10, field deployment.2.polygon: this zone" in done.stderr
    assert "Mind the 2 notes above" in " ".join(done.stdout.split())


@pytest.mark.parametrize("ruleset", ["bolt-action-1", "konflikt47"])
def test_artillery_moves_at_the_infantry_rate_by_the_artillery_column(ruleset: str) -> None:
    """No sheet gives artillery a movement row: a gun and its crew Advance 6" and Run 12",
    as infantry (the movement table's infantry row), kept by the terrain table's artillery
    column (a wall, "No" for artillery, stops it where it would only slow men)."""
    text = army_text(GUN).replace("bolt-action-1", ruleset)
    gun_list = parse_army(text, "guns.yaml", ruleset)
    wall = (
        "  - {name: Wall, category: wall, cover: hard,"
        " polygon: [[0, 20], [48, 20], [48, 21], [0, 21]]}"
    )
    g = BoltActionGame(
        ruleset, parse_scenario(scenario_text(wall), "t.yaml"), (gun_list, army(SQUAD)), seed=1
    )
    gun = named(g, "AT Gun")
    at = gun.anchor
    assert check_move(g.rules, g.table, gun, Point(at.x, at.y + 6), run=False).allowed
    assert not check_move(g.rules, g.table, gun, Point(at.x, at.y + 6.5), run=False).allowed
    assert check_move(g.rules, g.table, gun, Point(at.x, at.y + 12), run=True).allowed
    assert not check_move(g.rules, g.table, gun, Point(at.x, at.y + 12.5), run=True).allowed
    gun.translate(0, 16 - at.y)
    refused = check_move(g.rules, g.table, gun, Point(gun.anchor.x, 22), run=False)
    assert not refused.allowed and refused.reason == "Wall (wall) is impassable"


def test_a_konflikt47_scenario_may_make_bocage_impassable_to_walkers() -> None:
    """OK** "unless designated impassable to walkers" (sheets 000, 001): a walker crosses
    bocage made impassable to vehicles, not bocage made impassable to walkers."""
    from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies

    lists = [load_army(p, "konflikt47") for p in sample_armies("konflikt47")[:2]]
    for who, crosses in (("vehicles", True), ("walkers", False)):
        text = scenario_text(BOCAGE.replace("[vehicles]", f"[{who}]"))
        g = BoltActionGame("konflikt47", parse_scenario(text, "b.yaml"), (lists[0], lists[1]))
        walker = next(u for u in g.units if u.vehicle and u.vehicle.kind == "walker")
        walker.translate(10 - walker.anchor.x, 17 - walker.anchor.y)
        walker.heading = 0.0
        moved = check_move(g.rules, g.table, walker, Point(10, 23), run=False)
        assert moved.allowed is crosses, moved.reason


def test_the_documented_error_is_what_kriegsspiel_army_prints(tmp_path: Path) -> None:
    """docs/armies-and-scenarios.md shows the misspelt Rifle's error as the tool prints it
    (it left out the "kriegsspiel: error:" and the rules-file hint)."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "armies-and-scenarios.md").read_text()
    army_yaml = re.findall(r"```yaml\n(.*?)```", doc, re.S)[0]
    shown = re.search(r"```text\n(kriegsspiel: error: army\.yaml: .*?)\n```", doc, re.S)
    assert shown is not None
    (tmp_path / "army.yaml").write_text(army_yaml.replace("[Rifle]", "[Rilfe]", 1))
    done = run_cli("army", "army.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert " ".join(done.stderr.split()) == " ".join(shown[1].split())


def test_a_team_with_no_weapon_at_all_is_refused_at_its_line(tmp_path: Path) -> None:
    unarmed = """  - name: Bazooka Team
    type: team
    quality: regular
    points: 50
    models:
      - {name: Gunner}
      - {name: Loader}
"""
    (tmp_path / "unarmed.yaml").write_text(army_text(SQUAD, unarmed))
    done = run_cli("army", "unarmed.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    # (the models as a whole lack a weapon: told at 'models:')
    assert "unarmed.yaml: line 16, field units.1.models: unit 'Bazooka Team' is a team, but" in (
        done.stderr
    )


def test_wording_names_what_the_designer_wrote_and_what_it_means(tmp_path: Path) -> None:
    """A weapon of the other edition is not offered names that merely look alike
    ('Shotgun': not 'Heavy AT gun'), only its kin ('Super-bazooka': 'Bazooka'); the
    briefing shows a category with the terrain table row it counts as; a missing colon is
    told at the line YAML noticed it and the line it began reading."""
    shotgun = SQUAD.replace("[Rifle]}", "[Rifle]}\n      - {name: Shotgunner, weapons: [Shotgun]}")
    (tmp_path / "shot.yaml").write_text(army_text(shotgun).replace("points: 50", "points: 50", 1))
    done = run_cli("army", "shot.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert "'Shotgun' is a Konflikt '47 weapon" in done.stderr
    assert "did you mean" not in done.stderr
    bazooka = SQUAD.replace(
        "[Rifle]}", "[Rifle]}\n      - {name: Gunner, weapons: [Super-bazooka]}"
    )
    (tmp_path / "sb.yaml").write_text(army_text(bazooka))
    assert "(did you mean 'Bazooka'?)" in run_cli("army", "sb.yaml", cwd=tmp_path).stderr
    (tmp_path / "ruins.yaml").write_text(
        scenario_text(
            "  - {name: Chapel, category: ruins, cover: hard,"
            " polygon: [[20, 20], [26, 20], [26, 26], [20, 26]]}"
        )
    )
    shown = run_cli("scenario", "ruins.yaml", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "ruins (rough ground)" in shown.stdout
    (tmp_path / "typo.yaml").write_text(army_text(SQUAD).replace("units:", "units"))
    typo = run_cli("army", "typo.yaml", cwd=tmp_path)
    assert typo.returncode == 2
    assert "line 6 (or line 5, where YAML began reading it): not valid YAML" in typo.stderr
