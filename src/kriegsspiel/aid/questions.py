"""The odds of a shot or an assault between two units the aid tracks, asked at the table.

The players measure the range and judge the cover; everything else is read from the
tracker: the men each unit has left and what they carry (the losses taken as the simulated
game takes them), pins, the dice that show Down or Advance, the officers. Each man's weapon
is picked as the simulated game picks it (:func:`.shooting_groups.weapon_choice`), and the
odds are the calculator's own (:func:`.odds.shoot_odds`, :func:`.odds.assault_odds`,
:func:`.odds.vehicle_assault_odds`), the same answers ``kriegsspiel odds`` gives.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Literal

from kriegsspiel.aid.tracker import AidError, Kit, TrackedUnit, Tracker, refuse_friends
from kriegsspiel.aid.units import count_of
from kriegsspiel.core.report import OddsReport, Reason
from kriegsspiel.errors import ParameterError, UnknownNameError, UsageError
from kriegsspiel.odds_options import BOLT_ACTION, ODDS_QUESTIONS
from kriegsspiel.rulesets.bolt_action.assault import CONTACT, vehicle_fires_at_assaulters
from kriegsspiel.rulesets.bolt_action.game.shooting_groups import weapon_choice
from kriegsspiel.rulesets.bolt_action.kit import assault_armed, has_anti_tank, unspent
from kriegsspiel.rulesets.bolt_action.odds import (
    assault_odds,
    shoot_odds,
    vehicle_assault_odds,
)
from kriegsspiel.rulesets.bolt_action.reactions import assault_choices, vehicle_move_shown
from kriegsspiel.rulesets.bolt_action.shooting import FIRING_ORDERS
from kriegsspiel.rulesets.bolt_action.shot import (
    Cover,
    Facing,
    Situation,
    down_to_a_shot,
    target_situation,
)

VehicleMove = Literal["ran", "advanced", "stationary"]


@dataclass(frozen=True, slots=True)
class ShotAsked:
    """A shot as the players describe it; what they leave out (None) is read from the game."""

    firer: int
    target: int
    range_inches: float
    cover: Cover = "none"
    facing: Facing = "front"  # the armour a vehicle is hit on
    moving: bool | None = None  # None: firing on the move if its die shows Advance
    target_down: bool | None = None  # None: Down if its die shows Down (or one kept)
    indirect: bool = False
    ranged_in: bool = False
    target_immobilised: bool = False  # or as the aid has it (a shot's result taken)
    target_officer: str | None = None  # the officer named near a target vehicle
    weapons: tuple[tuple[str, int], ...] | None = None  # None: what the firers would fire
    one_shot_fired: bool | None = None  # None: as the players said on the firer's card


@dataclass(frozen=True, slots=True)
class AssaultAsked:
    """An assault as the players describe it; what they leave out is read from the game."""

    attacker: int
    defender: int
    attacker_officer: str | None = None  # another officer near the attackers
    defender_officer: str | None = None
    attacker_mode: str = "hand-to-hand"
    defender_mode: str = "hand-to-hand"  # Konflikt '47: point-blank, stand-and-fire
    attacker_cover: Cover = "none"  # where the assaulters stop, to the defenders' fire
    vehicle_move: VehicleMove | None = None  # None: as the vehicle's die shows
    target_immobilised: bool = False
    from_inches: float | None = None  # Konflikt '47: how far the assaulters start from it
    # the attackers have fired their one-shot anti-tank weapons (Panzerfausts); None: as
    # the players said on its card (the aid does not see them fired: it records what
    # befell a target, not who fired)
    one_shot_fired: bool | None = None


def shoot(tracker: Tracker, asked: ShotAsked) -> dict[str, Any]:
    """The odds of ``asked``, with what was read from the game to ask it; a question the
    rules or the calculator refuse raises :class:`AidError` saying why."""
    with _refused():
        return _shoot(tracker, asked)


def assault(tracker: Tracker, asked: AssaultAsked) -> dict[str, Any]:
    """The odds of ``asked``: close quarters, or infantry against a vehicle; a question
    refused raises :class:`AidError` saying why."""
    with _refused():
        return _assault(tracker, asked)


def _shoot(tracker: Tracker, asked: ShotAsked) -> dict[str, Any]:
    firer, target = _pair(tracker, asked.firer, asked.target, "shoot at")
    _may_fire(tracker, firer)
    rules = tracker.rules
    vehicle_target = target.kind == "vehicle"
    moving = firer.order == "Advance" if asked.moving is None else asked.moving
    if asked.target_down and not down_to_a_shot(True, vehicle=vehicle_target):
        raise AidError(
            f"target Down: {target.name} is a vehicle, and only infantry and artillery go "
            "Down to a shot; untick it",
            field="target_down",
        )
    situation = _aimed_at(
        target,
        asked.range_inches,
        down=asked.target_down,
        immobilised=asked.target_immobilised or target.immobilised,
        firer_pins=firer.pins,
        firer_inexperienced=firer.quality == "inexperienced",
        moving=moving,
        mounted=firer.kind == "vehicle",
        cover=asked.cover,
        facing=asked.facing if vehicle_target else "front",
        indirect=asked.indirect,
        ranged_in=asked.ranged_in,
        # the officer near the target (or its own): a vehicle's crew's tests take his
        # bonus, and troops' morale check after a flamethrower's hit; a name that is no
        # live officer of its side is refused, as the CLI refuses an unknown rank
        target_officer=tracker.officer_for(target.uid, asked.target_officer),
    )
    fired = _said_fired(firer, asked.one_shot_fired)
    survivors = _armed_now(tracker, firer, fired)
    crew_short = firer.kind != "vehicle" and firer.models < 2
    reasons: list[Reason] = []
    if asked.weapons is None:
        _needs_kit(firer)
        weapons, lobbed = _fired(tracker, survivors, situation, target, crew_short)
        if not weapons:
            raise AidError(
                f"none of {firer.name}'s weapons can fire at {target.name} "
                f'{asked.range_inches:g}" away{" on the move" if moving else ""}'
            )
        if lobbed:  # (the other weapons, which cannot, still fire straight)
            situation = replace(situation, indirect=True)
            reasons.append(
                Reason("indirect fire", "lobbed", "the howitzer's crew lob where that hits more")
            )
    else:
        named = _named(tracker, asked.weapons)
        _carried(tracker, firer, named, survivors)
        weapons = [(name, n) for name, n in named if n > 0]
        if not weapons:
            raise AidError(
                "Weapons: give at least one weapon with a count of 1 or more", field="weapons"
            )
    if crew_short and any("Team" in rules.weapon(w).special for w, _ in weapons):
        # one man serving a team weapon fires it at -1, counted like a pin (as the game does)
        situation = replace(situation, one_crew=True)
        reasons.append(Reason("one crew left", "-1 to hit", "a team weapon's lone crew, as a pin"))
    # the calculator's own conventions: a vehicle has no models to lose, and an infantry
    # target's quality is in its damage value's name
    if vehicle_target:
        situation = replace(situation, target_models=None)
    else:
        situation = replace(situation, target_quality="regular")
    report = shoot_odds(
        tracker.ruleset,
        rules_file=tracker.rules_file,
        rules_text=tracker.rules_text,
        weapons=[f"{name}:{n}" for name, n in weapons],
        target=target.target,
        situation=situation,
    )
    if reasons:
        report = replace(report, reasons=(*reasons, *report.reasons))
    report = replace(report, title=f"{firer.name} shoots at {target.name}")
    return {
        "report": _worded(report),
        "weapons": [{"name": name, "count": n} for name, n in weapons],
        "read": _read_for_shot(
            firer,
            target,
            situation,
            moving_said=asked.moving is not None,
            down_said=asked.target_down is not None,
            one_shot_fired=fired,
        ),
    }


def _assault(tracker: Tracker, asked: AssaultAsked) -> dict[str, Any]:
    attacker, defender = _pair(tracker, asked.attacker, asked.defender, "assault")
    refuse_friends(attacker, defender)  # (as the fight's end refuses them)
    refused = tracker.attack_refused(attacker.uid)
    if refused is not None:
        raise AidError(refused, field="attacker")
    _needs_kit(attacker)
    rules = tracker.rules
    officer = tracker.officer_for(attacker.uid, asked.attacker_officer)
    fired = _said_fired(attacker, asked.one_shot_fired)
    left = attacker.survivors()
    if defender.kind == "vehicle":
        move = asked.vehicle_move or _vehicle_move(defender)
        # Konflikt '47: a vehicle fires first at assaulters that begin far enough away
        # (in Bolt Action 1st edition it has no such fire: the calculator says From
        # changes nothing, as it says of any input without effect)
        fires = vehicle_fires_at_assaulters(rules, asked.from_inches)
        kit = defender.survivors()
        report = vehicle_assault_odds(
            tracker.ruleset,
            rules_file=tracker.rules_file,
            rules_text=tracker.rules_text,
            models=attacker.models,
            quality=attacker.quality,
            target=defender.target,
            vehicle_order=move,
            anti_tank=has_anti_tank(rules, ((k.weapons, fired) for k in left)),
            pins=attacker.pins,
            officer=officer,
            open_topped=defender.open_topped,
            automaton=defender.automaton,
            target_quality=defender.quality,
            target_pins=defender.pins,
            target_immobilised=asked.target_immobilised or defender.immobilised,
            target_officer=tracker.officer_for(defender.uid, asked.defender_officer),
            start_inches=asked.from_inches,
            vehicle_weapons=[w for k in kit for w in k.weapons] if fires else (),
            cover=asked.attacker_cover if fires else "none",
            start_models=attacker.start_models if fires else None,
        )
        read: dict[str, Any] = {
            "vehicle_move": move,
            "attacker_officer": officer,
            "one_shot_fired": fired,
        }
    else:
        _needs_kit(defender)
        modes = defender_modes(tracker, defender)
        if asked.defender_mode not in modes:
            why = (
                f"{tracker.rules.data.title} has no assault reactions"
                if not tracker.rules.assault_reactions
                else "it stood and fired already this turn: its die is spent"
                if defender.stood_and_fired
                else f"it has had an order this turn (its die shows {defender.order or defender.retained})"
            )
            raise AidError(
                f"{defender.name} cannot fight {asked.defender_mode}: {why}; it may fight "
                f"{' or '.join(modes)}"
            )
        stand = asked.defender_mode == "stand-and-fire"
        # where the side with most casualties is simply destroyed (Bolt Action's rounds),
        # no morale test is taken: pins and officers change nothing, as its reasons say
        tested = rules.data.close_quarters.procedure != "rounds"
        defender_officer = tracker.officer_for(defender.uid, asked.defender_officer)
        armed = _armed(tracker, left), _armed(tracker, defender.survivors())
        report = assault_odds(
            tracker.ruleset,
            rules_file=tracker.rules_file,
            rules_text=tracker.rules_text,
            attackers=attacker.models,
            attacker_quality=attacker.quality,
            defenders=defender.models,
            defender_quality=defender.quality,
            attacker_assault_weapons=armed[0],
            defender_assault_weapons=armed[1],
            attacker_pins=attacker.pins if tested else 0,
            defender_pins=defender.pins if tested else 0,
            attacker_mode=asked.attacker_mode,
            defender_mode=asked.defender_mode,
            attacker_officer=officer if tested else None,
            defender_officer=defender_officer if tested else None,
            defender_weapons=[f"{w}:{n}" for w, n in _stand_fire(tracker, defender, attacker)]
            if stand
            else (),
            attacker_cover=asked.attacker_cover if stand else "none",
            attacker_start_models=attacker.start_models if stand else None,
        )
        read = {
            "attacker_assault_weapons": armed[0],
            "defender_assault_weapons": armed[1],
            "attacker_officer": officer if tested else None,
            "defender_officer": defender_officer if tested else None,
            "defender_modes": modes,
        }
    report = replace(report, title=f"{attacker.name} assaults {defender.name}")
    return {"report": _worded(report), "read": read}


def defender_modes(tracker: Tracker, defender: TrackedUnit) -> list[str]:
    """How an assaulted unit may fight: Konflikt '47 adds point-blank fire, and standing to
    fire for a unit with no order yet this turn and no die kept (as the game offers), or
    one whose die the players have already taken to stand and fire (a Fire reaction) and
    that has not yet fired it at assaulters (a second assault that turn finds it spent):
    the game's own choices (:func:`.reactions.assault_choices`), less the escape."""
    if defender.kind == "vehicle":
        return []  # (infantry assault a vehicle by vehicle_assault_odds: it does not fight so)
    unordered = defender.order is None and defender.retained is None
    to_fire = defender.reacted and defender.order == "Fire" and not defender.stood_and_fired
    choices = assault_choices(tracker.rules, vehicle=False, unordered=unordered or to_fire)
    return [c.replace(" ", "-") for c in choices if c != "escape"]


# ---------------------------------------------------------------------- reading the game
def _pair(tracker: Tracker, a: int, b: int, doing: str) -> tuple[TrackedUnit, TrackedUnit]:
    units = tracker.units
    for uid in (a, b):
        if not 0 <= uid < len(units):
            raise AidError(f"no unit {uid} (units are 0 to {len(units) - 1})")
    first, second = units[a], units[b]
    if a == b:
        raise AidError(itself_refused(first, doing))
    for unit in (first, second):
        if unit.destroyed:
            raise AidError(f"{unit.name} is destroyed")
    return first, second


def itself_refused(unit: TrackedUnit, doing: str) -> str:
    """Why ``unit`` cannot be both sides of what it is ``doing`` ("shoot at", "assault")."""
    return f"{unit.name} cannot {doing} itself"


def _may_fire(tracker: Tracker, firer: TrackedUnit) -> None:
    refused = fire_refused(tracker, firer)
    if refused is not None:
        raise AidError(refused, field="firer")


def fire_refused(tracker: Tracker, firer: TrackedUnit) -> str | None:
    """Why ``firer`` cannot fire this turn, or None if it may: its die shows an order that
    does not fire (:data:`.shooting.FIRING_ORDERS`: sheet 002's "Run: no firing", "Rally",
    "Down: no move/fire"), this turn's or a Down die kept from the last; one with no die
    yet may be asked, to weigh the order to give it."""
    face = firer.order or firer.retained
    if face is None or face in FIRING_ORDERS:
        return None
    summary = next((r.summary for r in tracker.rules.data.orders.rows if r.order == face), "")
    shows = f"its die shows {face}" if firer.order else f"it kept its {face} die from the last turn"
    return (
        f"{firer.name} cannot fire this turn: {shows} ({summary.lower()}); a unit fires "
        "on Fire, Advance or from Ambush. Ask before its die is given (or next turn)"
    )


def _needs_kit(unit: TrackedUnit) -> None:
    if not unit.kit:
        raise AidError(
            f"this save does not hold {unit.name}'s models and weapons (it is from an "
            "older kriegsspiel): start a new game (kriegsspiel aid --new) to ask the odds "
            "of its shots and assaults, or give the weapons of a shot through the API"
        )


def _aimed_at(
    target: TrackedUnit,
    range_inches: float,
    *,
    immobilised: bool = False,
    down: bool | None = None,
    **firer: Any,
) -> Situation:
    """A shot's situation at a tracked unit, its part read from the tracker as the game's
    ``aimed_at`` reads a unit; ``immobilised`` as the caller reads it, ``down`` as the
    players say (None: as its die shows: so they may weigh a Down reaction before they
    take the die)."""
    return target_situation(
        range_inches,
        vehicle=target.kind == "vehicle",
        down=_down(target) if down is None else down,
        start_models=target.start_models,
        models=target.models,
        pins=target.pins,
        quality=target.quality,
        open_topped=target.open_topped,
        automaton=target.automaton,
        immobilised=immobilised,
        **firer,
    )


def _down(unit: TrackedUnit) -> bool:
    return "Down" in (unit.order, unit.retained)


def _vehicle_move(unit: TrackedUnit) -> VehicleMove:
    """How a vehicle moved this turn, as its die shows (:func:`.reactions.vehicle_move_shown`,
    as the game counts a recce vehicle's after its escape): Run, Advance, or neither; an
    immobilised one has not moved, whatever its die."""
    moved = vehicle_move_shown(unit.order, immobilised=unit.immobilised)
    return "ran" if moved == "run" else "advanced" if moved == "advance" else "stationary"


def _named(tracker: Tracker, given: tuple[tuple[str, int], ...]) -> list[tuple[str, int]]:
    """Weapons given by hand, each by its name on the sheet; an unknown one is refused by
    its place in the request's ``weapons``."""
    named: list[tuple[str, int]] = []
    for i, (name, count) in enumerate(given):
        try:
            named.append((tracker.rules.weapon(name).name, count))
        except UnknownNameError as exc:
            raise AidError(f"Weapons: {exc}", field=f"weapons.{i}.name") from None
    return named


def _said_fired(unit: TrackedUnit, said: bool | None) -> bool:
    """Whether ``unit``'s one-shot anti-tank weapons are fired: as the question says, else
    (None) as the players said on its card (:meth:`.Tracker.set_one_shot_fired`)."""
    return unit.one_shot_fired if said is None else said


def _armed_now(tracker: Tracker, unit: TrackedUnit, fired: bool) -> tuple[Kit, ...]:
    """``unit``'s men left, each with the weapons he can still fire: a one-shot weapon
    (a Panzerfaust) counts no more once ``fired`` (:func:`.kit.unspent`), as the game's."""
    left = unit.survivors()
    if not fired:
        return left
    return tuple(replace(k, weapons=unspent(tracker.rules, k.weapons, True)) for k in left)


def _carried(
    tracker: Tracker,
    firer: TrackedUnit,
    named: list[tuple[str, int]],
    armed: tuple[Kit, ...],
) -> None:
    """Refuse more weapons of a kind than the firer's live models carry and can still fire
    (``armed``: a fired Panzerfaust no more), or than its models, where a save from before
    the aid kept its kit does not say who carries what."""
    given: Counter[str] = Counter()
    rows: dict[str, list[int]] = {}
    for i, (name, count) in enumerate(named):
        given[name] += count
        rows.setdefault(name, []).append(i)
    carried: Counter[str] = Counter()
    for kit in armed:
        for weapon in kit.weapons:
            carried[tracker.rules.weapon(weapon).name] += kit.count
    spent = {tracker.rules.weapon(w).name for k in firer.survivors() for w in k.weapons}
    spent -= set(carried)
    vehicle = firer.kind == "vehicle"
    who = firer.name if vehicle else f"{firer.name}'s {count_of(firer.models, 'live model')}"
    for name, count in given.items():
        first, many = rows[name][0], len(rows[name]) > 1
        if name in spent and count:
            raise AidError(
                f"Weapons: {firer.name}'s {name} is fired (a one-shot weapon): it fires no "
                "more; untick 'its one-shot anti-tank weapons already fired' if it has not, "
                f"or give one of the weapons it still carries ({', '.join(carried) or 'none'})",
                field=f"weapons.{first}.name",
            )
        if firer.kit and not carried[name] and count:
            kinds = ", ".join(carried) or "none"
            raise AidError(
                f"Weapons: {who} {'mounts' if vehicle else 'carry'} no {name}; give one of "
                f"theirs ({kinds})",
                field=f"weapons.{first}.name",
            )
        # (in the page's words: its rows are named by weapon; the API's field beside)
        where = f"the counts of {name}, together" if many else f"the count of {name}"
        field = "weapons" if many else f"weapons.{first}.count"
        if firer.kit and count > carried[name]:
            has = "mounts" if vehicle else "carries" if firer.models == 1 else "carry"
            raise AidError(
                f"{where}: {count}, but {who} {has} {carried[name]}; give at most {carried[name]}",
                field=field,
            )
        if not firer.kit and not vehicle and count > firer.models:
            raise AidError(
                f"{where}: {count}, but {firer.name} has "
                f"{count_of(firer.models, 'live model')} (this save does not say who carries "
                f"what); give at most {firer.models}",
                field=field,
            )


def _fired(
    tracker: Tracker,
    survivors: tuple[Kit, ...],
    situation: Situation,
    target: TrackedUnit,
    crew_short: bool,
) -> tuple[list[tuple[str, int]], bool]:
    """The weapons the firers fire: each man the one best at this target, a vehicle every
    one (the players set aside a mount that does not bear); and whether a howitzer among
    them lobs its shell, as its crew does where that hits more easily."""
    rules = tracker.rules
    profile = rules.target(target.target)
    counts: Counter[str] = Counter()
    lobbed = False
    for kit in survivors:
        if not kit.weapons:
            continue
        chosen = weapon_choice(
            rules,
            kit.weapons,
            situation,
            profile,
            at_vehicle=target.kind == "vehicle",
            crew_short=crew_short,
        )
        for shot, _, _ in chosen:
            counts[shot.weapon] += kit.count
            howitzer = rules.weapon(shot.weapon).indirect_min_range is not None
            lobbed = lobbed or (shot.indirect and howitzer and not situation.indirect)
    return list(counts.items()), lobbed


def _stand_fire(
    tracker: Tracker, defender: TrackedUnit, attacker: TrackedUnit
) -> list[tuple[str, int]]:
    """What defenders who stand and fire shoot at the assaulters where they stop."""
    situation = _aimed_at(
        attacker,
        CONTACT,
        firer_pins=defender.pins,
        firer_inexperienced=defender.quality == "inexperienced",
    )
    crew_short = defender.models < 2
    armed = _armed_now(tracker, defender, defender.one_shot_fired)
    return _fired(tracker, armed, situation, attacker, crew_short)[0]


def _armed(tracker: Tracker, kits: tuple[Kit, ...]) -> int:
    return sum(k.count for k in kits if assault_armed(tracker.rules, k.weapons))


@contextmanager
def _refused() -> Iterator[None]:
    """A question the calculator refuses (an unknown weapon, a range it cannot reach) is
    refused as a step would be, with the calculator's reason."""
    try:
        yield
    except AidError:
        raise
    except UsageError as exc:
        # (a refusal in the calculator's parameters: told first as its command's options)
        said = exc.told_as(_OPTIONS) if isinstance(exc, ParameterError) else str(exc)
        raise AidError(in_the_pages_words(said)) from None


# the calculator's parameters (and the questions it points to) as its command names them,
# which the page then names as its fields
_OPTIONS = {**BOLT_ACTION, **ODDS_QUESTIONS}

# The calculator speaks of its command's options (kriegsspiel odds ... --from 8); the page
# has fields, named here as it names them, and what it reads from the game (a vehicle
# fires every mount: it has no weapons to give). Any other option is said in words.
_PAGE_PHRASES = (
    (
        "give --from and --vehicle-weapon",
        "give From, the inches the assault begins at (the vehicle fires every mount)",
    ),
    (
        "; give its weapons whose arc they are in with --vehicle-weapon NAME[:COUNT] (or "
        "leave out --from if none bears on them)",
        "; this vehicle has no weapon to fire at them: leave From empty",
    ),
    (
        "the check at half strength: odds morale --officer",
        "the check at half strength takes his bonus: Check on the unit's card",
    ),
)
_PAGE_FIELDS = {
    "--from": "From",
    "--vehicle-order": "Vehicle",
    "--target-immobilised": "already immobilised",
    "--target-down": "target Down",
    "--cover": "Cover",
    "--attacker-cover": "Cover",
    "--facing": "Facing",
    "--indirect": "indirect fire",
    "--ranged-in": "ranged in",
    "--weapon": "Weapons",
    "--vehicle-weapon": "the vehicle's weapons",
    "--attacker-mode": "Attackers",
    "--defender-mode": "Defenders",
    "--officer": "Near",
    "--attacker-officer": "Near (on the attackers' card)",
    "--defender-officer": "Near (on the defenders' card)",
    "--target-officer": "Near (on the target's card)",
}


def in_the_pages_words(text: str) -> str:
    """``text`` from the odds calculator with its command's options named as the page
    names its fields ("From", "Vehicle"), or in words: never a flag the page has not."""
    for said, meant in _PAGE_PHRASES:
        text = text.replace(said, meant)
    return re.sub(
        r"--([a-z][a-z-]*)",
        lambda m: _PAGE_FIELDS.get(m.group(0), m.group(1).replace("-", " ")),
        text,
    )


def _worded(report: OddsReport) -> dict[str, Any]:
    """A report's JSON with its reasons in the page's words: the parameters they name
    told as the command's options, then as the page's fields (:func:`in_the_pages_words`)."""
    told = report.told_as(_OPTIONS).to_json()
    told["reasoning"] = [
        {key: in_the_pages_words(value) for key, value in reason.items()}
        for reason in told["reasoning"]
    ]
    return told


def _read_for_shot(
    firer: TrackedUnit,
    target: TrackedUnit,
    s: Situation,
    *,
    moving_said: bool,
    down_said: bool,
    one_shot_fired: bool,
) -> dict[str, Any]:
    """What the shot's odds took from the game, for the page to show beside them; and
    where the firer's moving came from (``moving_by``) and the target's Down
    (``target_down_by``): its die ("game"), or the players' Moving choice (``moving_said``)
    or "target Down" tick (``down_said``: "players"), so the page says which."""
    return {
        "moving": s.moving,
        "moving_by": "players" if moving_said else "game",
        "firer_pins": firer.pins,
        "target_down": s.target_down,
        "target_down_by": "players" if down_said else "game",
        "small_unit": s.small_unit,
        "target_pins": target.pins,
        "target_models": target.models if target.kind != "vehicle" else None,
        "target_is_vehicle": target.kind == "vehicle",
        # its one-shot anti-tank weapons (Panzerfausts) fired: the players' say
        "one_shot_fired": one_shot_fired,
    }
