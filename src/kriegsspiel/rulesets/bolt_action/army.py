"""Army lists for the Bolt Action family, read from YAML and checked against an edition's data.

An army list is validated in two layers, both inside the pydantic models so that
:func:`kriegsspiel.core.datafile.load_yaml` reports every problem with its file, line and
field:

- its shape: required fields, known values, the total of the unit points;
- against the edition it names (``ruleset``): every weapon is on that edition's weapons
  chart, every vehicle's damage value is in its ``damage_values`` table, and Konflikt '47's
  weird war (walkers, automatons, weird-science weapons) is refused for Bolt Action 1st
  edition.

The edition reaches the nested models through context variables that the list's own
validator sets (pydantic offers no parent access, and ``load_yaml`` passes no context).

>>> from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
>>> army = load_army(sample_armies("konflikt47")[0], "konflikt47")
>>> army.points == sum(unit.points for unit in army.units)
True
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    AfterValidator,
    Field,
    ModelWrapValidatorHandler,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from kriegsspiel.core import arguments
from kriegsspiel.core.datafile import (
    AT_ITEM,
    Name,
    Strict,
    TrueOrFalse,
    WholeNumber,
    load_yaml,
    parse_yaml,
)
from kriegsspiel.errors import DataFileError, UnknownNameError, UsageError, did_you_mean, named
from kriegsspiel.rulesets import RULESETS, check_ruleset
from kriegsspiel.rulesets.bolt_action.data import OfficerRank, QualityName, Weapon
from kriegsspiel.rulesets.bolt_action.edition import (
    Konflikt47,
    Rules,
    Target,
    checked_against,
    edition_with,
    rules_file_path,
    rules_for,
)
from kriegsspiel.rulesets.bolt_action.kit import counterparts

EDITIONS = ("konflikt47", "bolt-action-1")
Ruleset = Literal["konflikt47", "bolt-action-1"]
UnitType = Literal["infantry", "artillery", "team", "vehicle"]
# a unit's quality and an officer's rank: each one a rules file must give (data.py)
Quality = QualityName
VehicleKind = Literal["wheeled", "half-tracked", "tracked", "walker"]
Arc = Literal["front", "side", "rear", "turret", "all-round"]

#: The special rules (as the weapons charts name them) that make a weapon weird science.
WEIRD_SCIENCE = frozenset({"Tesla", "Shockwave", "Gravity Pulse"})

# Limits of the tool, not rules (no sheet caps a unit or a list): far beyond any real list,
# they catch a typo before it costs minutes (measured: a 50-man squad plays a game in about
# 1 s; 10,000 men take 10 s a game).
MOST_MODELS = 50  # in one unit
MOST_UNITS = 40  # in one list
MOST_POINTS = 10_000  # for one unit


# ------------------------------------------------------------------ validation context
@dataclass(frozen=True, slots=True)
class _Loading:
    """What ``load_army`` asked for: the ruleset expected and an optional own rules file
    (its path, or its name and ``rules_text``: the text of a rules file a game carries)."""

    ruleset: str | None
    rules_file: str | None
    rules_text: str | None = None


_LOADING: ContextVar[_Loading | None] = ContextVar("army_loading", default=None)
_RULES: ContextVar[Rules | None] = ContextVar("army_rules", default=None)
_UNIT: ContextVar[str] = ContextVar("army_unit", default="?")
_UNIT_TYPE: ContextVar[str | None] = ContextVar("army_unit_type", default=None)


@dataclass
class _Named:
    """The units of the list being read so far: how many, and the number each name was
    first given to (so that a second unit of a name is told at its own name's line)."""

    units: int = 0
    names: dict[str, int] = field(default_factory=dict)


_NAMED: ContextVar[_Named | None] = ContextVar("army_named", default=None)
# the list's units as the file gives them, before checking: their points are totalled even
# when another field of a unit is wrong (every problem of a list told at once)
_GIVEN_UNITS: ContextVar[Any] = ContextVar("army_given_units", default=None)
_UNIT_NUMBER: ContextVar[int | None] = ContextVar("army_unit_number", default=None)


@contextmanager
def _set(var: ContextVar[Any], value: Any) -> Iterator[None]:
    token = var.set(value)
    try:
        yield
    finally:
        var.reset(token)


def _problem(text: str, item: int | None = None) -> PydanticCustomError:
    """A validation error whose message is exactly ``text`` (no 'Value error, ' prefix);
    ``item``: the one item of the list checked that is wrong, told at its own line."""
    where = {} if item is None else {AT_ITEM: item}
    return PydanticCustomError("army_list", "{problem}", {"problem": text, **where})


def _weird_war(rules: Rules) -> bool:
    """Walkers, automatons and weird science come together: Konflikt '47's weird war.

    The editions declare it with one flag, ``has_walkers``.
    """
    return rules.has_walkers


def _weird_science_elsewhere(name: str) -> bool:
    """Is ``name`` a weird-science weapon on the Konflikt '47 chart?"""
    try:
        weapon = rules_for(Konflikt47.ruleset).weapon(name)
    except UnknownNameError:
        return False
    return bool(WEIRD_SCIENCE & set(weapon.special))


def _other_editions(name: str, rules: Rules, chart: Literal["weapon", "target"]) -> str | None:
    """The title of the other edition whose shipped ``chart`` has ``name``
    (:func:`edition_with`), if one has it."""
    other = edition_with(name, rules, chart)
    return None if other is None else other.data.title


def _words(name: str) -> set[str]:
    """The words of a weapon's name, in lower case ("Super-bazooka": super, bazooka)."""
    return set(re.findall(r"[a-z0-9]+", name.lower()))


def _which_chart(rules: Rules, chart: str, weapon: str | None = None) -> str:
    """Where a name not on ``rules``' ``chart`` was looked for: the shipped data (a house
    weapon needs the rules file that adds it), or a rules file (named; and said if the
    shipped chart has the ``weapon``, which the file then leaves out); and the command
    that lists the chart's names."""
    option = "--weapons" if weapon is not None else "--targets"
    lists = f"kriegsspiel army {option} -r {rules.ruleset}"
    told = checked_against(rules, chart, "The list", lists)
    if rules.rules_file is None:
        return told
    if weapon is not None:
        try:
            rules_for(rules.ruleset).weapon(weapon)
        except UnknownNameError:
            pass
        else:
            told += ", which leaves out this weapon of the shipped chart"
    # (a rules file known by a record's label, not a path, is listed as any file is)
    given = rules.rules_file if Path(rules.rules_file).is_file() else "FILE"
    return f"{told}; '{lists} --rules-file {shlex.quote(given)}' lists it."


def _check_weapon(name: str, owner: str) -> Weapon | None:
    """The weapon ``name`` of the list's edition (None if the edition is itself invalid)."""
    rules = _RULES.get()
    if rules is None:  # the list's ruleset is itself invalid: reported on its own
        return None
    try:
        weapon = rules.weapon(name)
    except UnknownNameError as exc:
        if not _weird_war(rules) and _weird_science_elsewhere(name):
            raise _problem(
                f"{owner}: {name!r} is a Konflikt '47 weird-science weapon; "
                f"{rules.data.title} has no weird science"
            ) from None
        other = _other_editions(name, rules, "weapon")
        if other is not None:  # (as a weird-science one above: said so, with its kin)
            kin = [m for m in exc.close_matches if _words(m) & _words(name)]
            raise _problem(
                f"{owner}: {name!r}{did_you_mean(kin)} is a {other} weapon, not on the "
                f"{rules.data.title} weapons chart (a list plays by its own edition's chart)."
            ) from None
        raise _problem(f"{owner}: {exc}{_which_chart(rules, 'weapons chart', name)}") from None
    if WEIRD_SCIENCE & set(weapon.special) and not _weird_war(rules):
        raise _problem(
            f"{owner}: {weapon.name} is a weird-science weapon; {rules.data.title} has none"
        )
    return weapon


def _counterparts(weapon: Weapon, *, on_vehicle: bool) -> str:
    """:func:`counterparts` by the rules of the list being read ("" outside one)."""
    rules = _RULES.get()
    return "" if rules is None else counterparts(rules, weapon, on_vehicle=on_vehicle)


def _model_weapon(name: str, info: ValidationInfo) -> str:
    """A model's weapon: on its edition's chart, and one a man of this unit's type carries."""
    owner = f"unit {_UNIT.get()!r}, model {info.data.get('name', '?')!r}"
    weapon = _check_weapon(name, owner)
    kind = _UNIT_TYPE.get()
    if weapon is None or kind not in ("infantry", "team", "artillery"):
        return name  # (a vehicle with models, or no type: told at the unit)
    if weapon.fielded == "vehicle only":
        raise _problem(
            f"{owner}: the {weapon.name} is a vehicle's weapon (the weapons chart gives it "
            f"for vehicles): only a vehicle mounts it, in its 'vehicle.weapons'"
            f"{_counterparts(weapon, on_vehicle=False)}"
        )
    if weapon.fielded == "gun" and kind != "artillery":
        raise _problem(
            f"{owner}: the {weapon.name} is a gun, fielded as an artillery unit (the gun and "
            f"its crew, moving by the terrain table's artillery column, kept out of rough "
            f"ground, obstacles and buildings), not carried by {_A_UNIT[kind]}: give it a unit "
            f"of its own with type: artillery and its crew (e.g. {{name: Crew, count: 2}}), "
            f"or mount it on a vehicle"
        )
    if "Fixed" in weapon.special and kind == "infantry":
        raise _problem(
            f"{owner}: the {weapon.name} is a Fixed team weapon (set up on its mount, it "
            f"cannot fire on the move), fielded as a team of its own with its crew, not "
            f"carried by a man of an infantry squad: give it a unit of its own with type: "
            f"team (or artillery) and its crew (e.g. {{name: Loader, count: 2}})"
        )
    return name


def _vehicle_weapon(name: str) -> str:
    """A vehicle's weapon: on its edition's chart, and one a vehicle mounts."""
    owner = f"unit {_UNIT.get()!r}, vehicle weapon"
    weapon = _check_weapon(name, owner)
    if weapon is not None and weapon.fielded == "not on vehicles":
        raise _problem(
            f"{owner}: the {weapon.name} is carried by a man (the weapons chart gives it for "
            f"infantry), not mounted on a vehicle{_counterparts(weapon, on_vehicle=True)}"
        )
    return name


# ------------------------------------------------------------------------------ models
class Model(Strict):
    """One figure (or ``count`` identical figures) of a unit and the weapons each carries."""

    name: Name
    count: WholeNumber = Field(default=1, ge=1, le=MOST_MODELS)
    weapons: tuple[Annotated[str, AfterValidator(_model_weapon)], ...] = ()
    officer: OfficerRank | None = None
    nco: TrueOrFalse = False
    observer: Literal["artillery", "air"] | None = None  # calls a barrage or an air strike

    @field_validator("weapons")
    @classmethod
    def _each_once(cls, weapons: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        """A weapon given twice to one model: a man fires one weapon a turn (the game picks
        his best), so a second of the same does nothing; a typo is likelier (docs/rules,
        "Who carries what")."""
        rules = _RULES.get()
        own = [rules.weapon(w).name if rules is not None else w.casefold() for w in weapons]
        second = next((k for k in range(len(weapons)) if own[k] in own[:k]), None)
        if second is not None:
            twice = weapons[second]
            once = ", ".join(
                dict.fromkeys(weapons[k] for k in range(len(weapons)) if own[k] not in own[:k])
            )
            raise _problem(
                f"unit {_UNIT.get()!r}, model {info.data.get('name', '?')!r}: {twice!r} is given "
                f"twice; a man fires one weapon a turn, so a second of the same does nothing: "
                f"give it once (weapons: [{once}]), or count the men who carry it (count: N)",
                item=second,
            )
        return weapons

    @field_validator("observer")
    @classmethod
    def _support_to_call(cls, observer: str | None, info: ValidationInfo) -> str | None:
        """An observer calls the edition's barrage or air strike: an edition whose data has
        no such chart (Konflikt '47's sheets print none) has no support to call, and the
        model would stand by all game, its points spent for nothing."""
        rules = _RULES.get()
        if observer is None or rules is None:
            return observer
        chart, table = (
            (rules.data.artillery_barrage, "artillery_barrage")
            if observer == "artillery"
            else (rules.data.air_strike, "air_strike")
        )
        if chart is None:
            called = "an artillery barrage" if observer == "artillery" else "an air strike"
            raise _problem(
                f"unit {_UNIT.get()!r}, model {info.data.get('name', '?')!r}: an {observer} "
                f"observer calls in {called}, and {rules.data.title} has none (its rules data "
                f"has no {table} table), so it could never call one; give the model no observer"
            )
        return observer

    @model_validator(mode="after")
    def _one_rank(self) -> Self:
        if self.officer is not None and self.nco:
            raise _problem(f"model {self.name!r} is both an officer and an NCO; choose one")
        return self


class VehicleWeapon(Strict):
    """A weapon mounted on a vehicle and the arc it fires in ('turret' and 'all-round': any)."""

    weapon: Annotated[str, AfterValidator(_vehicle_weapon)]
    facing: Arc


class Vehicle(Strict):
    """What makes a unit a vehicle: how it moves, how hard it is to damage, its guns."""

    kind: VehicleKind
    damage_value_of: str
    open_topped: TrueOrFalse = False
    recce: TrueOrFalse = False
    automaton: TrueOrFalse = False
    weapons: tuple[VehicleWeapon, ...] = ()

    @field_validator("kind")
    @classmethod
    def _walkers_are_weird_war(cls, kind: str) -> str:
        rules = _RULES.get()
        if kind == "walker" and rules is not None and not _weird_war(rules):
            raise _problem(
                f"unit {_UNIT.get()!r}: walkers are Konflikt '47 only; {rules.data.title} has none"
            )
        return kind

    @field_validator("damage_value_of")
    @classmethod
    def _on_the_damage_chart(cls, name: str, info: ValidationInfo) -> str:
        rules = _RULES.get()
        if rules is None:
            return name
        unit = _UNIT.get()
        kind = info.data.get("kind")
        try:
            target = rules.target(name)
        except UnknownNameError:  # (told with a vehicle's rows only: of a walker's, if one)
            fits = rules.known_targets(
                lambda row: row.is_vehicle and (kind is None or (kind == "walker") == row.walker)
            )
            exc = UnknownNameError("vehicle damage value", name, fits)
            other = _other_editions(name, rules, "target")
            if other is not None:  # (as another edition's weapon is: said so, with its kin)
                kin = [m for m in exc.close_matches if _words(m) & _words(name)]
                raise _problem(
                    f"unit {unit!r}: {name!r}{did_you_mean(kin)} is a {other} damage value, "
                    f"not on the {rules.data.title} damage value table (a list plays by its "
                    "own edition's table)."
                ) from None
            raise _problem(
                f"unit {unit!r}: {exc}{_which_chart(rules, 'damage value table')}"
            ) from None
        if not target.is_vehicle:
            raise _problem(
                f"unit {unit!r}: {target.name!r} is an infantry damage value; a vehicle needs "
                f"a vehicle's (one of {', '.join(_vehicle_targets(rules))})"
            )
        if kind is not None and (kind == "walker") != target.walker:
            walkers = [t for t in _vehicle_targets(rules) if rules.target(t).walker]
            others = [t for t in _vehicle_targets(rules) if not rules.target(t).walker]
            if target.walker:
                why = f"{target.name!r} is a walker's damage value, but the vehicle's kind is {kind!r}"
                fits = others
            else:
                why = f"{target.name!r} is not a walker's damage value, but the vehicle's kind is 'walker'"
                fits = walkers
            raise _problem(f"unit {unit!r}: {why} (for it: {', '.join(fits)})")
        return name

    @field_validator("automaton")
    @classmethod
    def _automatons_are_weird_war(cls, automaton: bool) -> bool:
        rules = _RULES.get()
        if automaton and rules is not None and not _weird_war(rules):
            raise _problem(
                f"unit {_UNIT.get()!r}: automatons are Konflikt '47 only; "
                f"{rules.data.title} has none"
            )
        return automaton


_A_UNIT = {"infantry": "an infantry squad", "team": "a team", "artillery": "artillery"}


#: what a unit on foot without models is told
_NO_MODELS = (
    "unit {unit!r} has no models: list them under 'models:', one line for each kind of man "
    "(e.g. '- {{name: Rifleman, weapons: [Rifle], count: 5}}')"
)


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _times(count: int) -> str:
    return "" if count == 1 else f"{count} men, each with "


def _vehicle_targets(rules: Rules) -> list[str]:
    return [r.names[0] for r in rules.data.damage_values.rows if r.kind != "infantry"]


class Unit(Strict):
    """One unit: infantry, artillery and teams are ``models``; a vehicle is its ``vehicle``."""

    name: Name
    type: UnitType
    quality: Quality
    points: WholeNumber = Field(ge=0, le=MOST_POINTS)
    models: tuple[Model, ...] = ()
    # (checked even when the unit has other problems: a vehicle's fields set beside a blank
    # 'vehicle:' are told with this)
    vehicle: Vehicle | None = Field(default=None, validate_default=True)

    @model_validator(mode="wrap")
    @classmethod
    def _named_for_nested_errors(cls, data: Any, handler: ModelWrapValidatorHandler[Unit]) -> Unit:
        name = data.get("name") if isinstance(data, dict) else getattr(data, "name", None)
        kind = data.get("type") if isinstance(data, dict) else getattr(data, "type", None)
        named = _NAMED.get()
        number = None
        if named is not None:  # (a unit of a list: its number in it)
            number, named.units = named.units, named.units + 1
        with (
            _set(_UNIT, name if isinstance(name, str) else "?"),
            _set(_UNIT_TYPE, kind if isinstance(kind, str) else None),
            _set(_UNIT_NUMBER, number),
        ):
            return handler(data)

    @field_validator("name")
    @classmethod
    def _a_name_of_its_own(cls, name: str) -> str:
        named, number = _NAMED.get(), _UNIT_NUMBER.get()
        if named is None or number is None:
            return name
        if name in named.names:  # (told here, at the second unit's own line)
            raise _problem(
                f"units.{named.names[name]} and units.{number} are both named "
                f"{name!r}: give each unit a name of its own (results, the play aid and the "
                "account of a game tell units by their names), e.g. '1st ...' and '2nd ...'"
            )
        named.names[name] = number
        return name

    @field_validator("models")
    @classmethod
    def _some_models(cls, models: tuple[Model, ...], info: ValidationInfo) -> tuple[Model, ...]:
        """A unit on foot given an empty 'models:' is told so at that line (one given none
        at all, at its own: :meth:`_models_or_vehicle`)."""
        if not models and info.data.get("type") in ("infantry", "team", "artillery"):
            raise _problem(_NO_MODELS.format(unit=_UNIT.get()))
        return models

    @field_validator("models")
    @classmethod
    def _crewed(cls, models: tuple[Model, ...], info: ValidationInfo) -> tuple[Model, ...]:
        """Each team weapon has its crew, a team is one team weapon and an artillery unit
        one gun (docs/rules, "Who carries what")."""
        rules = _RULES.get()
        kind = info.data.get("type")
        if rules is None or kind not in ("infantry", "team", "artillery") or not models:
            return models
        unit = _UNIT.get()
        carried = [(m, [rules.weapon(w) for w in m.weapons]) for m in models]
        team = [(m, [w for w in ws if "Team" in w.special]) for m, ws in carried]
        gunners = [(m, ws) for m, ws in team if ws]
        weapons = sum(m.count * len(ws) for m, ws in gunners)
        crew = sum(m.count for m, ws in team if not ws)
        if weapons > crew:
            who = ", ".join(
                f"{m.name!r} ({_times(m.count)}{' and '.join(w.name for w in ws)})"
                for m, ws in gunners
            )
            short = weapons - crew
            loaders = "{name: Loader}" if short == 1 else f"{{name: Loader, count: {short}}}"
            raise _problem(
                f"unit {unit!r}, {'model' if len(gunners) == 1 else 'models'} {who}: a team "
                f"weapon (Team on the weapons chart) is fired by a crew of two or more, so "
                f"each needs a man beside its firer who carries no team weapon of his own; "
                f"the unit has {_count(weapons, 'team weapon')} but "
                f"{_count(crew, 'such man', 'such men')}: add "
                f"{_count(short, 'crewman', 'crewmen')} (e.g. {loaders}) or carry fewer "
                f"team weapons"
            )
        if kind == "team" and not any(ws for _, ws in carried):
            raise _problem(
                f"unit {unit!r} is a team, but none of its models carries a weapon: a team "
                f"is a team weapon and its crew (e.g. {{name: Gunner, weapons: [Bazooka]}}), "
                f"or a sniper and his rifle; give its weapon to the model who fires it"
            )
        if kind == "team" and weapons > 1:
            names = ", ".join(repr(m.name) for m, _ in gunners)
            raise _problem(
                f"unit {unit!r} is a team with {_count(weapons, 'team weapon')} ({names}): a "
                f"team is one team weapon and its crew, with one order die; make each team "
                f"weapon a team of its own"
            )
        if kind == "artillery":
            guns = [(m, [w for w in ws if "Fixed" in w.special]) for m, ws in carried]
            count = sum(m.count * len(ws) for m, ws in guns)
            if count == 0:
                raise _problem(
                    f"unit {unit!r} is artillery, a gun and its crew, but none of its models "
                    f"carries a gun (a Fixed weapon, such as an AT gun or a howitzer): give "
                    f"one model its gun, or make the unit infantry or a team"
                )
            if count > 1:
                raise _problem(
                    f"unit {unit!r} is artillery with {count} guns ("
                    f"{', '.join(repr(m.name) for m, ws in guns if ws)}): an artillery unit "
                    f"is one gun and its crew, with one order die; make each gun a unit of "
                    f"its own"
                )
        return models

    @field_validator("models")
    @classmethod
    def _led(cls, models: tuple[Model, ...], info: ValidationInfo) -> tuple[Model, ...]:
        """One leader to a unit: an officer is an HQ of his own, himself and up to two men,
        and a squad has one NCO (docs/rules, "Who carries what")."""
        unit = _UNIT.get()
        officers = [m for m in models if m.officer is not None]
        count = sum(m.count for m in officers)
        if count > 1:
            who = ", ".join(
                f"{m.name!r} ({m.officer}{f', count {m.count}' if m.count > 1 else ''})"
                for m in officers
            )
            raise _problem(
                f"unit {unit!r} has {count} officers ({who}): an officer leads an HQ unit of "
                f"his own, one officer to a unit; give each officer a unit of his own (the "
                f"officer and up to two men)"
            )
        men = sum(m.count for m in models)
        if count == 1 and men > 3:
            raise _problem(
                f"unit {unit!r}: its officer {officers[0].name!r} ({officers[0].officer}) leads "
                f"an HQ, himself and up to two men, and the unit has {men} models; make him "
                f"an HQ unit of his own, and lead the rest with an NCO (nco: true)"
            )
        ncos = sum(m.count for m in models if m.nco)
        if ncos > 1:
            raise _problem(
                f"unit {unit!r} has {ncos} NCOs: a squad has one NCO, its leader; make the "
                f"others plain men (drop nco: true)"
            )
        return models

    @field_validator("vehicle")
    @classmethod
    def _a_vehicle_for_a_vehicle(
        cls, vehicle: Vehicle | None, info: ValidationInfo
    ) -> Vehicle | None:
        if vehicle is None and info.data.get("type") == "vehicle":
            raise _problem(
                f"unit {_UNIT.get()!r} is a vehicle and needs a 'vehicle' block (its kind, "
                "damage_value_of and weapons, indented under 'vehicle:')"
            )
        return vehicle

    @model_validator(mode="after")
    def _models_or_vehicle(self) -> Self:
        if self.type == "vehicle":
            if self.models:
                raise _problem(
                    f"unit {self.name!r} is a vehicle: its weapons go in 'vehicle.weapons', "
                    "not in 'models'"
                )
        else:
            if self.vehicle is not None:
                raise _problem(
                    f"unit {self.name!r} is {self.type}, not a vehicle: drop its 'vehicle' "
                    "block or make its type 'vehicle'"
                )
            if not self.models:
                raise _problem(_NO_MODELS.format(unit=self.name))
            if self.model_count > MOST_MODELS:
                raise _problem(
                    f"unit {self.name!r} has {self.model_count} models; kriegsspiel plays units "
                    f"of up to {MOST_MODELS} (a tool limit, not a rule: a typo is likelier)"
                )
        return self

    @property
    def is_vehicle(self) -> bool:
        return self.vehicle is not None

    @property
    def model_count(self) -> int:
        """Figures in the unit (0 for a vehicle)."""
        return sum(m.count for m in self.models)

    @property
    def damage_value_of(self) -> str:
        """The ``damage_values`` row it is hit as: its quality sets an infantry unit's."""
        if self.vehicle is not None:
            return self.vehicle.damage_value_of
        return f"{self.quality} {'artillery' if self.type == 'artillery' else 'infantry'}"

    def target(self, rules: Rules) -> Target:
        """The unit as a target of ``rules``: its damage value and kind."""
        return rules.target(self.damage_value_of)


class ArmyList(Strict):
    """A whole force for one edition; ``points`` must be the sum of its units' points."""

    file_kind: ClassVar[str] = "army list"

    name: Name
    ruleset: Ruleset
    faction: Name
    units: tuple[Unit, ...] = Field(max_length=MOST_UNITS)
    # After ``units``, so its validator sees them and an error points at the 'points' line.
    points: WholeNumber = Field(ge=0)

    @model_validator(mode="wrap")
    @classmethod
    def _against_its_edition(
        cls, data: Any, handler: ModelWrapValidatorHandler[ArmyList]
    ) -> ArmyList:
        named = data.get("ruleset") if isinstance(data, dict) else getattr(data, "ruleset", None)
        rules: Rules | None = None
        if named in EDITIONS:
            loading = _LOADING.get()
            own = loading is not None and loading.ruleset in (None, named)
            if loading is not None and own:
                rules = rules_for(named, loading.rules_file, loading.rules_text)
            else:
                rules = rules_for(named)
        units = data.get("units") if isinstance(data, dict) else None
        # (a list of too many units is told that, not each of its units' names after it)
        named = None if isinstance(units, list) and len(units) > MOST_UNITS else _Named()
        with _set(_RULES, rules), _set(_NAMED, named), _set(_GIVEN_UNITS, units):
            return handler(data)

    @field_validator("units")
    @classmethod
    def _some_units(cls, units: tuple[Unit, ...]) -> tuple[Unit, ...]:
        # Not Field(min_length=1): pydantic would also report it whenever a unit is invalid.
        if not units:
            raise _problem("an army list needs at least one unit")
        return units  # (two units of one name: told at the second's, Unit._a_name_of_its_own)

    @field_validator("ruleset")
    @classmethod
    def _as_loaded(cls, ruleset: str) -> str:
        loading = _LOADING.get()
        if loading is not None and loading.ruleset not in (None, ruleset):
            # the parameter ruleset: "--ruleset konflikt47, or a sweep file's 'ruleset:'" on
            # the command line, "ruleset='konflikt47'" to a Python caller
            ask = named(
                "ruleset",
                shown=f"{ruleset}, or a sweep file's 'ruleset:'",
                python=f"ruleset={ruleset!r}",
            )
            raise _problem(
                f"this list is for {RULESETS[ruleset]} ({ruleset}), but it was loaded for "
                f"{RULESETS[loading.ruleset]} ({loading.ruleset}); to play it, ask for "
                f"{ruleset} ({ask}) with lists of that edition"
            )
        return ruleset

    @field_validator("points")
    @classmethod
    def _adds_up(cls, points: int, info: ValidationInfo) -> int:
        units: tuple[Unit, ...] | None = info.data.get("units")
        priced = (
            [(u.name, u.points) for u in units]
            if units is not None
            else _as_given(_GIVEN_UNITS.get())
        )
        if priced is not None:
            total = sum(cost for _, cost in priced)
            if total != points:
                raise _problem(
                    f"the list says {points} points but its units add up to {total} "
                    f"({', '.join(f'{name} {cost}' for name, cost in priced)})"
                )
        return points

    @property
    def vehicles(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.vehicle is not None)


def _as_given(units: Any) -> list[tuple[str, int]] | None:
    """Each unit's name and points as the file gives them, when a unit failed its checks
    (the total is told with the other problems); None unless every unit's points are a
    valid whole number (a wrong one is told on its own) and the list of units is sound."""
    if not isinstance(units, list) or not 0 < len(units) <= MOST_UNITS:
        return None
    priced = []
    for number, unit in enumerate(units, 1):
        cost = unit.get("points") if isinstance(unit, dict) else None
        if isinstance(cost, bool) or not isinstance(cost, int) or not 0 <= cost <= MOST_POINTS:
            return None
        name = unit.get("name")
        priced.append((name if isinstance(name, str) and name.strip() else f"unit {number}", cost))
    return priced


# ----------------------------------------------------------------------------- loading
def load_army(
    path: str | Path, ruleset: str | None = None, *, rules_file: str | Path | None = None
) -> ArmyList:
    """Read and validate an army list; raise DataFileError naming file, line and field.

    ``ruleset`` (``konflikt47`` or ``bolt-action-1``, aliases allowed) is the edition the
    list must be for; None takes the one the file names. ``rules_file`` checks the list
    against a designer's own copy of that edition's data file.
    """
    file = arguments.path("path", path)
    rules_file = rules_file_path(rules_file)  # (a str or a Path; else refused by name)
    expected = None
    if ruleset is not None:
        expected = check_ruleset(arguments.text("ruleset", ruleset))
        if expected not in EDITIONS:
            raise UsageError(
                f"army lists are for the Bolt Action family ({', '.join(EDITIONS)}), "
                f"not {RULESETS[expected]}"
            )
    if not file.exists():
        shipped = {p.stem: p for edition in EDITIONS for p in sample_armies(edition)}
        if str(path) in shipped:
            raise DataFileError(
                str(path),
                [
                    "no such file; it is the name of a shipped list, whose file is "
                    f"{shipped[str(path)]} (sample_armies(ruleset) lists them; new_game "
                    "takes the name)"
                ],
            )
    with _set(_LOADING, _Loading(expected, rules_file)):
        return load_yaml(file, ArmyList)


def parse_army(
    text: str,
    name: str,
    ruleset: str | None = None,
    *,
    rules_file: str | None = None,
    rules_text: str | None = None,
) -> ArmyList:
    """The same as :func:`load_army` for a list held as text (e.g. inside a game record);
    ``rules_text``, if given, is the text of the designer's rules file ``rules_file`` names
    (without it, ``rules_file`` is the rules file's path)."""
    expected = check_ruleset(ruleset) if ruleset is not None else None
    with _set(_LOADING, _Loading(expected, rules_file, rules_text)):
        return parse_yaml(text, ArmyList, name)


def sample_armies(ruleset: str) -> list[Path]:
    """The army lists that ship with kriegsspiel for ``ruleset``, sorted by file name."""
    key = check_ruleset(ruleset)
    folder = resources.files("kriegsspiel") / "data" / "armies" / key
    if not folder.is_dir():
        return []
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".yaml"))
