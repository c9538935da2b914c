"""Close quarters in Konflikt '47 and Bolt Action: an assault, the target's reaction, the
fight (or infantry against a vehicle) and what it leaves standing.

The fight itself is the rule module's (:func:`~kriegsspiel.rulesets.bolt_action.assault.close_quarters`,
which the odds calculator enumerates); here the game moves the units, asks for reactions
and applies the result.
"""

from __future__ import annotations

import math
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from kriegsspiel.core.dice import DiceExpr, Dist
from kriegsspiel.core.procedure import exact
from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.assault import (
    CONTACT,
    Round,
    Side,
    assault_vehicle,
    close_quarters,
    fighting_side,
    vehicle_fires_at_assaulters,
    vehicle_hit_score,
)
from kriegsspiel.rulesets.bolt_action.attack import as_applied
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.actions import Action, Pending
from kriegsspiel.rulesets.bolt_action.game.ambush import ambush_check
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    MoveCheck,
    check_move,
    heading_to,
    last_legal,
    movement_row,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState, credit
from kriegsspiel.rulesets.bolt_action.kit import assault_armed
from kriegsspiel.rulesets.bolt_action.reactions import (
    DIE_SHOWN,
    asked_when_assaulted,
    assault_choices,
    die_shown,
    shot_reactions,
    vehicle_move_shown,
)
from kriegsspiel.rulesets.bolt_action.vehicle_damage import Tally, VehicleState, damage_roll_json

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def reactions(rules: Rules, tgt: UnitState) -> list[str]:
    """What an assaulted unit may do (:func:`.reactions.assault_choices`, the rule the play
    aid asks too)."""
    unordered = tgt.order is None and tgt.retained is None
    return assault_choices(rules, vehicle=tgt.vehicle is not None, unordered=unordered)


def shot_reactions_of(rules: Rules, tgt: UnitState) -> list[str]:
    """What a unit shot at may do (:func:`.reactions.shot_reactions`, the rule the play aid
    asks too); empty where it is not asked."""
    return shot_reactions(
        rules,
        vehicle=tgt.vehicle is not None,
        recce=tgt.vehicle is not None and tgt.vehicle.recce,
        immobilised=tgt.immobilised,
        unordered=tgt.order is None and tgt.retained is None,
    )


def escape(game: BoltActionGame, tgt: UnitState, threat: UnitState) -> bool:
    """``tgt`` escapes the attack ``threat`` declared on it (an assault, or a recce
    vehicle's escape from a shot): it runs straight away from ``threat`` as far as its
    move allows (:meth:`~BoltActionGame.flee`; a vehicle may reverse), its die then
    showing the edition's order (:func:`.reactions.die_shown`: a Bolt Action recce
    vehicle's Down, halted; otherwise Run), and a vehicle counts as having moved as that
    die shows, however far it drove (:func:`.reactions.vehicle_move_shown`), as the play
    aid reads it. False, logged, where every way is blocked: it stays where it is."""
    if not game.flee(tgt, heading_to(tgt.anchor, threat.anchor)):
        game.log("no escape", unit=tgt.uid)
        return False
    tgt.order = die_shown(game.rules, "escape", vehicle=tgt.vehicle is not None)
    if tgt.vehicle is not None:  # later assaults this turn hit it as its die shows
        tgt.moved = vehicle_move_shown(tgt.order, immobilised=tgt.immobilised)
    game.log("escape", unit=tgt.uid)
    return True


def side_of(game: BoltActionGame, unit: UnitState, mode: str, *, pins: int | None = None) -> Side:
    """``unit``'s side in close quarters, fighting in ``mode``: its quality and pins (or
    ``pins``, as a fire before the fight would leave them), its men with assault weapons
    and an officer in range. The fight and the AI's weighing of it both build it here."""
    armed = sum(1 for m in unit.alive_models if assault_armed(game.rules, m.weapons))
    return fighting_side(
        game.rules,
        unit.quality,
        pins=unit.pins if pins is None else pins,
        assault_models=armed,
        mode=mode,
        officer=game.officer_near(unit),
    )


def assault(game: BoltActionGame, unit: UnitState, action: Action) -> None:
    """``unit`` assaults the order's target: the target is asked for its reaction where it
    has a choice (:func:`reactions`: troops in Konflikt '47; a recce vehicle that may
    escape), otherwise the fight follows at once."""
    tgt = game.units[action.target]  # type: ignore[index]
    if asked_when_assaulted(
        game.rules,
        vehicle=tgt.vehicle is not None,
        recce=tgt.vehicle is not None and tgt.vehicle.recce,
        immobilised=tgt.immobilised,
        unordered=tgt.order is None and tgt.retained is None,
    ):
        game.pending = Pending("assault-reaction", tgt.side, action, tgt.uid)
        return
    fight(game, unit, tgt, action, "hand-to-hand")


def closing_move(unit: UnitState, tgt: UnitState) -> tuple[float, float]:
    """How far the assaulters move to close with ``tgt`` (inches east, north): all of
    them alike, along the line from their model nearest the target to the target's model
    nearest it, until those two are :data:`CONTACT` inches apart (not at all if they are
    that close already). So no model moves farther than the gap less an inch, which an
    assault allows only within the unit's Run. The game moves them so; the AI weighs fire
    at them there."""
    best: tuple[float, Point, Point] | None = None
    for m in unit.alive_models:
        p = m.point
        for n in tgt.alive_models:
            d = p.distance_to(n.point)
            if best is None or d < best[0]:
                best = (d, p, n.point)
    if best is None or best[0] <= CONTACT:
        return 0.0, 0.0
    gap, ours, theirs = best
    t = (gap - CONTACT) / gap
    return (theirs.x - ours.x) * t, (theirs.y - ours.y) * t


def assault_move(
    game: BoltActionGame, unit: UnitState, tgt: UnitState
) -> tuple[Point, MoveCheck] | None:
    """Where the assaulters' centre goes to close with ``tgt`` (:func:`closing_move`,
    shortened to 3/4, 1/2 or 1/4 of it only where a model would end off the table) and
    whether that is a Run they may make (:func:`check_move` as an assault: its path and
    where it ends, not its length). None if they need not move, or every such move would
    put a model off the table (they fight where they stand). The assault is checked by
    this (:mod:`validation`, the candidates) and the game moves them by it."""
    full_x, full_y = closing_move(unit, tgt)
    if full_x == 0 and full_y == 0:
        return None
    start = unit.anchor
    for fraction in (1.0, 0.75, 0.5, 0.25):
        dx, dy = full_x * fraction, full_y * fraction
        if not all(game.table.contains(Point(m.x + dx, m.y + dy)) for m in unit.alive_models):
            continue
        to = Point(start.x + dx, start.y + dy)
        return to, check_move(game.rules, game.table, unit, to, run=True, assault=True)
    return None


_NO_MOVE = MoveCheck(True, "")


def can_close(game: BoltActionGame, unit: UnitState, tgt: UnitState) -> MoveCheck:
    """Whether ``unit``'s move into contact with ``tgt`` (:func:`assault_move`) is one it
    may Run (allowed if it need not or cannot move)."""
    move = assault_move(game, unit, tgt)
    return _NO_MOVE if move is None else move[1]


def _close_in(game: BoltActionGame, unit: UnitState, tgt: UnitState) -> bool | None:
    """Move the assaulters up to the target (:func:`assault_move`): True if they moved,
    False if they need not (already in contact, or the table's edge); None, not moving
    them, if that move is not one they may Run (the order was checked, but fire at them
    as they came on may have moved their centre: see :func:`fight`)."""
    move = assault_move(game, unit, tgt)
    if move is None:
        return False
    to, check = move
    if not check.allowed:
        return None
    game.move_unit(unit, to, run=True)
    return True


def _chase(game: BoltActionGame, unit: UnitState, tgt: UnitState) -> bool:
    """After a unit that escaped, the assaulters make the assault move they had
    declared: toward it as :func:`closing_move` would, no longer than their Run and only
    where they may Run (the target, now away, may be out of reach); where that is blocked,
    as far along the line as they may Run (:func:`table_rules.last_legal`, a move cut
    short). Whether they moved."""
    full_x, full_y = closing_move(unit, tgt)
    most = math.hypot(full_x, full_y)
    if most == 0:
        return False
    start = unit.anchor
    reach = min(1.0, float(movement_row(game.rules, unit).run) / most)
    to = Point(start.x + full_x * reach, start.y + full_y * reach)
    if not check_move(game.rules, game.table, unit, to, run=True).allowed:
        cut = last_legal(game.rules, game.table, unit, True, to)  # cut short where blocked
        if cut is None:
            return False
        to = cut
    game.move_unit(unit, to, run=True)
    return True


def chase(game: BoltActionGame, unit: UnitState, tgt: UnitState, action: Action) -> None:
    """The assaulters follow the target that escaped (:func:`_chase`); that is a move, at
    whose end the target's side may spring an ambush on them. No fight follows."""
    if not unit.destroyed and _chase(game, unit, tgt):
        ambush_check(game, unit, action, after="")


def _fire_at_assaulters(game: BoltActionGame, vehicle: UnitState, unit: UnitState) -> bool:
    """Konflikt '47 (sheet 001): a vehicle fires at infantry that begin their assault on
    it from farther than the sheet's distance, with the weapons whose arc they are in,
    as it would shoot (not a crew that is halted: its die is Down). Whether it fired."""
    if (
        vehicle.is_down
        or not vehicle_fires_at_assaulters(game.rules, game.gap(unit, vehicle))
        or not game.shot_groups(vehicle, unit, moving=False)
    ):
        return False
    game.log("vehicle fires at assaulters", unit=vehicle.uid, target=unit.uid)
    game.shoot(vehicle, unit, moving=False)
    return True


def fight(
    game: BoltActionGame, unit: UnitState, tgt: UnitState, action: Action, reaction: str
) -> None:
    """The assault goes in after the target's ``reaction`` (escape, stand and fire, a
    fighting mode, or a recce vehicle's stay): the vehicle's fire at the assaulters, the
    close, any ambush fire at them where it ends, then (:func:`fight_on`) the fight or the
    attack on the vehicle, and the loser destroyed. An escape is a move too, and so is the
    chase after it: each may be ambushed where it ends. The escape and the die it leaves
    are :func:`escape`'s."""
    if reaction == "stay":
        reaction = "hand-to-hand"
    if reaction == "escape":
        if escape(game, tgt, unit):  # away from the assaulters
            if not ambush_check(game, tgt, action, after="chase"):
                chase(game, unit, tgt, action)
            return
        reaction = "hand-to-hand"  # hemmed in: it must fight where it stands
    fired = False
    if tgt.vehicle is not None:
        fired = _fire_at_assaulters(game, tgt, unit)
        if unit.destroyed:
            return
    moved = _close_in(game, unit, tgt)
    if moved is None:
        game.log("assault blocked", unit=unit.uid)  # (see _close_in)
        return
    # the assault's move is a move: ambushers may fire at the assaulters where it ends,
    # the target among them if it holds an Ambush die (not a vehicle that has just fired
    # at them as they came on: it has had its shot); assaulters already in contact make
    # no move to fire at
    if moved and ambush_check(
        game, unit, action, after="fight", reaction=reaction, exclude=(tgt.uid,) if fired else ()
    ):
        return
    fight_on(game, unit, tgt, action, reaction)


def fight_on(
    game: BoltActionGame, unit: UnitState, tgt: UnitState, action: Action, reaction: str
) -> None:
    """The assault after the assaulters have closed in (and any ambush fire at them):
    stand and fire, then the fight or the attack on the vehicle, and the loser destroyed.
    Assaulters the ambush destroyed (or broke) fight no more."""
    rules = game.rules
    if unit.destroyed or tgt.destroyed:
        return
    if reaction == "stand and fire":  # at the assaulters as they come in (sheets 000, 001)
        tgt.order = DIE_SHOWN["stand and fire"]
        game.shoot(tgt, unit, moving=False)
        if unit.destroyed:
            return
        reaction = "hand-to-hand"
    if tgt.vehicle is not None:
        _infantry_against_vehicle(game, unit, tgt)
        return

    procedure = rules.data.close_quarters.procedure
    a_mode = action.choice or "hand-to-hand"
    a, d = len(unit.alive_models), len(tgt.alive_models)
    attacker, defender = side_of(game, unit, a_mode), side_of(game, tgt, reaction)
    rounds: list[Round] = []
    result = close_quarters(game.dice, procedure, attacker, defender, a, d, rounds)
    game.log(
        "close quarters",
        attacker=unit.uid,
        defender=tgt.uid,
        attacker_wins=result.attacker_wins,
        attackers_left=result.attackers_left,
        defenders_left=result.defenders_left,
        rounds=[round_json(r) for r in rounds],
    )
    if result.both_destroyed:
        game.destroy(tgt, "wiped out in close quarters, as were its attackers", by=unit)
        game.destroy(unit, "wiped out in close quarters, as was its target", by=tgt)
        return
    winner, loser = (unit, tgt) if result.attacker_wins else (tgt, unit)
    left = result.attackers_left if result.attacker_wins else result.defenders_left
    fallen = winner.alive_models[left:]
    for model in fallen:
        model.alive = False
    credit(loser, winner, len(fallen))  # the loser struck some down before it broke
    game.destroy(loser, "lost the close quarters fight", by=winner)
    if not winner.alive_models:
        game.destroy(winner, "wiped out in the same fight")


def round_json(fought: Round) -> dict[str, Any]:
    """A round of a fight as the record writes it (its check only where one was taken),
    with each side's dice, roll by roll: the score each roll needed and its dice as rolled
    (none for a side that struck no blow)."""
    said: dict[str, Any] = {
        "attackers": fought.attackers,
        "defenders": fought.defenders,
        "attackers_lost": fought.attackers_lost,
        "defenders_lost": fought.defenders_lost,
        "attackers_dice": [{"needs": n, "dice": dice} for n, dice in fought.attackers_dice],
        "defenders_dice": [{"needs": n, "dice": dice} for n, dice in fought.defenders_dice],
    }
    if fought.check is not None:
        side, needs, roll, passed = fought.check
        said["check"] = {"side": side, "needs": needs, "roll": roll, "passed": passed}
    return said


def vehicle_assault(game: BoltActionGame, unit: UnitState, tgt: UnitState) -> partial[VehicleState]:
    """``unit``'s attack on the vehicle ``tgt`` once in contact, as a procedure of the dice:
    the game rolls it, and a person choosing the assault is shown its exact odds."""
    return partial(
        assault_vehicle,
        models=len(unit.alive_models),
        hit_on=vehicle_hit_score(game.rules, tgt.moved),
        vehicle=game.vehicle_profile_of(tgt, indirect=False),
        anti_tank=game.has_anti_tank(unit),
        open_topped=bool(tgt.vehicle and tgt.vehicle.open_topped),
        damage_dice=DiceExpr(game.rules.data.vehicle_assault.damage_dice),
    )


def vehicle_assault_outcomes(
    game: BoltActionGame, unit: UnitState, tgt: UnitState
) -> Dist[VehicleState]:
    """The exact odds of what ``unit``'s attack on the vehicle ``tgt`` once in contact
    (:func:`vehicle_assault`) leaves it, as the game applies it (``attack.as_applied``:
    the pins are those the assault adds). A person choosing the assault is shown them and
    the tactical player weighs the assault by them."""
    attack = vehicle_assault(game, unit, tgt)
    return _assault_outcomes(tuple(sorted(attack.keywords.items())))


@lru_cache(maxsize=1024)
def _assault_outcomes(attack: tuple[tuple[str, Any], ...]) -> Dist[VehicleState]:
    """:func:`vehicle_assault_outcomes` by the procedure's arguments (few differ in a game)."""
    return exact(partial(assault_vehicle, **dict(attack))).map(as_applied)


def _infantry_against_vehicle(game: BoltActionGame, unit: UnitState, tgt: UnitState) -> None:
    tally = Tally()
    procedure = vehicle_assault(game, unit, tgt)
    state = procedure(game.dice, tally=tally)
    # what befell the vehicle, as a shot at it records; and the dice: each model's to-hit
    # roll (counted), the damage roll with the hits added (format 3 on)
    game.log(
        "assault vehicle",
        unit=unit.uid,
        target=tgt.uid,
        models=procedure.keywords["models"],
        hit_on=procedure.keywords["hit_on"],
        hits=tally.group_hits[0] if tally.group_hits else 0,
        anti_tank=procedure.keywords["anti_tank"],
        damage_rolls=[damage_roll_json(r) for r in tally.damage_rolls],
        knocked_out=state.knocked_out,
        immobilised=state.immobilised and not tgt.immobilised,
        stunned=state.crew_stunned,
        on_fire=state.on_fire,
        pins=state.pins,
    )
    game.log_checks(tgt, tally)
    game.vehicle_damage(
        tgt,
        state.knocked_out,
        state.immobilised,
        state.crew_stunned or state.on_fire,
        state.pins,
        by=unit,
    )
