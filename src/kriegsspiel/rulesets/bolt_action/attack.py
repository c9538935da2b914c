"""A whole unit's shooting at one target: every weapon group, then pins and tests.

``attack_troops`` and ``attack_vehicle`` are the simulator's procedures; the ``exact_*``
functions compute the same outcomes' exact distributions from the same shot procedures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache, partial
from itertools import product

from kriegsspiel.core.dice import DiceExpr, Dist, capped_sum_mean
from kriegsspiel.core.procedure import Dice, exact
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.morale import (
    MoraleTest,
    destroyed_by_pins,
    losses_force_test,
    morale_check,
    new_test,
)
from kriegsspiel.rulesets.bolt_action.shot import Group, Shot
from kriegsspiel.rulesets.bolt_action.shot_rolls import ShotDice, roll_expr, roll_to_hit
from kriegsspiel.rulesets.bolt_action.to_hit import hit_chance
from kriegsspiel.rulesets.bolt_action.troop_damage import shot_at_troops, struck_troops
from kriegsspiel.rulesets.bolt_action.vehicle_damage import (
    Tally,
    VehicleProfile,
    VehicleState,
    after_shot,
    can_reach_damage,
    checked,
    damage_chance,
    hit_vehicle,
    hits_on_vehicle,
    pen_roll,
    pin_vehicle,
    resolve_damage,
    shot_at_vehicle,
)


@dataclass(frozen=True, slots=True)
class TroopsOutcome:
    hits: int
    casualties: int
    pins: int
    destroyed_by_morale: bool
    indirect_hit: bool = False  # an indirect shot hit: its firer is ranged in


@dataclass(frozen=True, slots=True)
class TroopsContext:
    """What the target brings to the attack: its size and its morale."""

    models: int | None
    morale: MoraleTest
    pins_per_attack: int


def troops_context(
    rules: Rules,
    groups: Sequence[Group],
    *,
    quality: str,
    models: int | None,
    pins: int,
    officer: str | None = None,
) -> TroopsContext:
    """What troops of ``quality`` bring to the attack of ``groups``: their ``models``
    (None: no cap on casualties), and a morale test with their ``pins`` and an ``officer``
    near (a flamethrower's check). An attack that hits brings the edition's pin, but none
    of its own where no shot pins by hitting (an aircraft's: the chart gives its pins)."""
    return TroopsContext(
        models=models,
        morale=new_test(rules, quality, officer=officer, pins=pins),
        pins_per_attack=rules.data.procedure.pins_per_attack
        if any(g.shot.pins_target for g in groups)
        else 0,
    )


def after_attack(
    dice: Dice,
    specials_hit: Sequence[Shot],
    any_hit: bool,
    ctx: TroopsContext,
    tally: Tally | None = None,
    kept: Sequence[ShotDice] | None = None,
) -> tuple[int, bool]:
    """Pins from the attack (the largest of 1 and any HE/flame pin roll, each written to
    the dice ``kept`` of its shot's group, if given: one for each of ``specials_hit``) and
    forced tests (a flamethrower's check written down in ``tally``, if given)."""
    if not any_hit:
        return 0, False
    rolled = [ctx.pins_per_attack]
    for i, s in enumerate(specials_hit):
        if s.special_pins is not None:
            rolled.append(roll_expr(dice, s.special_pins))
            if kept is not None:
                kept[i].pins.append(rolled[-1])
    pins = max(rolled)
    if any(s.morale_check for s in specials_hit):
        test = replace(ctx.morale, pins=ctx.morale.pins + pins)
        return pins, not checked(dice, test, tally, "flamethrower check")
    return pins, False


def _special(shot: Shot) -> bool:
    return shot.special_pins is not None or shot.morale_check


def attack_troops(
    dice: Dice, groups: Sequence[Group], ctx: TroopsContext, tally: Tally | None = None
) -> TroopsOutcome:
    """Roll a unit's whole attack at infantry or artillery (the simulator's procedure);
    each group's hits are added to ``tally``, if given.

    A shot whose to-hit roll hit pins the unit, and an indirect one ranges its firer in,
    even where the Down target's halving leaves it no hits (docs/rules "HE at a Down
    target"): the unit was struck all the same."""
    hits = casualties = 0
    any_struck = indirect_hit = False
    specials: list[Shot] = []
    specials_kept: list[ShotDice] = []  # (their groups' dice, where a tally is kept)
    for group in groups:
        group_hits = struck = 0
        kept = None
        if tally is not None:
            kept = ShotDice()
            tally.group_dice.append(kept)
        for _ in range(group.shots):
            hit, h, c = struck_troops(dice, group.shot, kept)
            struck += hit
            group_hits += h
            casualties += c
        hits += group_hits
        if tally is not None:
            tally.group_hits.append(group_hits)
            tally.group_struck.append(struck)
        any_struck = any_struck or bool(struck)
        indirect_hit = indirect_hit or bool(struck and group.shot.indirect)
        if struck and _special(group.shot):
            specials.append(group.shot)
            if kept is not None:
                specials_kept.append(kept)
    if ctx.models is not None:
        casualties = min(casualties, ctx.models)
    pins, destroyed = after_attack(
        dice, specials, any_struck, ctx, tally, specials_kept if tally is not None else None
    )
    return TroopsOutcome(hits, casualties, pins, destroyed, indirect_hit)


@dataclass(frozen=True, slots=True)
class TroopsOdds:
    hits: Dist[int]
    casualties: Dist[int]
    pins: Dist[int]
    p_destroyed_by_morale: Fraction


def _sum(dists: Sequence[Dist[int]]) -> Dist[int]:
    return Dist.sum_of(dists)


@lru_cache(maxsize=4096)
def troops_shot_distribution(shot: Shot) -> Dist[tuple[int, int]]:
    """(hits, casualties) of one shot, exactly; cached by the shot's situation."""
    return exact(partial(shot_at_troops, shot=shot))


@lru_cache(maxsize=4096)
def struck_distribution(shot: Shot) -> Dist[tuple[bool, int]]:
    """Whether one shot at troops strikes them (its to-hit roll hits: the unit is pinned,
    whatever hits the Down halving leaves) and its casualties, exactly."""
    return exact(partial(struck_troops, shot=shot)).map(lambda o: (o[0], o[2]))


@lru_cache(maxsize=8192)
def missed_chance(shot: Shot, shots: int) -> Fraction:
    """The chance that none of ``shots`` such shots strikes the target (see
    :func:`struck_distribution`): all that decides whether they pin it (kept, as the
    counts it replaced were: the tactical player asks it of every shot it weighs)."""
    return (1 - hit_chance(shot.hit_on)) ** shots


@lru_cache(maxsize=8192)
def _group_counts(shot: Shot, shots: int) -> tuple[Dist[int], Dist[int]]:
    """Hits and casualties of ``shots`` such shots, exactly."""
    per_shot = troops_shot_distribution(shot)
    return (
        per_shot.map(lambda o: o[0]).repeat_sum(shots),
        per_shot.map(lambda o: o[1]).repeat_sum(shots),
    )


@lru_cache(maxsize=8192)
def _after_hits(specials_hit: tuple[Shot, ...], ctx: TroopsContext) -> Dist[tuple[int, bool]]:
    """:func:`after_attack` of an attack that hit, exactly."""
    return exact(partial(after_attack, specials_hit=specials_hit, any_hit=True, ctx=ctx))


def exact_troops(groups: Sequence[Group], ctx: TroopsContext) -> TroopsOdds:
    """Exact distributions of :func:`attack_troops`, built from the same shot procedure."""
    after = _pins_and_tests(groups, ctx)
    return TroopsOdds(
        hits=_sum([_group_counts(g.shot, g.shots)[0] for g in groups]),
        casualties=_casualties(groups, ctx.models),
        pins=after.map(_first),
        p_destroyed_by_morale=after.probability(lambda o: o[1]),
    )


def expected_troops(groups: Sequence[Group], ctx: TroopsContext) -> tuple[Fraction, Fraction]:
    """The means of :func:`exact_troops`' casualties and pins, without its other parts.

    The same exact fractions, found the short way: when the target's size cannot cap the
    casualties their mean is the sum of the groups' means (else only the sums below the
    cap are worked out, :func:`capped_sum_mean`), and when no group brings special pins
    or tests the pins' mean is the pins per attack times the chance that anything hits.
    """
    summaries = [_group_summary(g.shot, g.shots) for g in groups]
    if ctx.models is None or sum(s[0] for s in summaries) <= ctx.models:
        casualties = sum((s[1] for s in summaries), Fraction(0))
    else:
        counts = [_group_counts(g.shot, g.shots)[1] for g in groups]
        casualties = capped_sum_mean(counts, ctx.models)
    if any(_special(g.shot) for g in groups):
        return casualties, _pins_and_tests(groups, ctx).map(_first).mean()
    missed = Fraction(1)
    for g in groups:
        missed *= missed_chance(g.shot, g.shots)
    return casualties, (1 - missed) * ctx.pins_per_attack


@lru_cache(maxsize=4096)
def _group_summary(shot: Shot, shots: int) -> tuple[int, Fraction]:
    """What :func:`expected_troops` reads of a group's casualties: the most and their mean
    (kept: the same groups meet many targets and pins)."""
    casualties = _group_counts(shot, shots)[1]
    return max(casualties.outcomes()), casualties.mean()


def troops_outcomes(groups: Sequence[Group], ctx: TroopsContext) -> Dist[tuple[int, int, bool]]:
    """The attack's casualties, pins and whether a forced test destroys the target, jointly
    (what comes after the attack reads all three together: the survivors, their pins, and
    whether they are still there at all).

    The same outcomes as :func:`attack_troops`, from the same shot procedure: each shot
    only adds casualties and says whether it struck (:func:`struck_distribution`), so the
    attack is folded shot by shot over (casualties so far, which groups with special pins
    or tests struck, whether any struck).
    """
    cap = ctx.models
    state: Dist[tuple[int, tuple[int, ...], bool]] = Dist.constant((0, (), False))
    for i, group in enumerate(groups):
        special = _special(group.shot)
        per_shot = struck_distribution(group.shot)
        for _ in range(group.shots):

            def add(
                s: tuple[int, tuple[int, ...], bool],
                i: int = i,
                special: bool = special,
                per_shot: Dist[tuple[bool, int]] = per_shot,
            ) -> Dist[tuple[int, tuple[int, ...], bool]]:
                casualties, hit_groups, any_hit = s

                def one(o: tuple[bool, int]) -> tuple[int, tuple[int, ...], bool]:
                    total = casualties + o[1]
                    groups_hit = hit_groups
                    if o[0] and special and i not in hit_groups:
                        groups_hit = (*hit_groups, i)
                    return (total if cap is None else min(total, cap), groups_hit, any_hit or o[0])

                return per_shot.map(one)

            state = state.bind(add)

    def after(s: tuple[int, tuple[int, ...], bool]) -> Dist[tuple[int, int, bool]]:
        casualties, hit_groups, any_hit = s
        if not any_hit:
            return Dist.constant((casualties, 0, False))
        specials = tuple(groups[i].shot for i in hit_groups)
        return _after_hits(specials, ctx).map(lambda o: (casualties, o[0], o[1]))

    return state.bind(after)


def troops_left(
    rules: Rules,
    groups: Sequence[Group],
    *,
    quality: str,
    models: int,
    start_models: int,
    pins: int,
    officer: str | None = None,
) -> Dist[tuple[int, int]]:
    """A troops unit after an attack, as the game leaves it: its models left and its pins,
    with no models left when it is gone (every man down, a flamethrower's test failed, as
    many pins as its morale, or a loss to half strength and the morale check that brings
    failed, an officer in range helping both tests)."""
    ctx = troops_context(rules, groups, quality=quality, models=models, pins=pins, officer=officer)

    def left(outcome: tuple[int, int, bool]) -> Dist[tuple[int, int]]:
        casualties, new_pins, destroyed = outcome
        alive, now = models - casualties, pins + new_pins
        if alive == 0 or destroyed or destroyed_by_pins(rules, quality, now):
            return Dist.constant((0, now))
        if casualties and losses_force_test(start_models, alive):
            test = new_test(rules, quality, officer=officer, pins=now)
            holds = exact(partial(morale_check, test=test)).probability(True)
            return Dist.mixture(
                [(holds, Dist.constant((alive, now))), (1 - holds, Dist.constant((0, now)))]
            )
        return Dist.constant((alive, now))

    return troops_outcomes(groups, ctx).bind(left)


def _first(outcome: tuple[int, bool]) -> int:
    return outcome[0]


def _casualties(groups: Sequence[Group], models: int | None) -> Dist[int]:
    """The attack's casualties (no more than the target's models)."""
    casualties = _sum([_group_counts(g.shot, g.shots)[1] for g in groups])
    if models is not None:
        casualties = casualties.map(lambda c: min(c, models))
    return casualties


def _pins_and_tests(groups: Sequence[Group], ctx: TroopsContext) -> Dist[tuple[int, bool]]:
    """The attack's pins and whether a forced test destroys the target.

    They depend only on which groups struck the target at all (a to-hit roll that hit,
    whatever hits the Down halving left): the attack is split by which of the groups with
    special pins or tests struck.
    """
    p_none = [missed_chance(g.shot, g.shots) for g in groups]
    special = [i for i, g in enumerate(groups) if _special(g.shot)]
    plain_none = Fraction(1)
    for i in range(len(groups)):
        if i not in special:
            plain_none *= p_none[i]
    parts: list[tuple[Fraction, Dist[tuple[int, bool]]]] = []
    for pattern in product((False, True), repeat=len(special)):
        weight = Fraction(1)
        for i, hit in zip(special, pattern, strict=True):
            weight *= (1 - p_none[i]) if hit else p_none[i]
        if weight == 0:
            continue
        shots = tuple(groups[i].shot for i, hit in zip(special, pattern, strict=True) if hit)
        if any(pattern):
            parts.append((weight, _after_hits(shots, ctx)))
        else:
            if plain_none != 1:
                parts.append((weight * (1 - plain_none), _after_hits((), ctx)))
            if plain_none != 0:
                parts.append((weight * plain_none, Dist.constant((0, False))))
    return Dist.mixture(parts)


def attack_vehicle(dice: Dice, groups: Sequence[Group], tally: Tally | None = None) -> VehicleState:
    """Roll a unit's whole attack at a vehicle, shot by shot (the simulator's procedure);
    each group's hits and each damage roll are added to ``tally``, if given."""
    state = _untouched(groups)
    for group in groups:
        if tally is not None:
            tally.group_hits.append(0)
            tally.group_dice.append(ShotDice())
        for _ in range(group.shots):
            state = shot_at_vehicle(dice, group.shot, state, tally)
    return state


def exact_vehicle(groups: Sequence[Group]) -> Dist[VehicleState]:
    """Exact distribution of :func:`attack_vehicle`'s final state.

    Each shot is taken in the same stages as :func:`shot_at_vehicle` (hits, the attack's
    pin, each hit's damage as a Markov chain, then a flamethrower's test), so many hits
    stay cheap.
    """
    state: Dist[VehicleState] = Dist.constant(_untouched(groups))
    for group in groups:
        chain = _shot_chain(state, group.shot)
        while len(chain) <= group.shots:
            chain.append(chain[-1].bind(partial(_after_one_shot, group.shot)))
        state = chain[group.shots]
    return state


def knock_out_chance(groups: Sequence[Group]) -> Fraction:
    """:func:`exact_vehicle`'s chance of a knock-out, following only what decides it.

    A shot's odds read a vehicle's state only for whether it is knocked out or immobilised
    and for its pins (the crew's morale tests); whether its crew were stunned, whether it
    caught fire and the worst damage it took are written but never read, and nothing
    changes a knocked-out vehicle's fate. So states that differ only in those are one state
    here (the chain is lumped), and every knocked-out state is one: the same fraction, over
    far fewer states.

    The crew's tests count the pins the vehicle carried before the attack and those it
    takes, together; those it carried are counted here as taken before the first shot, so
    the odds of each shot are shared by attacks on the same vehicle whatever its pins.
    """
    carried = {g.shot.vehicle.crew_morale.pins for g in groups if g.shot.vehicle is not None}
    pins = carried.pop() if len(carried) == 1 else 0  # (one vehicle: one count of pins)
    shots = tuple((_pins_taken_off(g.shot) if pins else g.shot, g.shots) for g in groups)
    if not shots:
        return Fraction(0)
    return _chance_from(replace(_untouched(groups), damage_pins=pins), shots)


@lru_cache(maxsize=4096)
def _chance_from(state: VehicleState, shots: tuple[tuple[Shot, int], ...]) -> Fraction:
    """The chance that ``shots`` (each a shot and how many of it), from the lumped
    ``state``, end with the vehicle knocked out.

    Worked back from the last shots: the chance after the first group is that of the
    rest from each state the group may leave, so attacks that differ only in their first
    groups share the odds of the rest (the same fraction as following the whole mix).
    """
    if state.knocked_out:
        return Fraction(1)  # (nothing changes a knocked-out vehicle's fate)
    (shot, count), rest = shots[0], shots[1:]
    chain = _state_chain(shot, state)
    while len(chain) <= count:
        chain.append(chain[-1].bind(partial(_after_one_shot, shot, lump=_decisive)))
    if not rest:
        return chain[count].probability(KNOCKED_OUT)
    return sum((p * _chance_from(s, rest) for s, p in chain[count].items()), Fraction(0))


@lru_cache(maxsize=1024)
def _state_chain(shot: Shot, state: VehicleState) -> list[Dist[VehicleState]]:
    """The lumped states after 0, 1, 2, ... such shots from ``state``: grown as needed."""
    return [Dist.constant(state)]


def vehicle_outcomes(groups: Sequence[Group]) -> Dist[VehicleState]:
    """:func:`exact_vehicle`'s final states with only what the game applies to the vehicle
    after the attack: whether it is knocked out and, if not, whether it is immobilised,
    its crew stunned or on fire (either halts it) and the pins the attack added (those it
    carried before are not in them). The same fractions, lumped as
    :func:`knock_out_chance` lumps its chain (the pins carried counted as taken before
    the first shot; the worst damage, how a knock-out came and a ranging-in dropped)."""
    carried = {g.shot.vehicle.crew_morale.pins for g in groups if g.shot.vehicle is not None}
    pins = carried.pop() if len(carried) == 1 else 0  # (one vehicle: one count of pins)
    shots = tuple((_pins_taken_off(g.shot) if pins else g.shot, g.shots) for g in groups)
    start = replace(_untouched(groups), damage_pins=pins)
    if not shots:
        return Dist.constant(_carried_off(pins, start))
    return _outcomes_from(start, shots).map(partial(_carried_off, pins))


def _carried_off(pins: int, state: VehicleState) -> VehicleState:
    """The state with the ``pins`` carried into the attack taken off its pins again."""
    return replace(state, damage_pins=state.damage_pins - pins) if pins and state.pins else state


@lru_cache(maxsize=4096)
def _outcomes_from(state: VehicleState, shots: tuple[tuple[Shot, int], ...]) -> Dist[VehicleState]:
    """The :func:`as_applied` states ``shots`` (each a shot and how many of it) leave from
    ``state``, worked back from the last shots as :func:`_chance_from` works."""
    if state.knocked_out:
        return Dist.constant(KNOCKED_OUT)
    (shot, count), rest = shots[0], shots[1:]
    chain = _applied_chain(shot, state)
    while len(chain) <= count:
        chain.append(chain[-1].bind(partial(_after_one_shot, shot, lump=as_applied)))
    if not rest:
        return chain[count]
    return chain[count].bind(partial(_outcomes_after, rest))


def _outcomes_after(rest: tuple[tuple[Shot, int], ...], state: VehicleState) -> Dist[VehicleState]:
    return _outcomes_from(state, rest)


@lru_cache(maxsize=1024)
def _applied_chain(shot: Shot, state: VehicleState) -> list[Dist[VehicleState]]:
    """The :func:`as_applied` states after 0, 1, 2, ... such shots from ``state``: grown as
    needed."""
    return [Dist.constant(state)]


def vehicle_pins_ceiling(groups: Sequence[Group]) -> Fraction:
    """No less than the mean of the pins :func:`vehicle_outcomes` gives the attack, found
    without following the vehicle's states: each shot's own pin at its most (the attack
    gives only its largest) with the chance it hits, and each hit's damage results at
    their most pins with the chance its pen roll reaches a damage level (a set result's
    pins with the chance the shot hits)."""
    return sum(
        (_shot_pins_ceiling(g.shot) * g.shots for g in groups if g.shot.vehicle is not None),
        Fraction(0),
    )


@lru_cache(maxsize=4096)
def _shot_pins_ceiling(shot: Shot) -> Fraction:
    """No less than the pins one shot at a vehicle is expected to add (see
    :func:`vehicle_pins_ceiling`)."""
    vehicle = shot.vehicle
    assert vehicle is not None
    hits = _vehicle_hits(_rolling(shot))
    hit = 1 - hits.probability(0)
    own = 0
    if shot.pins_target or shot.auto_effect is not None:
        own = max(1, _most_of(shot.special_pins)) if shot.special_pins else 1
    if shot.auto_effect is not None:
        results = max(p for _, _, e, p in vehicle.results if e == shot.auto_effect)
        return hit * (own + results)
    most = max((p for _, _, _, p in vehicle.results), default=0)
    if shot.pen is None or not most:
        return hit * own
    per_hit = max(1, vehicle.massive_results) * most * damage_chance(vehicle, shot.pen)
    return hit * own + hits.mean() * per_hit


def _most_of(expr: DiceExpr) -> int:
    """The most a dice expression can roll (a roll of dice is never below 0)."""
    return expr.most if expr.count == 0 else max(0, expr.most)


def _untouched(groups: Sequence[Group]) -> VehicleState:
    """The vehicle as the attack finds it (all its shots are at the one vehicle)."""
    for group in groups:
        if group.shot.vehicle is not None:
            return group.shot.vehicle.untouched()
    return VehicleState()


@lru_cache(maxsize=1024)
def _pins_taken_off(shot: Shot) -> Shot:
    """The shot at the same vehicle with no pins carried into its crew's tests."""
    assert shot.vehicle is not None
    crew = replace(shot.vehicle.crew_morale, pins=0)
    return replace(shot, vehicle=replace(shot.vehicle, crew_morale=crew))


KNOCKED_OUT = VehicleState(knocked_out=True)


def as_applied(state: VehicleState) -> VehicleState:
    """The part of a vehicle's state the game applies after the attack (see
    :func:`vehicle_outcomes`): knocked out, or immobilised, stunned, on fire and its pins.
    An assault's exact states (``exact(vehicle_assault(...))``) read so too."""
    if state.knocked_out:
        return KNOCKED_OUT
    return VehicleState(
        immobilised=state.immobilised,
        damage_pins=state.damage_pins,
        attack_pins=state.attack_pins,
        crew_stunned=state.crew_stunned,
        on_fire=state.on_fire,
    )


def vehicle_gone(rules: Rules, quality: str, pins: int, state: VehicleState) -> bool:
    """Is a vehicle of ``quality`` that carried ``pins`` gone after an attack that leaves
    it in ``state`` (:func:`as_applied`): knocked out, or its crew abandon it under as many
    pins as its morale (the pins it carried and those the attack added)?"""
    return state.knocked_out or destroyed_by_pins(rules, quality, pins + state.pins)


#: a lumping of a vehicle's states: the part of a state some odds read (see :func:`_decisive`)
Projection = Callable[[VehicleState], VehicleState]
Lump = Projection | None  # (None: every state whole)


def _decisive(state: VehicleState) -> VehicleState:
    """The part of a vehicle's state that decides whether it is knocked out in the end."""
    if state.knocked_out:
        return KNOCKED_OUT
    return VehicleState(
        immobilised=state.immobilised,
        damage_pins=state.damage_pins,
        attack_pins=state.attack_pins,
    )


def knock_out_ceiling(groups: Sequence[Group]) -> Fraction:
    """No less than :func:`exact_vehicle`'s chance of a knock-out, found without it.

    A shot knocks nothing out unless one of its hits reaches a damage level (or brings an
    effect of its own, or a test): so the chance is at most one less the chance that no
    shot does either. Cheap where the exact odds are dear: no vehicle state is followed.
    """
    none = Fraction(1)
    for group in groups:
        none *= _harmless(group.shot) ** group.shots
    return 1 - none


@lru_cache(maxsize=4096)
def _harmless(shot: Shot) -> Fraction:
    """The chance that one shot at a vehicle has no hit that could damage it."""
    hits = _vehicle_hits(_rolling(shot))
    if shot.auto_effect is not None or shot.morale_check:
        return hits.probability(0)  # any hit may do it
    if shot.pen is None or shot.vehicle is None or not can_reach_damage(shot.vehicle, shot.pen):
        return Fraction(1)  # its hits cannot damage (a pin is all it brings)
    # each hit's pen roll reaches no damage level with this chance, whatever came before
    spent = pen_levels(shot.vehicle, shot.pen).probability(0)
    return sum((p * spent**k for k, p in hits.items()), Fraction(0))


def futile(groups: Sequence[Group]) -> bool:
    """Whether these shots at a vehicle can do nothing to it whatever the dice: no hit of
    them could damage it (:func:`_harmless`: small arms at armour, a pen that even a 6
    leaves short), none brings a pin (a closed vehicle such a hit cannot damage is not
    pinned: :func:`~.shooting.plan_shot`), a set result or a test, and none is indirect
    fire that would range in on it. False for any shot at troops."""
    return all(
        g.shot.vehicle is not None
        and not g.shot.pins_target
        and not g.shot.indirect
        and g.shot.auto_effect is None
        and not g.shot.morale_check
        and _harmless(g.shot) == 1
        for g in groups
    )


@lru_cache(maxsize=512)
def _shot_chain(start: Dist[VehicleState], shot: Shot) -> list[Dist[VehicleState]]:
    """The states after 0, 1, 2, ... such shots from ``start``: grown as needed, kept."""
    return [start]


@lru_cache(maxsize=4096)
def _vehicle_hits(shot: Shot) -> Dist[int]:
    return exact(partial(hits_on_vehicle, shot=shot))


@lru_cache(maxsize=4096)
def _after_one_shot(shot: Shot, before: VehicleState, lump: Lump = None) -> Dist[VehicleState]:
    """The vehicle's state after one more shot (cached: shots repeat within and across
    attacks); ``lump``: only the part of it that projection keeps, after every hit."""
    if before.knocked_out:
        return Dist.constant(before)
    hits = _vehicle_hits(_rolling(shot))
    hitting, closing = _hitting(shot), _closing(shot)
    parts = [
        (
            p,
            Dist.constant(before)
            if k == 0
            else _hits_then_after(hitting, closing, before, k, lump),
        )
        for k, p in hits.items()
    ]
    return Dist.mixture(parts)


@lru_cache(maxsize=4096)
def _hits_then_after(
    hitting: Shot, closing: Shot, before: VehicleState, hits: int, lump: Lump
) -> Dist[VehicleState]:
    """The state after the shot's pin (:func:`pin_vehicle`), ``hits`` hits (each hit's
    damage, as :func:`markov` runs it, with shared steps) and then its test: kept by the
    parts of the shot those read (:func:`_hitting`, :func:`_closing`), shared by shots
    that differ in hitting."""
    pinned = _pinned_odds(closing, before)
    if lump is not None:
        pinned = pinned.map(lump)
    return pinned.bind(partial(_damage_then_after, hitting, closing, hits, lump))


@lru_cache(maxsize=4096)
def _pinned_odds(shot: Shot, state: VehicleState) -> Dist[VehicleState]:
    return exact(partial(pin_vehicle, shot=shot, state=state))


@lru_cache(maxsize=4096)
def _damage_then_after(
    hitting: Shot, closing: Shot, hits: int, lump: Lump, before: VehicleState
) -> Dist[VehicleState]:
    """The state after ``hits`` hits from ``before`` (the shot's pin taken), then its test."""
    chain = _hit_chain(hitting, before, lump)
    step = partial(_hit_odds, hitting) if lump is None else partial(_hit_odds_lumped, lump, hitting)
    while len(chain) <= hits:
        chain.append(chain[-1].bind(step))
    if lump is None:
        return chain[hits].bind(partial(_after_shot_odds, closing))
    return chain[hits].bind(partial(_after_shot_lumped, lump, closing))


@lru_cache(maxsize=1024)
def _hit_chain(hitting: Shot, before: VehicleState, lump: Lump) -> list[Dist[VehicleState]]:
    """The states after 0, 1, 2, ... hits of ``hitting`` from ``before``: grown as needed."""
    return [Dist.constant(before)]


@lru_cache(maxsize=4096)
def _hit_odds_lumped(lump: Projection, shot: Shot, state: VehicleState) -> Dist[VehicleState]:
    return _hit_odds(shot, state).map(lump)


@lru_cache(maxsize=4096)
def _after_shot_lumped(lump: Projection, shot: Shot, state: VehicleState) -> Dist[VehicleState]:
    return _after_shot_odds(shot, state).map(lump)


# Each stage of a shot at a vehicle reads only part of the shot: its odds are cached by
# just that part, so shots of other weapons that agree on it share them.
@lru_cache(maxsize=1024)
def _rolling(shot: Shot) -> Shot:
    """The shot with only what :func:`hits_on_vehicle` reads."""
    return Shot(
        weapon="", hit_on=shot.hit_on, hits_per_hit=shot.hits_per_hit, auto_effect=shot.auto_effect
    )


@lru_cache(maxsize=1024)
def _closing(shot: Shot) -> Shot:
    """The shot with only what :func:`pin_vehicle` and :func:`after_shot` read."""
    return Shot(
        weapon="",
        hit_on=None,
        special_pins=shot.special_pins,
        pins_target=shot.pins_target,
        morale_check=shot.morale_check,
        auto_effect=shot.auto_effect,
        vehicle=shot.vehicle,
        indirect=shot.indirect,
    )


@lru_cache(maxsize=1024)
def _hitting(shot: Shot) -> Shot:
    """The shot with only what :func:`hit_vehicle` reads."""
    return Shot(
        weapon="", hit_on=None, pen=shot.pen, auto_effect=shot.auto_effect, vehicle=shot.vehicle
    )


@lru_cache(maxsize=4096)
def _hit_odds(shot: Shot, state: VehicleState) -> Dist[VehicleState]:
    """The state after one more hit (:func:`hit_vehicle`).

    A hit with a pen roll is taken in its two steps: the roll's damage level (by the
    vehicle and pen only), then :func:`resolve_damage` from each level, whose odds are
    shared by every shot at a vehicle with the same damage results (:func:`_resolving`)
    that reaches the same level from the same state. The same exact distribution, with
    far fewer rolls replayed the first time.
    """
    vehicle = shot.vehicle
    if vehicle is None or state.knocked_out or shot.auto_effect is not None or shot.pen is None:
        return exact(lambda dice: _hit_step(dice, state, shot=shot))
    resolving = partial(_resolve_odds, _resolving(vehicle), state)
    return pen_levels(vehicle, shot.pen).bind(resolving)


@lru_cache(maxsize=1024)
def _resolving(vehicle: VehicleProfile) -> VehicleProfile:
    """The vehicle with only what :func:`resolve_damage` reads: its damage value and
    margins are the pen roll's, and an earlier immobilisation is in the attack's state."""
    return replace(vehicle, damage_value=0, thresholds=(0, 0, 0), immobilised=False)


@lru_cache(maxsize=1024)
def pen_levels(vehicle: VehicleProfile, pen: int) -> Dist[int]:
    """The damage level (0..3) a pen roll of D6 + ``pen`` reaches against ``vehicle``."""
    return exact(partial(pen_roll, vehicle=vehicle, pen=pen))


@lru_cache(maxsize=4096)
def _resolve_odds(vehicle: VehicleProfile, state: VehicleState, level: int) -> Dist[VehicleState]:
    """:func:`resolve_damage` of ``level`` from ``state``, exactly."""
    return exact(partial(resolve_damage, vehicle=vehicle, state=state, level=level))


@lru_cache(maxsize=4096)
def _after_shot_odds(shot: Shot, state: VehicleState) -> Dist[VehicleState]:
    return exact(partial(after_shot, shot=shot, state=state))


def _hit_step(dice: Dice, state: VehicleState, shot: Shot) -> VehicleState:
    return hit_vehicle(dice, shot, state)


def hits_scored(dice: Dice, shot: Shot) -> int:
    """The hits one shot scores (a flamethrower's or HE's multiplier included)."""
    return roll_expr(dice, shot.hits_per_hit) if roll_to_hit(dice, shot.hit_on) else 0


def hits_distribution(groups: Sequence[Group]) -> Dist[int]:
    """How many hits the attack scores if every shot is rolled."""
    return _sum([exact(partial(hits_scored, shot=g.shot)).repeat_sum(g.shots) for g in groups])
