"""``odds shoot``: the odds of a shot in any of the four rulesets, hits, casualties, pins or
damage. One command, as a player asks "what are my chances if I fire at that", but each
ruleset's shot is its own: the command reads the rules asked for and hands the options to
that ruleset's function, which refuses the options of the others by name and checks its
own. Apart from the other odds commands because it alone answers for every ruleset, with
the options of all four."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

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


# the shoot command's options, each under the ruleset(s) whose shot takes it (the help
# lists them in the order the command's signature gives them)
WeaponsOpt = Annotated[
    list[str],
    typer.Option(
        "--weapon",
        "-w",
        help="NAME[:COUNT], repeatable (BA, K47, HC; the chart: kriegsspiel army --weapons).",
    ),
]
TargetOpt = Annotated[
    str | None,
    typer.Option(
        "--target",
        "-t",
        help="Target as on the sheet, e.g. 'regular infantry', 'medium tank' (BA, K47: "
        "kriegsspiel army --targets lists them); infantry, support squad, vehicle or a vehicle row's name, e.g. 'medium tank' (Iron Cross).",
        show_default="regular infantry (BA, K47), infantry (Iron Cross)",
    ),
]
RangeOpt = Annotated[
    float | None,
    typer.Option(
        "--range",
        help="Range in inches (Iron Cross and House Clearing: always give it).",
        show_default="12 (BA, K47)",
    ),
]
CoverOpt = Annotated[
    str,
    typer.Option(
        "--cover", help="none|soft|hard (BA, K47); open|cover|fortifications (Iron Cross)."
    ),
]
MovingOpt = Annotated[
    bool,
    typer.Option(
        "--moving",
        help="Firing on the move: Advance order (BA, K47); firer moved this activation (Iron Cross).",
    ),
]
FirerVehicleOpt = Annotated[
    bool,
    typer.Option(
        "--firer-vehicle",
        help="Firer is a vehicle (Iron Cross; BA, K47: its Fixed weapons fire on the move).",
    ),
]

# Konflikt '47 and Bolt Action
FirerPinsOpt = Annotated[int, typer.Option("--pins", help="Pin markers on the firer (BA, K47).")]
InexperiencedOpt = Annotated[
    bool, typer.Option("--inexperienced", help="The firers are inexperienced (BA, K47).")
]
OneCrewOpt = Annotated[
    bool,
    typer.Option("--one-crew", help="A team weapon with one crew left: -1 to hit (BA, K47)."),
]
TargetDownOpt = Annotated[
    bool, typer.Option("--target-down", help="Target infantry/artillery is Down (BA, K47).")
]
SmallUnitOpt = Annotated[
    bool, typer.Option("--small-unit", help="Target is a small unit (BA, K47).")
]
FacingOpt = Annotated[
    str, typer.Option("--facing", help="front|side|top|rear armour hit (BA, K47).")
]
IndirectOpt = Annotated[
    bool, typer.Option("--indirect", help="A howitzer firing indirectly (BA, K47).")
]
RangedInOpt = Annotated[
    bool,
    typer.Option("--ranged-in", help="Indirect fire already ranged in on the target (BA, K47)."),
]
OpenToppedOpt = Annotated[
    bool, typer.Option("--open-topped", help="Target vehicle is open-topped (BA, K47).")
]
AutomatonOpt = Annotated[
    bool, typer.Option("--automaton", help="Target vehicle is an automaton (K47).")
]
TargetPinsOpt = Annotated[
    int, typer.Option("--target-pins", help="Pins already on the target (BA, K47).")
]
TargetQualityOpt = Annotated[
    str, typer.Option("--target-quality", help="A target vehicle crew's quality (BA, K47).")
]
TargetModelsOpt = Annotated[
    int | None,
    typer.Option("--target-models", help="Models in the target unit: caps casualties (BA, K47)."),
]
TargetImmobilisedOpt = Annotated[
    bool,
    typer.Option(
        "--target-immobilised",
        help="The vehicle was immobilised before: a further Immobilised knocks it out (BA, K47).",
    ),
]
TargetOfficerOpt = Annotated[
    str | None,
    typer.Option(
        "--target-officer",
        help="An officer in range of the target: his morale bonus to a vehicle crew's "
        "tests (On fire, a flamethrower's) or to troops' flamethrower check: "
        "second-lieutenant, first-lieutenant, captain, major (BA, K47).",
    ),
]

# Iron Cross
FirerMarkersOpt = Annotated[
    int, typer.Option("--morale-markers", help="Morale markers on the firer (Iron Cross).")
]
TargetMovedOpt = Annotated[
    bool, typer.Option("--target-moved", help="Target moved this turn (Iron Cross).")
]
SmokeOpt = Annotated[bool, typer.Option("--smoke", help="Target obscured by smoke (Iron Cross).")]
InfantryDetachmentOpt = Annotated[
    bool,
    typer.Option("--infantry-detachment", help="Firer is an infantry detachment (Iron Cross)."),
]
EnemyInfantryNearOpt = Annotated[
    bool,
    typer.Option(
        "--enemy-infantry-near",
        help='Enemy infantry within 12" of the firing vehicle, unscreened (Iron Cross; '
        'infantry it fires at within 12" counts already).',
    ),
]
ScreenedOpt = Annotated[
    bool,
    typer.Option(
        "--screened",
        help="Friendly infantry as near the firing vehicle as the enemy's: no -1 (Iron Cross).",
    ),
]
MortarOpt = Annotated[bool, typer.Option("--mortar", help="Mortar fire (Iron Cross).")]
MachineGunOpt = Annotated[
    bool,
    typer.Option(
        "--machine-gun", help="The firer is a machine gun: 2 D10 at infantry (Iron Cross)."
    ),
]
DiceOpt = Annotated[
    int | None,
    typer.Option(
        "--dice",
        help="Firing dice, as an orders-of-battle rule gives them (Iron Cross).",
        show_default='1; 2 at infantry within 12" or from a machine gun',
    ),
]
PenetrationOpt = Annotated[
    int | None,
    typer.Option("--penetration", help="Gun penetration (Iron Cross, vehicle targets)."),
]
ArmourOpt = Annotated[
    int | None, typer.Option("--armour", help="Target armour (Iron Cross, vehicle targets).")
]

# House Clearing
WeaponSkillOpt = Annotated[
    int | None, typer.Option("--weapon-skill", help="Firer's weapon skill (House Clearing).")
]
VisibleOpt = Annotated[
    int | None,
    typer.Option(
        "--visible",
        help="Fifths of the target visible, 1-5 (House Clearing; a grenade's: to its burst).",
    ),
]
AutoOpt = Annotated[bool, typer.Option("--auto", help="Automatic cone of fire (House Clearing).")]
TargetInitiativeOpt = Annotated[
    int | None,
    typer.Option("--target-initiative", help="Target's initiative points (House Clearing)."),
]
CrewOpt = Annotated[
    int | None,
    typer.Option(
        "--crew",
        help="Crew serving a belt-fed LMG: with fewer than 2 it fires as a box LMG (House Clearing).",
        show_default="full crew",
    ),
]


@dataclass(frozen=True)
class Shot:
    """What ``odds shoot`` asks of every ruleset: the rules it is asked under, and the
    options more than one ruleset's shot takes (a ruleset refuses those it has no use for)."""

    ruleset: Ruleset
    rules: Source | None
    weapons: list[str]
    target: str | None
    range_inches: float | None
    cover: str
    moving: bool
    firer_vehicle: bool
    as_json: bool


# Each ruleset's own options. given(): those given, by name, as _forbid takes them (an
# option whose default is 0 counts as given only when it is not 0; one whose default is
# None, such as --dice or --visible, is given even as 0).


@dataclass(frozen=True)
class BoltActionFire:
    """The firer, the target and the fire as Konflikt '47 and Bolt Action modify it."""

    pins: int
    inexperienced: bool
    one_crew: bool
    target_down: bool
    small_unit: bool
    facing: str
    indirect: bool
    ranged_in: bool
    open_topped: bool
    automaton: bool
    target_pins: int
    target_quality: str
    target_models: int | None
    target_immobilised: bool
    target_officer: str | None

    def given(self) -> dict[str, object]:
        return dict(
            pins=self.pins or None,
            inexperienced=self.inexperienced,
            one_crew=self.one_crew,
            target_down=self.target_down,
            small_unit=self.small_unit,
            indirect=self.indirect,
            ranged_in=self.ranged_in,
            open_topped=self.open_topped,
            automaton=self.automaton,
            target_pins=self.target_pins or None,
            target_models=self.target_models,
            target_immobilised=self.target_immobilised,
            target_officer=self.target_officer,
            target_quality=None if self.target_quality == "regular" else self.target_quality,
            facing=None if self.facing == "front" else self.facing,
        )


@dataclass(frozen=True)
class IronCrossFire:
    """The firer, the target and the fire as Iron Cross modifies it."""

    morale_markers: int
    target_moved: bool
    smoke: bool
    infantry_detachment: bool
    enemy_infantry_near: bool
    screened: bool
    mortar: bool
    machine_gun: bool
    dice: int | None
    penetration: int | None
    armour: int | None

    def given(self) -> dict[str, object]:
        return dict(
            morale_markers=self.morale_markers or None,
            target_moved=self.target_moved,
            smoke=self.smoke,
            infantry_detachment=self.infantry_detachment,
            enemy_infantry_near=self.enemy_infantry_near,
            screened=self.screened,
            mortar=self.mortar,
            machine_gun=self.machine_gun,
            penetration=self.penetration,
            armour=self.armour,
            dice=self.dice,
        )


@dataclass(frozen=True)
class HouseClearingFire:
    """The figure firing and its target as House Clearing has them."""

    weapon_skill: int | None
    visible: int | None
    auto: bool
    target_initiative: int | None
    crew: int | None

    def given(self) -> dict[str, object]:
        return dict(
            weapon_skill=self.weapon_skill,
            visible=self.visible,
            auto=self.auto,
            target_initiative=self.target_initiative,
            crew=self.crew,
        )


def _forbid(ruleset: Ruleset, **given: Any) -> None:
    """Refuse options that belong to another ruleset, naming them."""
    wrong = [
        name
        for name, value in given.items()
        if not (value is None or value is False or value == "none" or value == [])
    ]
    if wrong:
        flags = ", ".join("--" + w.replace("_", "-") for w in wrong)
        fail(
            f"{flags} {'does' if len(wrong) == 1 else 'do'} not apply to {ruleset.value}; "
            "see 'kriegsspiel odds shoot --help' for which options belong to which ruleset."
        )


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
    shot = Shot(ruleset, rules, weapon, target, range_, cover, moving, firer_vehicle, as_json)
    bolt_action = BoltActionFire(
        pins,
        inexperienced,
        one_crew,
        target_down,
        small_unit,
        facing,
        indirect,
        ranged_in,
        open_topped,
        automaton,
        target_pins,
        target_quality,
        target_models,
        target_immobilised,
        target_officer,
    )
    iron_cross = IronCrossFire(
        morale_markers,
        target_moved,
        smoke,
        infantry_detachment,
        enemy_infantry_near,
        screened,
        mortar,
        machine_gun,
        dice,
        penetration,
        armour,
    )
    house_clearing = HouseClearingFire(weapon_skill, visible, auto, target_initiative, crew)
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
    from kriegsspiel.rulesets.bolt_action.shooting import Situation

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
