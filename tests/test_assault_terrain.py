"""An assault is a Run (sheets 000, 001, 002: Run is "also used for assaulting"), so it
cannot cross or end in terrain where the assaulting unit may not Run (the terrain table's
"No Run": infantry over rough ground and obstacles). Docs: docs/rules, 'Assaults and
terrain'."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from test_game_rules import new_game, only, place

from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.table import Point, Table, TerrainFeature
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.candidates import order_candidates
from kriegsspiel.rulesets.bolt_action.game.close_quarters import assault_move, closing_move
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.table_rules import check_move
from kriegsspiel.rulesets.bolt_action.game.units import UnitState

RULESETS = ("konflikt47", "bolt-action-1")


def wall(x0: float, x1: float, name: str = "wall") -> TerrainFeature:
    """A low wall (an obstacle: No Run for infantry) along y = 28 from x0 to x1."""
    return TerrainFeature(
        name, "obstacle", "hard", ((x0, 28), (x1, 28), (x1, 28.5), (x0, 28.5)), False
    )


def squads_across(
    ruleset: str, *walls: TerrainFeature
) -> tuple[BoltActionGame, UnitState, UnitState]:
    """Side 0's first squad south of y = 28, side 1's first squad north of it, 11" apart
    at their nearest (within a Run), on a table with nothing else but ``walls``; side 0's
    die drawn."""
    game = new_game(ruleset)
    game.table = Table(72, 48, features=walls)
    squads = [
        next(u for u in game.units if u.side == s and u.kind == "infantry" and len(u.models) >= 8)
        for s in (0, 1)
    ]
    only(game, *(u.uid for u in squads))
    ours, theirs = squads
    place(ours, 36, 20, 0)
    place(theirs, 36, 36, 180)
    place(ours, 36, 20 + game.gap(ours, theirs) - 11)
    assert game.gap(ours, theirs) == pytest.approx(11)
    game.apply_action(Action("draw", side=0))
    return game, ours, theirs


def assault(ours: UnitState, theirs: UnitState) -> Action:
    return Action("order", unit=ours.uid, order="Run", target=theirs.uid)


def offered(game: BoltActionGame, ours: UnitState, theirs: UnitState) -> bool:
    return any(
        a.order == "Run" and a.target == theirs.uid for a in order_candidates(game, ours)
    ) and any(a.target == theirs.uid and a.order == "Run" for a in game.legal_actions())


def fought(game: BoltActionGame, ours: UnitState, theirs: UnitState) -> list[str]:
    """Give the assault (and, in Konflikt '47, have the target fight hand-to-hand); the
    events it brought."""
    start = len(game.events)
    game.apply_action(assault(ours, theirs))
    if game.pending is not None:
        game.apply_action(Action("react", side=1, unit=theirs.uid, choice="hand-to-hand"))
    return [e.kind for e in game.events[start:]]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_assault_across_a_wall_is_refused_as_a_run_across_it_is(ruleset: str) -> None:
    """Golden: a wall between a squad and an enemy 11" away (within its 12" Run): a Run
    across it is refused, and so is the assault, with the Run's reason; it is not offered,
    and the refusal leaves the game as it was."""
    game, ours, theirs = squads_across(ruleset, wall(0, 72))
    run = check_move(game.rules, game.table, ours, Point(36, 30), run=True)
    assert not run.allowed and run.reason == "cannot Run through wall (obstacle)"
    before, events = game.observation(), len(game.events)
    with pytest.raises(IllegalActionError) as refused:
        game.apply_action(assault(ours, theirs))
    assert str(refused.value) == (
        f"{ours.name} cannot assault {theirs.name}: cannot Run through wall (obstacle)."
    )
    assert game.observation() == before and len(game.events) == events
    assert not game.is_legal(assault(ours, theirs))
    assert not offered(game, ours, theirs)
    # an Advance still crosses it (No Run, not No)
    assert check_move(game.rules, game.table, ours, Point(36, 30), run=False).allowed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_through_a_gap_in_the_wall_or_over_open_ground_the_assault_goes_in(ruleset: str) -> None:
    """The same squads with a 6" gap in the wall straight between them, and with no wall:
    the assault is offered, and the squad moves in through the gap and fights."""
    for walls in ((wall(0, 33, "west wall"), wall(39, 72, "east wall")), ()):
        game, ours, theirs = squads_across(ruleset, *walls)
        assert offered(game, ours, theirs)
        dx, dy = closing_move(ours, theirs)
        start = ours.anchor
        kinds = fought(game, ours, theirs)
        assert "close quarters" in kinds
        assert kinds.index("move") < kinds.index("close quarters")
        moved = game.events[-len(kinds) + kinds.index("move")]
        assert moved.data["to"] == [round(start.x + dx, 2), round(start.y + dy, 2)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_path_checked_is_the_centres_to_contact_and_where_it_ends(ruleset: str) -> None:
    """What is checked is the move the game makes (:func:`closing_move`), as a Run's: its
    centre's path (and each assaulter's) and the features it ends in. A wall beyond that
    point (behind the target) does not stop it; a wood it would end in does."""
    game, ours, theirs = squads_across(ruleset)
    move = assault_move(game, ours, theirs)
    assert move is not None
    to, check = move
    dx, dy = closing_move(ours, theirs)
    assert to == Point(ours.anchor.x + dx, ours.anchor.y + dy) and check.allowed
    behind = TerrainFeature(
        "far wall", "obstacle", "hard", ((0, 44), (72, 44), (72, 45), (0, 45)), False
    )
    game.table = Table(72, 48, features=(behind,))
    assert game.is_legal(assault(ours, theirs))
    wood = TerrainFeature(
        "copse",
        "wood",
        "soft",
        ((to.x - 2, to.y - 1), (to.x + 2, to.y - 1), (to.x + 2, to.y + 1), (to.x - 2, to.y + 1)),
        False,
    )
    game.table = Table(72, 48, features=(wood,))
    assert check_move(game.rules, game.table, ours, to, run=True, assault=True).reason == (
        "cannot Run through copse (wood)"
    )
    assert not game.is_legal(assault(ours, theirs))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("gap", "depth"), [(11.0, 0.0), (11.9, 6.0), (4.0, 9.0), (0.5, 3.0)])
def test_no_assaulter_moves_farther_than_the_gap_less_an_inch(
    ruleset: str, gap: float, depth: float
) -> None:
    """The closing move is measured between the two units' nearest models, not from the
    assaulters' centre: however deep the unit stands behind its front man, every model
    moves the gap less 1" (never more than its Run, which the gap is within), and the
    front man ends 1" from the target's nearest (no move if already that close)."""
    game, ours, theirs = squads_across(ruleset)
    for i, m in enumerate(ours.alive_models):  # spread the squad back, front man unmoved
        m.y -= depth * (i % 3) / 2
    place(ours, ours.anchor.x, ours.anchor.y + game.gap(ours, theirs) - gap)
    assert game.gap(ours, theirs) == pytest.approx(gap)
    dx, dy = closing_move(ours, theirs)
    run = 12
    assert math.hypot(dx, dy) == pytest.approx(max(0.0, gap - 1)) and math.hypot(dx, dy) < run
    before = [m.point for m in ours.alive_models]
    kinds = fought(game, ours, theirs)
    assert "close quarters" in kinds
    moved = [math.dist((a.x, a.y), (m.x, m.y)) for a, m in zip(before, ours.models, strict=False)]
    assert all(d == pytest.approx(max(0.0, gap - 1), abs=0.02) for d in moved)


def test_the_chase_after_an_escape_still_runs_through_the_gap() -> None:
    """Konflikt '47: the target escapes; the assaulters follow as far as their Run where
    they may Run (here through the gap), without a fight."""
    game, ours, theirs = squads_across(
        "konflikt47", wall(0, 33, "west wall"), wall(39, 72, "east wall")
    )
    start, fled_from = ours.anchor, theirs.anchor
    game.apply_action(assault(ours, theirs))
    game.apply_action(Action("react", side=1, unit=theirs.uid, choice="escape"))
    kinds = [e.kind for e in game.events]
    assert "escape" in kinds and "close quarters" not in kinds
    assert theirs.anchor.y > fled_from.y
    assert ours.anchor.distance_to(start) == pytest.approx(12)  # its whole Run, past the wall
    assert ours.anchor.y > 28.5


def test_an_assault_whose_way_in_closes_before_it_moves_stops() -> None:
    """The move is checked again when it is made (fire at the assaulters as they come on
    can move their centre): if it is no longer one they may Run, they stay and there is
    no fight ('assault blocked'). Here the wall is put up between the order and the
    reaction, which the game itself never does."""
    game, ours, theirs = squads_across("konflikt47")
    game.apply_action(assault(ours, theirs))
    start = ours.anchor
    game.table = Table(72, 48, features=(wall(0, 72),))
    game.apply_action(Action("react", side=1, unit=theirs.uid, choice="hand-to-hand"))
    kinds = [e.kind for e in game.events]
    assert kinds[-1] == "assault blocked" and "close quarters" not in kinds
    assert ours.anchor == start and not theirs.destroyed and not ours.destroyed


def face_off(
    ruleset: str, ours: Callable[[UnitState], bool]
) -> tuple[BoltActionGame, UnitState, UnitState]:
    """Side 0's first unit that ``ours`` picks, 6" from side B's first infantry, alone on
    an empty table, side 0's die drawn."""
    game = new_game(ruleset)
    game.table = Table(72, 48)
    unit = next(u for u in game.units if u.side == 0 and ours(u))
    enemy = next(u for u in game.units if u.side == 1 and u.kind == "infantry")
    only(game, unit.uid, enemy.uid)
    place(unit, 36, 20, 0)
    place(enemy, 36, 26, 180)
    game.apply_action(Action("draw", side=0))
    return game, unit, enemy


@pytest.mark.parametrize("ruleset", RULESETS)
def test_vehicles_and_walkers_still_do_not_assault(ruleset: str) -> None:
    game, vehicle, enemy = face_off(ruleset, lambda u: u.vehicle is not None)
    with pytest.raises(IllegalActionError, match="vehicles do not assault"):
        game.validate(assault(vehicle, enemy))
    assert not any(a.order == "Run" and a.target is not None for a in game.legal_actions())


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_artillery_does_not_assault_but_may_be_assaulted(ruleset: str) -> None:
    """The sheets' close quarters are infantry against infantry and against vehicles: a
    gun and its crew are assaulted (its crew fights), and do not assault."""
    game, gun, enemy = face_off(ruleset, lambda u: u.kind == "artillery")
    with pytest.raises(IllegalActionError, match="is artillery, a gun and its crew, and does not"):
        game.validate(assault(gun, enemy))
    assert not offered(game, gun, enemy)
    assert any(a.order == "Run" and a.target is None for a in game.legal_actions())  # it moves
    # the other way about, the gun's crew is assaulted as any unit is
    assert any(a.order == "Run" and a.target == gun.uid for a in order_candidates(game, enemy))
