"""What ``odds shoot`` is asked with: its options, each under the ruleset(s) whose shot
takes it, and the rulesets' own options gathered as each ruleset's fire (Konflikt '47 and
Bolt Action's, Iron Cross's, House Clearing's), with what of them was given. Apart from the
command so that the command reads as what it does, not as its forty options' help.

The options' help says which rulesets take each: BA, K47, HC (House Clearing), Iron Cross."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from kriegsspiel.odds_cli.shared import Ruleset
    from kriegsspiel.sim.matchup import Source

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


# Each ruleset's own options. given(): those given, by name, as 'odds shoot' refuses them for another ruleset (an
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
