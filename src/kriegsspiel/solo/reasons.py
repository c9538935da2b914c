"""Why a unit has no shot at a target, or no order of a kind to give, said as a player can
act on it: out of range (how far, for which weapon), out of sight (what is in the way),
a weapon that cannot fire on the move, bear, or hurt the target; an assault the game
refuses, with the game's own reason.

Nothing here decides: the game's shooting (:meth:`~.ShootingGroups.shot_groups`) and its
check of an order (:meth:`~.BoltActionGame.validate`) do, and these only ask them, and
the table's sight and the weapons' chart, which one stopped it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.names import facing_text
from kriegsspiel.core.table import Point
from kriegsspiel.errors import UsageError, clause
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import (
    crewed,
    one_crew_left,
    range_marks,
    spotting,
    target_profile,
    weapon_choice,
)
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.support import SUPPORT, observer_kind
from kriegsspiel.rulesets.bolt_action.game.table_rules import heading_to, unit_cover
from kriegsspiel.rulesets.bolt_action.game.threats import harmless_to
from kriegsspiel.rulesets.bolt_action.game.units import Model, UnitState
from kriegsspiel.rulesets.bolt_action.kit import spent
from kriegsspiel.rulesets.bolt_action.shooting import (
    CannotFire,
    fires_on_the_move,
    in_range,
    least_range,
    plan_shot,
)


def _longest(rules: Rules, weapons: Sequence[str]) -> str:
    """The longest-ranged of ``weapons``."""
    return max(weapons, key=lambda w: rules.weapon(w).range)


def no_shot_reason(
    game: BoltActionGame,
    unit: UnitState,
    target: UnitState,
    *,
    moving: bool,
    origin: Point | None = None,
    heading: float | None = None,
) -> str:
    """Why ``unit`` (its centre at ``origin`` if given, a vehicle facing ``heading``) has
    no shot at ``target``, where the game's shooting gives it none: each model fires at
    the nearest target model it sees (a team's mortar, that its team sees), within its
    own weapons' reach (one that carries no weapon never does), so the first of these that
    stops every armed model is said: out of sight (what is in the way, and who unarmed sees
    it), out of range (how far its longest-ranged weapon is, and that weapon), a weapon that
    may not fire on the move, a vehicle's
    weapons that do not bear, a weapon too close to fire (a mortar's least range) or spent,
    or none that can hurt the target."""
    rules = game.rules
    alive = unit.alive_models
    dx = 0.0 if origin is None else origin.x - unit.anchor.x
    dy = 0.0 if origin is None else origin.y - unit.anchor.y
    if not alive or not target.alive_models:
        return "it has no models left to fire"
    # as the game's shooting has it: a model fires only with a weapon of some reach, so
    # the loaders, crew and spotters that carry none reach for no one; a mortar fires at
    # what its team sees (the spotter's eyes), with the mortar alone
    if not any(range_marks(rules, m.weapons)[1] > 0 for m in alive):
        return "none of its models carries a weapon"
    flat = tuple(c for m in alive for c in (m.x + dx, m.y + dy))
    seen, spotted = game.team_sight(flat, target.coords, alive)
    alive = [
        replace(m, weapons=spotting(rules, m.weapons)) if i in spotted else m
        for i, m in enumerate(alive)
    ]
    reach = {m.weapons: range_marks(rules, m.weapons)[1] for m in alive}
    armed = [i for i, m in enumerate(alive) if reach[m.weapons] > 0]
    if all(seen[i] is None for i in armed):
        ours = tuple(c for i in armed for c in flat[2 * i : 2 * i + 2])
        way = _in_the_way(game, ours, target)
        if len(armed) == len(alive) or all(s is None for s in seen):
            return f"out of sight: {way}"
        weapons = [w for i in armed for w in alive[i].weapons]
        lookouts = [m.name for i, (m, s) in enumerate(zip(alive, seen, strict=True)) if s]
        return (
            f"out of sight of its {_listed(weapons)}: {way}; seen only by its unarmed "
            f"{_listed(lookouts)}"
        )
    # each armed model that sees it: how far, and its longest weapon
    sighted = [(alive[i], s[1]) for i in armed if (s := seen[i]) is not None]
    able = [(m, far) for m, far in sighted if far <= reach[m.weapons]]
    if not able:
        # the longest-ranged weapon that sees it (not an officer's pistol that falls less
        # short of its 6"), from the nearest model that carries it; and a longer one that
        # does not see it, if the unit has one
        model, far = min(sighted, key=lambda mf: (-reach[mf[0].weapons], mf[1]))
        weapon = _longest(rules, model.weapons)
        short = (
            f'out of range: {far:.1f}" from its {weapon} ({rules.weapon(weapon).range:g}" range)'
        )
        longest = _longest(rules, [w for i in armed for w in alive[i].weapons])
        if rules.weapon(longest).range > rules.weapon(weapon).range:
            return f"{short}; its {longest} does not see it"
        return f"{short}, its longest-ranged weapon"
    mounted = unit.vehicle is not None
    fixed = sorted(
        {
            w
            for m, far in able
            for w in m.weapons
            if moving
            and in_range(rules.weapon(w), far)
            and not fires_on_the_move(rules.weapon(w), mounted=mounted)
        }
    )
    if fixed and game.shot_groups(unit, target, moving=False, origin=origin, heading=heading):
        return f"its {_listed(fixed)} may not fire on the move (an Advance)"
    if unit.vehicle is not None:
        at = Point(unit.anchor.x + dx, unit.anchor.y + dy)
        toward = heading_to(at, target.anchor)
        facing = unit.heading if heading is None else heading
        if game.shot_groups(unit, target, moving=moving, origin=origin, heading=toward):
            return (
                f"no weapon of it that reaches bears on it {facing_text(facing or 0)}; one "
                f"would, turned to {facing_text(toward).removeprefix('facing ')}"
            )
    close = sorted(
        {
            f'{w} (at least {least_range(rules.weapon(w)):g}")'
            for m, far in able
            for w in m.weapons
            if far < least_range(rules.weapon(w))
        }
    )
    fired = sorted(
        {w for m, _ in able for w in m.weapons if spent(rules.weapon(w), m.used_one_shot)}
    )
    said = []
    if fixed:
        said.append(f"its {_listed(fixed)} may not fire on the move (an Advance)")
    if close:
        said.append(f"too close for its {_listed(close)}")
    if fired:
        said.append(f"its {_listed(fired)} has fired its one shot")
    for why, weapons in _cannot_hit(game, unit, target, able, moving=moving, origin=origin):
        said.append(f"its {_listed(weapons)} cannot hit it ({why})")
    if target.vehicle is not None and harmless_to(rules, unit, target.vehicle.target):
        said.append(f"no weapon of it can hurt {target.name}")
    elif not said:
        said.append(f"none of its weapons in range can hurt {target.name}")
    return "; ".join(said)


def out_of_sight(
    game: BoltActionGame,
    unit: UnitState,
    listed: Sequence[UnitState],
    *,
    moving: bool = False,
    origin: Point | None = None,
    heading: float | None = None,
) -> list[tuple[UnitState, str]]:
    """The live enemies that a list of ``unit``'s targets leaves off (those not in
    ``listed``) for want of sight alone: within its reach (the longest range it fires at,
    on the move if ``moving``), but none of its armed models sees one of theirs (the
    table's one sight rule, as :func:`no_shot_reason` asks it), each with what is in the
    way ("Barn in the way"): a Fire's, from where it stands, or an Advance's, from its
    centre at ``origin`` (a vehicle facing ``heading``). Those beyond its reach are left
    out: out of range, whatever hides them."""
    reach, shown = game.reach(unit, moving=moving), {e.uid for e in listed}
    found = []
    for enemy in game.units:
        if enemy.side == unit.side or enemy.destroyed or enemy.uid in shown:
            continue
        if _gap_from(game, unit, enemy, origin) > reach:
            continue
        why = no_shot_reason(game, unit, enemy, moving=moving, origin=origin, heading=heading)
        if why.startswith("out of sight"):
            found.append((enemy, why.removeprefix("out of sight: ")))
    return found


def _gap_from(
    game: BoltActionGame, unit: UnitState, enemy: UnitState, origin: Point | None
) -> float:
    """The closest distance between ``unit``'s models and ``enemy``'s (inches), the unit's
    centre moved to ``origin`` if given (its models as they stand round it)."""
    if origin is None:
        return game.gap(unit, enemy)
    dx, dy = origin.x - unit.anchor.x, origin.y - unit.anchor.y
    return min(
        (
            math.dist((m.x + dx, m.y + dy), (e.x, e.y))
            for m in unit.alive_models
            for e in enemy.alive_models
        ),
        default=math.inf,
    )


def unseen_line(hidden: Sequence[tuple[UnitState, str]]) -> str | None:
    """ "not in sight: MG 42 MMG Team (Barn in the way), ...": the enemies
    :func:`out_of_sight` found, in a line; None where there are none."""
    if not hidden:
        return None
    return "not in sight: " + ", ".join(f"{enemy.name} ({why})" for enemy, why in hidden)


def _cannot_hit(
    game: BoltActionGame,
    unit: UnitState,
    target: UnitState,
    able: Sequence[tuple[Model, float]],
    *,
    moving: bool,
    origin: Point | None,
) -> list[tuple[str, list[str]]]:
    """The weapons that the ``able`` models (each with its range to ``target``) could fire
    (in range, on the move if ``moving``, not spent) but that the game's choice of weapon
    gives no shot (:func:`weapon_choice`): each with the shot plan's working of its roll
    to hit, which no die can make (pins, say), or its refusal; by working, in order."""
    rules = game.rules
    anchor = unit.anchor if origin is None else origin
    cover = unit_cover(game.rules, game.table, anchor, target)
    profile = target_profile(rules, target)
    short = one_crew_left(unit)
    found: dict[str, list[str]] = {}
    for model, far in able:
        situation = game.shot_situation(unit, target, far, moving=moving, cover=cover)
        for name in model.weapons:
            weapon = rules.weapon(name)
            if (
                not in_range(weapon, far)
                or (moving and not fires_on_the_move(weapon, mounted=unit.vehicle is not None))
                or spent(weapon, model.used_one_shot)
                or weapon_choice(
                    rules,
                    (name,),
                    situation,
                    profile,
                    at_vehicle=target.vehicle is not None,
                    crew_short=short,
                )
            ):
                continue
            try:
                _, working = plan_shot(rules, weapon, profile, crewed(situation, weapon, short))
                why = next(r.because for r in working if r.topic == "to hit")
            except CannotFire as exc:  # (the plan's refusal, without its advice to the asker)
                why = exc.why
            except UsageError as exc:
                why = clause(exc)
            found.setdefault(why, []).append(name)
    return list(found.items())


def _in_the_way(game: BoltActionGame, flat: tuple[float, ...], target: UnitState) -> str:
    """What blocks the sight lines between the unit's models (their places ``flat``) and
    ``target``'s: the features that block sight on the line between the nearest two, as
    the table's sight rule has it (one a model stands in does not block)."""
    table = game.table
    ours = [Point(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
    pairs = sorted(
        ((a, b.point) for a in ours for b in target.alive_models),
        key=lambda ab: ab[0].distance_to(ab[1]),
    )
    for a, b in pairs[:10]:
        standing = {*table.indices_at(a.x, a.y), *table.indices_at(b.x, b.y)}
        names = [
            table.features[j].name
            for j in table.path_indices(a, b)
            if table.features[j].blocks_line_of_sight and j not in standing
        ]
        if names:
            return f"{_listed(names)} in the way"
    return "no line of sight from any of its models"


def assault_closed(game: BoltActionGame, unit: UnitState) -> str:
    """Why ``unit`` may assault no enemy, as the game's check of each assault says it:
    each enemy within its Run with the game's reason it may not go in (a Run across an
    obstacle, say), else the nearest enemy's (out of reach)."""
    refused = []
    for enemy in game.units:
        if enemy.side == unit.side or enemy.destroyed:
            continue
        try:
            game.validate(Action("order", unit=unit.uid, order="Run", target=enemy.uid))
        except IllegalActionError as exc:  # (the game's reason)
            refused.append((game.gap(unit, enemy), clause(exc)))
    if not refused:
        return "no enemy is within a Run it could make to it"
    refused.sort()
    near = list(dict.fromkeys(why for _, why in refused if "beyond a" not in why))
    if near:
        return "; ".join(near[:3])
    return f"no enemy is within its Run (the nearest: {refused[0][1]})"


def fire_closed(game: BoltActionGame, unit: UnitState, offered: Sequence[str]) -> str:
    """Why no enemy is a target for ``unit``'s Fire order: the nearest enemy's reason
    (:func:`no_shot_reason`), and the support call it may make instead where it has one
    (an observer's barrage reaches any enemy it sees)."""
    enemies = [e for e in game.units if e.side != unit.side and not e.destroyed]
    if not enemies:
        return "no enemy is left"
    nearest = min(enemies, key=lambda e: game.gap(unit, e))
    said = (
        "no enemy is in its sight and range (the nearest, "
        f"{nearest.name}: {no_shot_reason(game, unit, nearest, moving=False)})"
    )
    calls = [name for name in offered if name.startswith("Call ")]
    if calls:
        said += (
            f"; its order for the enemy is {' or '.join(calls)}, in the menu, which reaches "
            "any enemy it sees, however far"
        )
    return said


def support_spent(game: BoltActionGame, unit: UnitState) -> tuple[str, str] | None:
    """An observer's call already made, as the menu names it and why it is gone: ("Call
    barrage", "its one barrage a game was called in turn 1"); None for a unit that is no
    observer, or has its call still to make."""
    kind = observer_kind(unit)
    if kind is None or not unit.support_used:
        return None
    call = next(k for k, observer in SUPPORT.items() if observer == kind)
    turn = next(
        (
            e.data.get("turn")
            for e in reversed(game.events)
            if e.kind == "order" and e.data.get("unit") == unit.uid and e.data.get("choice") == call
        ),
        None,
    )
    when = f" in turn {turn}" if turn is not None else ""
    return f"Call {call}", f"its one {call} a game was called{when}"


def _listed(names: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c" (each once, in order)."""
    names = list(dict.fromkeys(names))
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
