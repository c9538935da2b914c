"""``odds shoot``: the odds of a shot in any of the four rulesets, hits, casualties, pins or
damage. One command, as a player asks "what are my chances if I fire at that", but each
ruleset's shot is its own: the command reads the rules asked for and hands the options to
that ruleset's function, which refuses the options of the others by name and checks its
own. Apart from the other odds commands because it alone answers for every ruleset, with
the options of all four."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields
from typing import TYPE_CHECKING, Any

import typer

from kriegsspiel.cli_options import GivenOnce, JsonOpt, fail
from kriegsspiel.odds_cli.shared import (
    EditionOpt,
    Ruleset,
    RulesFileOpt,
    edition,
    house_clearing_tables,
    house_rules,
    iron_cross_tables,
    named,
    show,
    told_as,
)
from kriegsspiel.odds_cli.shoot_options import (
    ArmourOpt,
    AutomatonOpt,
    AutoOpt,
    BoltActionFire,
    CoverOpt,
    CrewOpt,
    DiceOpt,
    EnemyInfantryNearOpt,
    FacingOpt,
    FirerMarkersOpt,
    FirerPinsOpt,
    FirerVehicleOpt,
    HouseClearingFire,
    IndirectOpt,
    InexperiencedOpt,
    InfantryDetachmentOpt,
    IronCrossFire,
    MachineGunOpt,
    MortarOpt,
    MovingOpt,
    OneCrewOpt,
    OpenToppedOpt,
    PenetrationOpt,
    RangedInOpt,
    RangeOpt,
    ScreenedOpt,
    Shot,
    SmallUnitOpt,
    SmokeOpt,
    TargetDownOpt,
    TargetImmobilisedOpt,
    TargetInitiativeOpt,
    TargetModelsOpt,
    TargetMovedOpt,
    TargetOfficerOpt,
    TargetOpt,
    TargetPinsOpt,
    TargetQualityOpt,
    VisibleOpt,
    WeaponSkillOpt,
    WeaponsOpt,
)
from kriegsspiel.odds_options import BOLT_ACTION_SHOOT, HOUSE_CLEARING_SHOOT, IRON_CROSS_SHOOT

if TYPE_CHECKING:
    from kriegsspiel.sim.matchup import Source

commands = typer.Typer()


@contextmanager
def _limits_by(rules: Source | None, options: tuple[str, ...]) -> Iterator[None]:
    """Tell an option's value refused by limits a rules file sets (a House Clearing
    file's figures give the weapon skills there are) as that file's limits."""
    from kriegsspiel.errors import UsageError

    try:
        yield
    except UsageError as exc:
        if rules is None or not str(exc).startswith(options):
            raise
        said = str(exc).removesuffix(".")
        raise UsageError(f"{said} (as the rules file {rules.label} has it).") from None


def _forbid(ruleset: Ruleset, **given: Any) -> None:
    """Refuse options that belong to another ruleset, naming them, and the ruleset they
    are for where they are all one ruleset's (a forgotten ``-r house-clearing``)."""
    wrong = [
        name
        for name, value in given.items()
        if not (value is None or value is False or value == "none" or value == [])
    ]
    if wrong:
        flags = ", ".join("--" + w.replace("_", "-") for w in wrong)
        owners = {_OWNERS.get(name) for name in wrong}
        owner = owners.pop() if len(owners) == 1 else None
        where = (
            "see 'kriegsspiel odds shoot --help' for which options belong to which ruleset."
            if owner is None
            else f"{'it is' if len(wrong) == 1 else 'they are'} for {owner}."
        )
        fail(f"{flags} {'does' if len(wrong) == 1 else 'do'} not apply to {ruleset.value}; {where}")


_OWNERS: dict[str, str] = {
    **{
        f.name: "konflikt47 or bolt-action-1 (-r konflikt47, -r bolt-action-1)"
        for f in fields(BoltActionFire)
    },
    **{f.name: "iron-cross (-r iron-cross)" for f in fields(IronCrossFire)},
    **{f.name: "house-clearing (-r house-clearing)" for f in fields(HouseClearingFire)},
}
"""The ruleset each ruleset's own shooting option is for, as the refusal names it."""


@commands.command(
    "shoot",
    cls=GivenOnce,
    epilog="Example: kriegsspiel odds shoot --weapon rifle:10 --range 18 --cover soft",
)
def shoot(
    ruleset: EditionOpt = None,
    weapon: WeaponsOpt = [],  # noqa: B006
    target: TargetOpt = None,
    range_: RangeOpt = None,
    cover: CoverOpt = "none",
    pins: FirerPinsOpt = 0,
    moving: MovingOpt = False,
    inexperienced: InexperiencedOpt = False,
    one_crew: OneCrewOpt = False,
    target_down: TargetDownOpt = False,
    small_unit: SmallUnitOpt = False,
    facing: FacingOpt = "front",
    indirect: IndirectOpt = False,
    ranged_in: RangedInOpt = False,
    open_topped: OpenToppedOpt = False,
    automaton: AutomatonOpt = False,
    target_pins: TargetPinsOpt = 0,
    target_quality: TargetQualityOpt = "regular",
    target_models: TargetModelsOpt = None,
    target_immobilised: TargetImmobilisedOpt = False,
    target_officer: TargetOfficerOpt = None,
    morale_markers: FirerMarkersOpt = 0,
    target_moved: TargetMovedOpt = False,
    smoke: SmokeOpt = False,
    infantry_detachment: InfantryDetachmentOpt = False,
    firer_vehicle: FirerVehicleOpt = False,
    enemy_infantry_near: EnemyInfantryNearOpt = False,
    screened: ScreenedOpt = False,
    mortar: MortarOpt = False,
    machine_gun: MachineGunOpt = False,
    dice: DiceOpt = None,
    penetration: PenetrationOpt = None,
    armour: ArmourOpt = None,
    weapon_skill: WeaponSkillOpt = None,
    visible: VisibleOpt = None,
    auto: AutoOpt = False,
    target_initiative: TargetInitiativeOpt = None,
    crew: CrewOpt = None,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Odds of a unit's (or figure's) shooting: hits, casualties, pins or damage."""
    ruleset, rules = edition(ruleset, rules_file, "shoot", tuple(Ruleset))
    shot = Shot(
        ruleset=ruleset,
        rules=rules,
        weapons=weapon,
        target=target,
        range_inches=range_,
        cover=cover,
        moving=moving,
        firer_vehicle=firer_vehicle,
        as_json=as_json,
    )
    bolt_action = BoltActionFire(
        pins=pins,
        inexperienced=inexperienced,
        one_crew=one_crew,
        target_down=target_down,
        small_unit=small_unit,
        facing=facing,
        indirect=indirect,
        ranged_in=ranged_in,
        open_topped=open_topped,
        automaton=automaton,
        target_pins=target_pins,
        target_quality=target_quality,
        target_models=target_models,
        target_immobilised=target_immobilised,
        target_officer=target_officer,
    )
    iron_cross = IronCrossFire(
        morale_markers=morale_markers,
        target_moved=target_moved,
        smoke=smoke,
        infantry_detachment=infantry_detachment,
        enemy_infantry_near=enemy_infantry_near,
        screened=screened,
        mortar=mortar,
        machine_gun=machine_gun,
        dice=dice,
        penetration=penetration,
        armour=armour,
    )
    house_clearing = HouseClearingFire(
        weapon_skill=weapon_skill,
        visible=visible,
        auto=auto,
        target_initiative=target_initiative,
        crew=crew,
    )
    shoot_in = {
        Ruleset.konflikt47: _bolt_action_family_shot,
        Ruleset.bolt_action_1: _bolt_action_family_shot,
        Ruleset.iron_cross: _iron_cross_shot,
        Ruleset.house_clearing: _house_clearing_shot,
    }
    shoot_in[ruleset](shot, bolt_action, iron_cross, house_clearing)


def _bolt_action_family_shot(
    shot: Shot, fire: BoltActionFire, iron_cross: IronCrossFire, house_clearing: HouseClearingFire
) -> None:
    """Konflikt '47 or Bolt Action: a unit's weapons at one target, 12" away unless told,
    their hits, pins and casualties or damage."""
    _forbid(shot.ruleset, **iron_cross.given(), **house_clearing.given())
    if shot.cover not in ("none", "soft", "hard"):
        fail(f"--cover for {shot.ruleset.value} is none, soft or hard (not {shot.cover!r}).")
    if fire.facing not in ("front", "side", "top", "rear"):
        fail(f"--facing is front, side, top or rear (not {fire.facing!r}).")
    from kriegsspiel.rulesets.bolt_action.odds import shoot_odds
    from kriegsspiel.rulesets.bolt_action.shot import Situation

    situation = Situation(
        range_inches=12.0 if shot.range_inches is None else shot.range_inches,
        firer_pins=fire.pins,
        firer_inexperienced=fire.inexperienced,
        one_crew=fire.one_crew,
        moving=shot.moving,
        mounted=shot.firer_vehicle,
        target_down=fire.target_down,
        small_unit=fire.small_unit,
        cover=shot.cover,  # type: ignore[arg-type]
        facing=fire.facing,  # type: ignore[arg-type]
        indirect=fire.indirect,
        ranged_in=fire.ranged_in,
        open_topped=fire.open_topped,
        automaton=fire.automaton,
        target_pins=fire.target_pins,
        target_quality=fire.target_quality,
        target_models=fire.target_models,
        target_immobilised=fire.target_immobilised,
        target_officer=fire.target_officer,
    )
    with told_as(BOLT_ACTION_SHOOT):
        report = shoot_odds(
            shot.ruleset.value,
            weapons=shot.weapons,
            target="regular infantry" if shot.target is None else shot.target,
            situation=situation,
            **house_rules(shot.rules),
        )
    show(report, shot.as_json, shot.rules, BOLT_ACTION_SHOOT)


def _iron_cross_shot(
    shot: Shot, bolt_action: BoltActionFire, fire: IronCrossFire, house_clearing: HouseClearingFire
) -> None:
    """Iron Cross: one firer's dice at one target at a range it must be told (in the open
    unless told), the hits and, at a vehicle, its damage."""
    _forbid(shot.ruleset, weapon=shot.weapons, **bolt_action.given(), **house_clearing.given())
    if shot.range_inches is None:
        fail(
            "Iron Cross shooting needs --range N, the inches from the firer to its target: "
            'up to 12" gives +1 to hit and two D10s at infantry, so no range is assumed.'
        )
    from kriegsspiel.rulesets.iron_cross import odds as ic_odds

    with named({"target": "--target", "cover": "--cover"}), told_as(IRON_CROSS_SHOOT):
        report = ic_odds.shoot(
            target="infantry" if shot.target is None else shot.target,
            range_inches=shot.range_inches,
            firer_moved=shot.moving,
            firer_is_infantry_detachment=fire.infantry_detachment,
            target_moved=fire.target_moved,
            smoke=fire.smoke,
            morale_markers=fire.morale_markers,
            enemy_infantry_near_vehicle=fire.enemy_infantry_near,
            screened=fire.screened,
            firer_is_vehicle=shot.firer_vehicle,
            cover="open" if shot.cover == "none" else shot.cover,
            mortar=fire.mortar,
            machine_gun=fire.machine_gun,
            dice=fire.dice,
            penetration=fire.penetration,
            armour=fire.armour,
            data=iron_cross_tables(shot.rules),
        )
    show(report, shot.as_json, shot.rules, IRON_CROSS_SHOOT)


def _house_clearing_shot(
    shot: Shot, bolt_action: BoltActionFire, iron_cross: IronCrossFire, fire: HouseClearingFire
) -> None:
    """House Clearing: one figure's one weapon, its range, skill and the fifths of the
    target it sees all told; the hits and wounds."""
    _forbid(
        shot.ruleset,
        **iron_cross.given(),
        **bolt_action.given(),
        moving=shot.moving,
        firer_vehicle=shot.firer_vehicle,
        cover=None if shot.cover == "none" else shot.cover,
        target=shot.target,
    )
    if len(shot.weapons) != 1 or ":" in shot.weapons[0]:
        fail(
            "House Clearing shoots one figure's weapon: give exactly one --weapon NAME, "
            "without a count."
        )
    if fire.weapon_skill is None or fire.visible is None or shot.range_inches is None:
        fail(
            "House Clearing needs --range N (inches), --weapon-skill N and --visible N "
            "(fifths of the target visible, 1-5)."
        )
    from kriegsspiel.rulesets.house_clearing import odds as hc_odds

    with (
        named({"weapon": "--weapon"}),
        _limits_by(shot.rules, ("--weapon-skill", "--visible")),
        told_as(HOUSE_CLEARING_SHOOT),
    ):
        report = hc_odds.shoot(
            weapon=shot.weapons[0],
            range_inches=shot.range_inches,
            weapon_skill=fire.weapon_skill,
            visible=fire.visible,
            automatic=fire.auto,
            target_initiative=fire.target_initiative,
            crew=fire.crew,
            data=house_clearing_tables(shot.rules),
        )
    show(report, shot.as_json, shot.rules, HOUSE_CLEARING_SHOOT)
