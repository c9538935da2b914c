"""What a person playing a side is shown: the units, the ground, a unit's card, and the
odds of a shot, an assault and an order test.

The odds come from the rule code that rolls the dice: the game's own shooting (the
groups it would fire, and the setup its attack would resolve them with) with the exact
distributions of :mod:`kriegsspiel.rulesets.bolt_action.attack`, its order test, and its
attack on a vehicle; a fight between troops is the tactical AI's reckoning of the exact
close-quarters odds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from rich import box
from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text

from kriegsspiel.core.dice import Dist
from kriegsspiel.core.names import facing_text
from kriegsspiel.core.per_cent import chance_shown_whole
from kriegsspiel.core.table import Point
from kriegsspiel.render.chart_text import (
    he_text,
    officer_text,
    pen_text,
    range_text,
    special_text,
)
from kriegsspiel.render.roster_text import vehicle_traits
from kriegsspiel.rulesets.bolt_action.attack import (
    expected_troops,
    futile,
    vehicle_gone,
    vehicle_outcomes,
)
from kriegsspiel.rulesets.bolt_action.edition import Rules
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.close_quarters import vehicle_assault_outcomes
from kriegsspiel.rulesets.bolt_action.game.orders import order_test_of
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.support import blast_reach, caught
from kriegsspiel.rulesets.bolt_action.game.table_rules import (
    check_order_move,
    terrain_column,
    terrain_refusal,
)
from kriegsspiel.rulesets.bolt_action.game.units import UnitState, VehicleInfo
from kriegsspiel.rulesets.bolt_action.morale import (
    MoraleTest,
    order_test_needed,
    order_test_outcomes,
)
from kriegsspiel.rulesets.bolt_action.to_hit import describe_needs
from kriegsspiel.rulesets.bolt_action.vehicle_damage import VehicleState

SIDE_NAMES = ("A", "B")
# inches: models this much nearer the centre than the foremost (or hindmost) along a move
# are in the same rank (a squad's ranks stand 1" apart)
RANK_SLACK = 0.3
STATE_WIDTH = 34  # the most columns the units table's state takes (it wraps between words)


def status(unit: UnitState) -> str:
    """A unit's state in a word or two: its order this turn, a die it kept, its damage."""
    bits = []
    if unit.destroyed:
        return "destroyed"
    if unit.order is not None:
        bits.append(f"order: {unit.order}")
    elif unit.retained is not None:
        bits.append(f"kept: {unit.retained}")
    if unit.immobilised:
        bits.append("immobilised")
    if unit.no_run:
        bits.append("cannot Run")
    return ", ".join(bits)


def order_test_text(game: BoltActionGame, unit: UnitState) -> str:
    """The order test a unit takes for an order (not an assault on a vehicle), as the
    player weighs it: what it needs on 2D6, the chance to pass, and of a FUBAR, and that a
    Down order needs none; "" where it needs none (no pins)."""
    test = order_test_of(game, unit, Action("order", unit=unit.uid, order="Advance"))
    if not order_test_needed(game.rules, test):
        return ""
    passed, fubar = _order_odds(game.rules, test)
    return (
        f"{test.value} or less: {chance_shown_whole(passed)} (FUBAR {chance_shown_whole(fubar)}); a Down order "
        "needs no test"
    )


@lru_cache(maxsize=256)
def _order_odds(rules: Rules, test: MoraleTest) -> tuple[float, float]:
    """The chance to pass an order test, and of a FUBAR: exact, from the game's own test."""
    odds = order_test_outcomes(rules, test)
    return float(odds.probability("pass")), float(
        odds.probability(lambda o: o in ("friendly fire", "panic"))
    )


def units_table(
    game: BoltActionGame, units: Sequence[UnitState], title: str, *, sides: bool = False
) -> Group:
    """Numbered units, as the player picks them: models, pins, state, place, a vehicle's
    facing and the nearest enemy (the gap between the nearest models, in inches), and for
    a pinned unit still to order, its order test; ``sides``: with each unit's side (for a
    list of both sides' units), written after its name as the lists write it, "(B)".

    Laid out to be read in 80 columns (a log, piped output): no lines between the
    columns, and a name is wrapped between its words, never cut short; the title is a
    line of its own (as wide as the screen, not the table)."""
    side = game.current_player()
    to_order = {u.uid for u in game.eligible(side)} if side in (0, 1) else set()
    # (the order test of a unit that has its order, or is not the side's to order, is none)
    tests = [order_test_text(game, u) if u.uid in to_order else "" for u in units]
    names = [f"{u.name} ({SIDE_NAMES[u.side]})" if sides else u.name for u in units]
    # a vehicle's facing (where its front and hull weapons point), its order or a die it
    # kept, its damage, and (a pinned unit still to order) its order test
    states = [
        ", ".join(
            [
                *([] if u.vehicle is None else [facing_text(u.heading or 0)]),
                *([status(u)] if status(u) else []),
                *([f"order test {test}"] if test else []),
            ]
        )
        for u, test in zip(units, tests, strict=True)
    ]
    nearest: list[str] = []
    for unit in units:
        enemies = [e for e in game.units if e.side != unit.side and not e.destroyed]
        near = min(enemies, key=lambda e: game.gap(unit, e), default=None)
        nearest.append("" if near is None else f'{near.name} {game.gap(unit, near):.1f}"')
    table = RichTable(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=(0, 1, 0, 0),
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("unit", min_width=_longest_word(names))
    table.add_column("models", justify="right", no_wrap=True)
    table.add_column("pins", justify="right", no_wrap=True)
    # (a pinned unit's order test wraps in it: the table stays narrow on a wide screen)
    table.add_column("state", min_width=_longest_word(states), max_width=STATE_WIDTH)
    table.add_column("x, y", justify="right", no_wrap=True)
    table.add_column("nearest enemy", min_width=_longest_word(nearest))
    for number, unit in enumerate(units):
        a = unit.anchor
        row = [str(number + 1), names[number]]
        row += [f"{len(unit.alive_models)}/{unit.start_models}", str(unit.pins), states[number]]
        row += [f"{a.x:.1f}, {a.y:.1f}"]
        row += [nearest[number]]
        table.add_row(*row)
    return Group(Text(title), table)


def _longest_word(texts: Sequence[str]) -> int:
    """The width of the longest word in ``texts`` (a column this wide wraps them between
    words, without cutting one short)."""
    return max((len(word) for text in texts for word in text.split()), default=1)


def ground(game: BoltActionGame, at: Point) -> str:
    """The terrain under a point, as a player names it: "in Wood (soft cover)", or "open"."""
    here = game.table.features_at(at)
    if not here:
        return "open ground"
    return ", ".join(f"{f.name} ({f.category}, {_cover(f.cover)})" for f in here)


def _cover(cover: str) -> str:
    """ "soft cover", "hard cover", "no cover"."""
    return "no cover" if cover == "none" else f"{cover} cover"


def place_line(game: BoltActionGame, unit: UnitState, to: tuple[float, float]) -> str:
    """A destination as the player weighs it: where, how far, and on what ground."""
    point = Point(*to)
    far = unit.anchor.distance_to(point)
    if far == 0:
        return f"({to[0]:.1f}, {to[1]:.1f}), where it stands (to turn there)"
    return f'({to[0]:.1f}, {to[1]:.1f}), {far:.1f}" away, {ground(game, point)}'


def end_heading(game: BoltActionGame, unit: UnitState, move: Action) -> float | None:
    """The heading a vehicle fires with after the move order ``move`` (an Advance or a
    Run with its place, way and facing): as the game's own move check leaves it (it turns
    to face the way it drives, then to any facing given); None for troops, who have none."""
    if unit.vehicle is None or move.to is None:
        return None
    return check_order_move(game.rules, game.table, unit, move).heading


def formation_refusal(
    game: BoltActionGame, unit: UnitState, to: tuple[float, float], *, run: bool
) -> str | None:
    """Why a move of ``unit``'s centre to ``to`` is refused for its formation, not its
    centre: the ground its centre crosses and ends on lets it pass, but some of its
    models, which move with the centre as they stand, would end in (or cross) a feature
    that refuses the move: which models (its front rank, say, and how far ahead of the
    centre they stand), how deep the unit stands, and where. None where that is not why
    (the centre's own path is refused, or nothing is)."""
    table, rules = game.table, game.rules
    column, vehicle = terrain_column(unit), unit.vehicle is not None
    start, end = unit.anchor, Point(*to)
    if start == end or len(unit.alive_models) < 2:
        return None

    def refuses(j: int) -> bool:
        return terrain_refusal(rules, table.features[j], column, vehicle, run) is not None

    if any(refuses(j) for j in {*table.path_indices(start, end), *table.indices_at(*to)}):
        return None  # (the centre's own move is refused: the game's reason says it)
    dx, dy = end.x - start.x, end.y - start.y
    far = math.hypot(dx, dy)
    ux, uy = dx / far, dy / far
    models = unit.alive_models
    ahead = [(m.x - start.x) * ux + (m.y - start.y) * uy for m in models]
    for ending in (True, False):  # models that end in it first, then any that cross it
        for j, feature in enumerate(table.features):
            if not refuses(j):
                continue
            caught = [
                i
                for i, m in enumerate(models)
                if j in table.indices_at(m.x + dx, m.y + dy)
                or (not ending and j in table.path_indices(m.point, Point(m.x + dx, m.y + dy)))
            ]
            if not caught:
                continue
            lead, front, back = [ahead[i] for i in caught], max(ahead), min(ahead)
            if all(front - a < RANK_SLACK for a in lead):
                who = f'its front rank, {front:.1f}" ahead of its centre,'
            elif all(a - back < RANK_SLACK for a in lead):
                who = f'its rear rank, {-back:.1f}" behind its centre,'
            else:
                who = f"{len(caught)} of its {len(models)} models"
            first = models[caught[0]]
            where = (
                f"end in {feature.name} at ({first.x + dx:.1f}, {first.y + dy:.1f})"
                if ending
                else f"cross {feature.name}"
            )
            return (
                "its centre's way is clear, but its models move with the centre as they "
                f'stand ({front - back:.1f}" deep along this move): {who} would {where}'
            )
    return None


def shot_line(
    game: BoltActionGame,
    unit: UnitState,
    target: UnitState,
    *,
    moving: bool,
    origin: Point | None = None,
    heading: float | None = None,
) -> str:
    """What a shot would do, exactly: each weapon's shots and what each needs to hit,
    then the mean casualties and pins on troops or what it may do to a vehicle
    (:func:`vehicle_chances`); a vehicle's ``heading``, if given, is the one it fires
    with (:func:`end_heading`)."""
    groups = game.shot_groups(unit, target, moving=moving, origin=origin, heading=heading)
    if not groups:
        return "no shot"
    gap = (
        f'{game.gap(unit, target):.1f}"'
        if origin is None
        else f'about {_gap_from(target, origin):.0f}" from there'
    )
    fired = "; ".join(
        f"{g.shots} {'shot' if g.shots == 1 else 'shots'} of {g.shot.weapon} needing "
        f"{describe_needs(game.rules, g.shot.hit_on)}"
        for g in groups
    )
    resolved, ctx = game.attack_setup(target, groups)
    if ctx is None:
        if futile(resolved):  # (small arms at a tank: no damage, no pin)
            return f"{gap}: {fired}; it cannot hurt or pin it"
        said = vehicle_chances(game, target, vehicle_outcomes(resolved))
        return f"{gap}: {fired}; {said}"
    casualties, pins = expected_troops(resolved, ctx)
    return f"{gap}: {fired}; on average {float(casualties):.2f} casualties, {float(pins):.2f} pins"


def vehicle_chances(
    game: BoltActionGame,
    target: UnitState,
    outcomes: Dist[VehicleState],
    knock_out: str = "to knock it out",
) -> str:
    """What an attack may do to the vehicle ``target``, from the exact odds of what the
    game applies after it (``attack.vehicle_outcomes``, or an assault's): the chance to
    knock it out, then, each only where it is not nothing, its crew abandoning it under
    its pins, and where it stays a new immobilisation, a stun or a fire (either halts it)
    and a pin or more: "0% to knock it out, 50% stunned or on fire, 50% a pin or more"."""
    rules, quality, pins = game.rules, target.quality, target.pins
    wrecked = outcomes.probability(lambda s: s.knocked_out)
    stays = [(s, p) for s, p in outcomes.items() if not vehicle_gone(rules, quality, pins, s)]
    parts = [
        (1 - wrecked - sum(p for _, p in stays), "abandoned"),
        (sum(p for s, p in stays if s.immobilised and not target.immobilised), "immobilised"),
        (sum(p for s, p in stays if s.crew_stunned or s.on_fire), "stunned or on fire"),
        (sum(p for s, p in stays if s.pins), "a pin or more"),
    ]
    return ", ".join(
        [f"{chance_shown_whole(wrecked)} {knock_out}"]
        + [f"{chance_shown_whole(p)} {what}" for p, what in parts if p]
    )


def _gap_from(target: UnitState, origin: Point) -> float:
    """The gap from a point (a destination's centre) to the target's nearest model."""
    return min(
        (math.dist((origin.x, origin.y), (m.x, m.y)) for m in target.alive_models),
        default=0.0,
    )


def terrain_table(game: BoltActionGame) -> RichTable:
    """The table's terrain, so a player can name a place by its inches and find a
    feature's edge: each feature's kind as it plays (the terrain table row a wood plays
    as: :func:`~kriegsspiel.render.table_svg.feature_kind`, as the drawing says it), its
    cover, whether it blocks sight, and where it lies (:func:`outline`); then the
    objectives' places."""
    from kriegsspiel.render.table_svg import feature_kind, impassable_to

    table = RichTable(
        title=f'The table: {game.table.width:g}" by {game.table.height:g}"',
        title_justify="left",
        box=box.SIMPLE_HEAD,  # (few lines between the columns: read in 80 of them)
        show_edge=False,
        padding=(0, 1, 0, 0),
        caption=(
            "where, in inches: a rectangle's x and y from–to; any other shape's corners "
            "(x,y) in order round its edge, which runs straight from one to the next"
        ),
        caption_justify="left",
    )
    where = [outline(f.polygon) for f in game.table.features]
    for name in ("terrain", "kind", "cover", "blocks sight"):
        table.add_column(name)
    # (wide enough for a rectangle's sides on one line, and any corner whole)
    table.add_column("where", min_width=max((len(w) for w in where if "(" not in w), default=1))
    for f, at in zip(game.table.features, where, strict=True):
        table.add_row(
            f.name,
            feature_kind(f, game.rules) + impassable_to(f),
            f.cover,
            "yes" if f.blocks_line_of_sight else "no",
            at,
        )
    for o in game.scenario.objectives:
        table.add_row(o.name, "objective", "", "", f"at ({_inches(o.x)},{_inches(o.y)})")
    return table


def outline(polygon: Sequence[tuple[float, float]]) -> str:
    """Where a feature lies, as a player finds it at the table: a rectangle square to the
    table's edges by its sides ("x 34–38, y 0–48"), any other shape by its corners in
    order round its edge ("(4,28) (12,25) (18,30) ...")."""
    xs, ys = sorted({x for x, _ in polygon}), sorted({y for _, y in polygon})
    if len(polygon) == 4 and len(xs) == 2 and len(ys) == 2:
        return f"x {_inches(xs[0])}–{_inches(xs[1])}, y {_inches(ys[0])}–{_inches(ys[1])}"
    return " ".join(f"({_inches(x)},{_inches(y)})" for x, y in polygon)


def _inches(value: float) -> str:
    """A coordinate as the terrain table gives it: to 0.1", without a needless ".0"."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def assault_line(game: BoltActionGame, unit: UnitState, target: UnitState, mode: str) -> str:
    """An assault as the player weighs it: how far; on troops, the chance to win the fight
    if the defenders meet it as well as they can (the tactical AI's own reckoning: the
    exact odds of the close-quarters procedure, after any fire they would meet on the way
    in); on a vehicle, the exact chances of what it does once in contact (the game's own
    attack on it: :func:`vehicle_chances`). Where the assault takes an order test (pins, or an assault on a tank
    without anti-tank weapons), that test's chance beside it, and the chance of both:
    passing it and winning (a failed test leaves the unit Down, and no assault)."""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer

    said = f'{game.gap(unit, target):.1f}" away'
    if target.vehicle is not None:
        contact = vehicle_assault_outcomes(game, unit, target)
        knock_out = float(contact.probability(lambda s: s.knocked_out))
        said += f"; once in contact: {vehicle_chances(game, target, contact)}"
        chance: float | None = knock_out
        both = "to pass it and knock it out"
    else:
        chance = TacticalPlayer().assault_chance(game, unit, target, mode)
        if chance is not None:
            said += f"; {chance_shown_whole(chance)} to win if they defend as well as they can"
        both = "to pass it and win"
    assault = Action("order", unit=unit.uid, order="Run", target=target.uid)
    test = order_test_of(game, unit, assault)
    if order_test_needed(game.rules, test):
        passed, fubar = _order_odds(game.rules, test)
        modifier = f" {test.modifier:+d}" if test.modifier else ""
        said += (
            f"; its order test{modifier}: {test.value} or less, {chance_shown_whole(passed)} "
            f"(FUBAR {chance_shown_whole(fubar)})"
        )
        if chance is not None:
            said += f"; {chance_shown_whole(passed * chance)} {both}"
    return said


def unit_card(game: BoltActionGame, unit: UnitState) -> Group:
    """What a unit can do, as its card would say: who it is and how it stands, a line
    each (so a narrow terminal wraps neither mid-phrase); a vehicle's kind, damage value
    and traits; an officer's rank and what he gives; its live models' weapons by the chart
    (range, shots, penetration, HE, special rules, in the chart's words:
    :mod:`~kriegsspiel.render.chart_text`) and how many carry each."""
    rules = game.rules
    carried: dict[str, int] = {}
    for model in unit.alive_models:
        for name in model.weapons:
            carried[name] = carried.get(name, 0) + 1
    state = status(unit)
    lines = [
        f"{unit.name} (side {SIDE_NAMES[unit.side]}, {unit.quality}, {unit.points} points)",
        f"{len(unit.alive_models)} of {unit.start_models} left, {unit.pins} pins"
        + (f", {state}" if state else ""),
    ]
    if unit.vehicle is not None:
        lines.append(vehicle_line(unit.vehicle))
    rank = unit.officer_rank()
    if rank is not None:
        lines.append(officer_text(rules, rank))
    table = RichTable(title_justify="left")
    mounted = [] if unit.vehicle is None else ["mounted"]  # (a vehicle's card: where each is)
    for name in ("weapon", "carried", *mounted, "range", "shots", "pen", "HE", "special"):
        table.add_column(name)
    for name, count in carried.items():
        weapon = rules.weapon(name)
        table.add_row(
            weapon.name,
            str(count),
            *([] if unit.vehicle is None else [unit.vehicle.mounts(name)]),
            range_text(weapon),
            weapon.shots,
            pen_text(weapon),
            he_text(weapon),
            special_text(weapon),
        )
    return Group(*(Text(line) for line in lines), table)


def vehicle_line(vehicle: VehicleInfo) -> str:
    """A vehicle's kind, what it is hit as and its damage value, and its traits, as the
    army roster names them: "tracked, hit as carrier (damage value 7+), open-topped,
    recce"."""
    target = vehicle.target
    hit = f"hit as {target.name} (damage value {target.damage_value}+)"
    return ", ".join([vehicle.kind, hit, *vehicle_traits(vehicle)])


def call_line(game: BoltActionGame, caller: UnitState, target: UnitState, kind: str) -> str:
    """A target of an observer's call as its menu lists it: the target, how far, and whom
    the barrage or air strike reaches (:func:`blast_line`)."""
    gap = game.gap(caller, target)
    return f'{target.name}, {gap:.1f}" away; {blast_line(game, caller, target, kind)}'


def blast_line(game: BoltActionGame, caller: UnitState, target: UnitState, kind: str) -> str:
    """Whom a barrage or an air strike called on ``target`` reaches, either side's (the
    caller's own marked "yours"), by the game's own reach (:func:`.support.caught`): "blast
    D6+6": within 7" 8cm Mortar Team, MG 42 MMG Team; within 12" maybe Sniper Team,
    1st Section (yours)"; an air strike's pins: "pins within 12": M4 Sherman, ..."."""
    sure, maybe = caught(game, target, kind)
    least, most = blast_reach(game, kind)

    def named(units: list[UnitState]) -> str:
        return (
            ", ".join(u.name + (" (yours)" if u.side == caller.side else "") for u in units)
            or "no unit"
        )

    if kind != "barrage":
        return f'pins within {most:g}": {named(sure)}'
    chart = game.rules.data.artillery_barrage
    assert chart is not None
    said = f'blast {chart.radius}": within {least:g}" {named(sure)}'
    return said + (f'; within {most:g}" maybe {named(maybe)}' if maybe else "")
