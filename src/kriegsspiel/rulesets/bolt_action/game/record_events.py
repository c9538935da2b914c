"""The lines of a game record after its header: one model for each kind of event.

A replay reads every line as the kind of event it names, strictly (a whole number is not
"17", a flag is not 1), so a line changed by hand is named at its line and field as in any
bad file, rather than passed over or left to show as a difference in the game. Decisions
(and the dice drawn from the bag) are what a replay takes from a record; the other events
are the game's to write again and compare, and are checked here only for their shape.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kriegsspiel.errors import suggest
from kriegsspiel.rulesets.bolt_action.game.actions import Action

Pair = tuple[float, float]


class Line(BaseModel):
    """Every event: its name, and the turn it happened in."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    event: str
    turn: int


# ----------------------------------------------------------------------------- decisions
class Decision(Line):
    """A decision, or a die drawn from the bag: what the replay carries out again."""

    def action(self) -> Action:
        fields = self.model_dump(exclude={"event", "turn"}, exclude_none=True)
        return Action.from_json({"kind": self.event, **fields})


class Draw(Decision):
    event: Literal["draw"]
    side: int


class Order(Decision):
    event: Literal["order"]
    unit: int
    order: str
    to: Pair | None = None
    target: int | None = None
    choice: str = ""
    facing: float | None = None


class React(Decision):
    event: Literal["react"]
    side: int
    unit: int
    choice: str


class Ambush(Decision):
    event: Literal["ambush"]
    side: int
    choice: str
    unit: int | None = None  # the ambusher that fires (none when all hold)
    target: int | None = None


class Retain(Decision):
    event: Literal["retain"]
    side: int
    unit: int
    choice: str


class FriendlyFire(Decision):
    """The opposing player's choice of the friend a FUBAR unit fires at."""

    event: Literal["friendly fire"]
    side: int
    target: int


class Reseed(Line):
    """The dice rolled from here on from a new seed (``BoltActionGame.reseed``): a replay
    reseeds its game here too."""

    event: Literal["dice"]
    seed: int = Field(ge=0)


# ----------------------------------------------------------------------------- what follows
class Start(Line):
    event: Literal["start"]
    ruleset: str
    scenario: str
    turns: int
    seed: int
    armies: tuple[str, str]


# ----------------------------------------------------------------------------- the dice
# Records of format 2 on write what was rolled: the 2D6 of an order test or a morale
# check (and the D6 on the FUBAR chart), each attack's shots and hits by weapon, each
# hit's damage roll on a vehicle, and the checks an attack's target made within it (on
# fire, a flamethrower's, an automaton's). A record of format 1 has none of these, and
# later formats added more: the fields are optional here, and a replay of an older record
# compares its lines without the fields its format lacks (:data:`ADDED_FIELDS`,
# :func:`as_written_in`) and passes over the events it never has (:data:`ADDED_KINDS`,
# :func:`in_format`).
class Part(BaseModel):
    """A part of an event's line (an object within it), read as strictly as the line."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


#: a D6 as rolled
Die = Annotated[int, Field(ge=1, le=6)]


class WeaponFired(Part):
    """One weapon's part of an attack: its shots (all its models', all its groups') and
    the hits they scored; from format 5 on, one part for each score its shots needed
    to hit (its models at different ranges may need different ones), with that score and
    what made it."""

    weapon: str
    shots: int = Field(ge=0)
    hits: int = Field(ge=0)
    # (format 5 on) the D6 score each shot needed ([6, N]: a 6, then N), none for a sure
    # hit; the to-hit modifiers that made it by their data keys (hit_modifiers rows,
    # "shaped_charge"), or the rule that fixed it instead
    needs: int | tuple[int, int] | None = None
    modifiers: dict[str, int] | None = None
    fixed: Literal["shockwave", "indirect_first_shot", "indirect_ranged_in"] | None = None
    # at troops, a weapon whose hit is not one hit (HE, a flamethrower...): the shots that
    # hit, and what each made ("D6"; "D6 halved" at a Down target)
    struck: int | None = Field(default=None, ge=0)
    per_hit: str | None = None
    # (format 8 on) the dice as rolled: every to-hit die (a 6 of a 7+ followed by its
    # second die; none for a sure hit); at troops, each roll of hits a struck shot made
    # (before a Down target halved it; at a vehicle too from format 9 on, with its
    # ``struck`` and ``per_hit``), every damage die and the D6 score each needed
    hit_dice: tuple[Die, ...] | None = None
    per_hit_dice: tuple[Annotated[int, Field(ge=0)], ...] | None = None
    damage_dice: tuple[Die, ...] | None = None
    damage_needs: int | None = Field(default=None, ge=1)
    # (format 9 on) a weapon with pins of its own (HE's D2/D3/D6, a flamethrower's) that
    # rolled them: the dice ("D3") and each roll as made (at troops one for each of its
    # groups that hit, at a vehicle one for each shot that hit; the most counts)
    pin_roll: str | None = None
    pin_dice: tuple[Annotated[int, Field(ge=0)], ...] | None = None


class ResultRoll(Part):
    """A roll on the damage results table: the dice rolled (none: a fixed score), the
    score read on the table (the damage's modifier and any bonus in) and what it gave."""

    roll: int | None
    score: int
    result: str


class PenPart(Part):
    """A part of a shot's pen: its name as the odds' reasoning gives it ("pen", "side
    armour", "long range", "gravity pulse") and what it adds."""

    name: str
    value: int


class DamageRoll(Part):
    """A hit's damage roll on a vehicle: a D6 plus the pen against its damage value, the
    damage it made, and the rolls on the damage results table that followed; (a shot's,
    format 9 on) the parts its pen adds up from."""

    weapon: str
    roll: int = Field(ge=0)  # a shot's D6; an assault's damage dice (the editions' D6)
    pen: int  # a shot's pen; an assault's hits
    damage_value: int
    damage: Literal["none", "superficial", "full", "massive"]
    results: tuple[ResultRoll, ...]
    pen_parts: tuple[PenPart, ...] | None = None


class OrderTest(Line):
    event: Literal["order test"]
    unit: int
    needs: int
    result: str
    roll: int | None = Field(default=None, ge=2, le=12)  # the 2D6 (format 2 on)
    fubar_roll: int | None = Field(default=None, ge=1, le=6)  # a FUBAR's D6 on its chart


class Rally(Line):
    event: Literal["rally"]
    unit: int
    pins_lost: int
    roll: int | None = Field(default=None, ge=0)  # the dice's pins off, as rolled (format 7 on)


class Move(Line):
    event: Literal["move"]
    unit: int
    to: Pair
    run: bool
    heading: float | None = None  # a vehicle's, where the move turned it
    reverse: bool = False  # a vehicle driving backwards


class UnitAtUnit(Line):
    """A unit and the unit it acts on, and nothing more."""

    event: Literal["no shot", "shockwave", "vehicle fires at assaulters"]
    unit: int
    target: int


class Attack(Line):
    """An attack's outcome: on troops, hits and casualties; on a vehicle, its damage."""

    event: Literal["shoot"]
    unit: int
    target: int
    shots: int
    pins: int
    weapons: tuple[WeaponFired, ...] | None = None  # (format 2 on)
    damage_rolls: tuple[DamageRoll, ...] | None = None  # at a vehicle (format 2 on)
    hits: int | None = None
    casualties: int | None = None
    knocked_out: bool | None = None
    immobilised: bool | None = None
    stunned: bool | None = None
    on_fire: bool | None = None


class SupportDamage(Attack):
    """An attack no unit on the table made (an aircraft's, a barrage's sure hit)."""

    event: Literal["support damage"]  # type: ignore[assignment]
    unit: None  # type: ignore[assignment]


class MoraleCheck(Line):
    event: Literal["morale check"]
    unit: int
    needs: int
    passed: bool
    roll: int | None = Field(default=None, ge=2, le=12)  # the 2D6 (format 2 on)


class Check(Line):
    """A check the target of an attack made within it (format 2 on: a record of format 1
    has no such line): its vehicle's crew when it caught fire, a unit (or a vehicle's
    crew) after a flamethrower's hit, each a morale check on 2D6 needing ``needs`` or
    under; an automaton's D6 to ignore Crew stunned, needing ``needs`` or over (passed:
    the stun is ignored)."""

    event: Literal["on fire check", "flamethrower check", "automaton check"]
    unit: int
    needs: int
    roll: int = Field(ge=1, le=12)
    passed: bool


class Destroyed(Line):
    event: Literal["destroyed"]
    unit: int
    why: str


class UnitOnly(Line):
    event: Literal["escape", "no escape", "assault blocked", "gravity pulse"]
    unit: int


class RoundCheck(Part):
    """The morale check of the side that took more casualties in a round (Konflikt '47):
    passed, the fight goes on."""

    side: Literal["attackers", "defenders"]
    needs: int
    roll: int = Field(ge=2, le=12)
    passed: bool


class FightRoll(Part):
    """One roll of a side's in a round of close quarters: the D6 score its dice needed
    and the dice as rolled (those that made it are rolled again for the next roll)."""

    needs: int = Field(ge=1)
    dice: tuple[Die, ...]


class FightRound(Part):
    """A round of close quarters: each side's models at its start, the casualties each
    took, and any morale check it brought; from format 9 on, the dice each side rolled,
    roll by roll in the order rolled (point-blank fire to hit, a 7+'s 6 then the second
    die of each 6; then to damage; none for a side that struck no blow)."""

    attackers: int = Field(ge=0)
    defenders: int = Field(ge=0)
    attackers_lost: int = Field(ge=0)
    defenders_lost: int = Field(ge=0)
    check: RoundCheck | None = None
    attackers_dice: tuple[FightRoll, ...] | None = None
    defenders_dice: tuple[FightRoll, ...] | None = None


class CloseQuarters(Line):
    event: Literal["close quarters"]
    attacker: int
    defender: int
    attacker_wins: bool
    attackers_left: int
    defenders_left: int
    rounds: tuple[FightRound, ...] | None = None  # (format 2 on)


class AssaultVehicle(Line):
    event: Literal["assault vehicle"]
    unit: int
    target: int
    knocked_out: bool
    immobilised: bool
    stunned: bool
    on_fire: bool
    pins: int
    # (format 3 on) the models that struck, the D6 each needed (None: the vehicle could
    # not be hit), the hits, whether they had anti-tank weapons (without, superficial at
    # most) and the damage roll: the edition's D6 with the hits as its pen
    models: int | None = Field(default=None, ge=0)
    hit_on: int | None = Field(default=None, ge=1)
    hits: int | None = Field(default=None, ge=0)
    anti_tank: bool | None = None
    damage_rolls: tuple[DamageRoll, ...] | None = None


class Fubar(Line):
    event: Literal["fubar"]
    unit: int
    result: str
    target: int | None = None  # friendly fire: the unit shot at
    chosen_by: int | None = None  # friendly fire: the side that chose it (none: the only one)
    away_from: int | None = None  # panic: the enemy run from
    flight: str | None = None  # panic: why it went less than its Run (format 9 on)


class CallIn(Line):
    event: Literal["barrage", "air strike"]
    side: int
    roll: int
    effect: str
    caller: int | None = None  # the observer who called it, fallen or not (format 2 on)
    again: bool | None = None  # delayed, it rolls again as a turn begins (format 2 on)


class AirStrikeTarget(Line):
    """A delayed air strike whose target is gone, aimed anew as it comes back (none:
    called off)."""

    event: Literal["air strike target"]
    side: int
    was: int
    target: int | None


class FireForEffect(Line):
    event: Literal["fire for effect"]
    at: Pair
    radius: int


class BarragePins(Line):
    event: Literal["barrage pins"]
    unit: int
    roll: int
    pins: int


class BarrageHit(Line):
    event: Literal["barrage hit"]
    unit: int
    roll: int
    weapon: str


class AirStrikePins(Line):
    event: Literal["air strike pins"]
    unit: int
    pins: int


class Aircraft(Line):
    event: Literal["aircraft"]
    roll: int
    aircraft: str
    target: int
    pins: int | None = Field(default=None, ge=0)  # the attack's own pins (format 2 on)


class TurnEnd(Line):
    event: Literal["turn end"]
    score: tuple[int, int]


class AnotherTurn(Line):
    """The D6 rolled at the end of a scenario's last turn for one more (format 9 on): the
    score it ``needs``, and whether that turn is ``played``."""

    event: Literal["another turn"]
    roll: Die
    needs: int = Field(ge=2, le=6)
    played: bool


class GameOver(Line):
    event: Literal["game over"]
    score: tuple[int, int]
    returns: tuple[float, float]


MODELS: tuple[type[Line], ...] = (
    Start, Draw, Reseed, Order, OrderTest, Rally, Move, UnitAtUnit, Attack, SupportDamage,
    MoraleCheck, Check, Destroyed, React, Ambush, Retain, FriendlyFire, UnitOnly, CloseQuarters,
    AssaultVehicle, Fubar, CallIn, AirStrikeTarget, FireForEffect, BarragePins, BarrageHit, AirStrikePins,
    Aircraft, TurnEnd, AnotherTurn, GameOver,
)  # fmt: skip


#: the fields each format added to the events of each kind: a record of an older format
#: lacks them, and its replay leaves them out
ADDED_FIELDS: dict[int, dict[str, tuple[str, ...]]] = {
    2: {
        "order test": ("roll", "fubar_roll"),
        "morale check": ("roll",),
        "shoot": ("weapons", "damage_rolls"),
        "support damage": ("weapons", "damage_rolls"),
        "aircraft": ("pins",),
        "close quarters": ("rounds",),
        "barrage": ("caller", "again"),
        "air strike": ("caller", "again"),
    },
    3: {"assault vehicle": ("models", "hit_on", "hits", "anti_tank", "damage_rolls")},
    7: {"rally": ("roll",)},
    9: {"fubar": ("flight",)},
}

#: the kinds of event each format added: a record of an older format never has them, and
#: its replay passes them over
ADDED_KINDS: dict[int, frozenset[str]] = {
    2: frozenset({"on fire check", "flamethrower check", "automaton check"}),
    4: frozenset({"gravity pulse"}),
    9: frozenset({"another turn"}),
}

#: what each format added, as the replay of an older record tells what it lacks
ADDED_WHAT: dict[int, str] = {
    2: "the dice rolled and the weapons fired",
    3: "the dice of an assault on a vehicle",
    4: "a gravity pulse's bar on the next Run",
    5: "what each weapon's shots needed to hit",
    6: "a team weapon's lone crew as a to-hit modifier of its own",
    7: "a Rally's dice as rolled",
    8: "each shot's to-hit and damage dice as rolled",
    9: (
        "each close quarters round's dice as rolled, a shot's roll of hits at a vehicle and"
        " what made its pen, the roll of an HE or flame hit's own pins,"
        " why a FUBAR panic's flight fell short of a Run,"
        " and the roll for another turn after the last"
    ),
}

#: the parts of each weapon's line in an attack (``weapons``) that format 5 added: a
#: record of an older format has one part per weapon, without them
NEEDS_FIELDS = ("needs", "modifiers", "fixed")
#: the parts of each weapon's line that format 8 added: the dice as rolled
DICE_FIELDS = ("hit_dice", "per_hit_dice", "damage_dice", "damage_needs")
#: the parts of each round's line in a fight (``rounds``) that format 9 added: its dice
ROUND_DICE_FIELDS = ("attackers_dice", "defenders_dice")
#: the parts of each weapon's line in an attack on a vehicle that format 9 added: a roll
#: of hits (HE at a soft-skin, a flamethrower, an aircraft), as at troops
VEHICLE_HITS_FIELDS = ("struck", "per_hit", "per_hit_dice")
#: the parts of each weapon's line in any attack that format 9 added: its own pins' roll
PIN_DICE_FIELDS = ("pin_roll", "pin_dice")


def in_format(name: str, number: int) -> bool:
    """Whether a record of format ``number`` writes events of kind ``name``."""
    return not any(name in kinds for n, kinds in ADDED_KINDS.items() if n > number)


def as_written_in(row: dict[str, Any], number: int) -> dict[str, Any]:
    """An event's line as a record of format ``number`` writes it: without the fields later
    formats added (:data:`ADDED_FIELDS`)."""
    name = row.get("event")
    if not isinstance(name, str):
        return row
    added = {f for n, kinds in ADDED_FIELDS.items() if n > number for f in kinds.get(name, ())}
    if added:
        row = {k: v for k, v in row.items() if k not in added}
    if number < 9 and isinstance(row.get("damage_rolls"), list):
        row = at_vehicle_before_9(row)
    if number < 9 and isinstance(row.get("weapons"), list):
        row = {**row, "weapons": [without_dice(p, PIN_DICE_FIELDS) for p in row["weapons"]]}
    if number < 8 and isinstance(row.get("weapons"), list):
        row = {**row, "weapons": [without_dice(part) for part in row["weapons"]]}
    if number < 9 and isinstance(row.get("rounds"), list):
        row = {**row, "rounds": [without_dice(part, ROUND_DICE_FIELDS) for part in row["rounds"]]}
    if number < 5 and isinstance(row.get("weapons"), list):
        row = {**row, "weapons": by_weapon(row["weapons"])}
    elif number < 6 and isinstance(row.get("weapons"), list):
        row = {**row, "weapons": [crew_as_pin(part) for part in row["weapons"]]}
    return row


def at_vehicle_before_9(row: dict[str, Any]) -> dict[str, Any]:
    """An attack on a vehicle (an event with ``damage_rolls``) as a record before format 9
    writes it: its weapons without their roll of hits (:data:`VEHICLE_HITS_FIELDS`), its
    damage rolls without the parts of their pen."""
    rolls = [
        {k: v for k, v in r.items() if k != "pen_parts"} if isinstance(r, dict) else r
        for r in row["damage_rolls"]
    ]
    row = {**row, "damage_rolls": rolls}
    if isinstance(row.get("weapons"), list):
        row["weapons"] = [
            {k: v for k, v in part.items() if k not in VEHICLE_HITS_FIELDS}
            if isinstance(part, dict)
            else part
            for part in row["weapons"]
        ]
    return row


def without_dice(part: Any, fields: tuple[str, ...] = DICE_FIELDS) -> Any:
    """A weapon's part as a record before format 8 writes it (a fight's round, or a
    weapon's own pins, before format 9, with its ``fields``): without its dice."""
    if not isinstance(part, dict):
        return part
    return {k: v for k, v in part.items() if k not in fields}


def crew_as_pin(part: dict[str, Any]) -> dict[str, Any]:
    """A weapon's part as format 5 writes it: a team weapon's lone crew (``one_crew``,
    format 6 on) counted in its pins (``per_pin``), as the game then counted it."""
    modifiers = part.get("modifiers")
    if not isinstance(modifiers, dict) or "one_crew" not in modifiers:
        return part
    pins = {k: v for k, v in modifiers.items() if k != "one_crew"}
    pins["per_pin"] = pins.get("per_pin", 0) + modifiers["one_crew"]
    return {**part, "modifiers": pins}


def by_weapon(fired: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An attack's weapons as a record before format 5 writes them: each weapon once, in
    the order it first fired, its parts' shots, hits and struck added up, without what
    they needed (:data:`NEEDS_FIELDS`)."""
    merged: dict[str, dict[str, Any]] = {}
    for part in fired:
        line = merged.get(part["weapon"])
        if line is None:
            merged[part["weapon"]] = {k: v for k, v in part.items() if k not in NEEDS_FIELDS}
            continue
        line["shots"] += part["shots"]
        line["hits"] += part["hits"]
        if "struck" in part:
            line["struck"] = line.get("struck", 0) + part["struck"]
            line["per_hit"] = part["per_hit"]
    return list(merged.values())


def _names(model: type[Line]) -> tuple[str, ...]:
    """The event names ``model`` reads (its ``event`` field's literal values)."""
    annotation = model.model_fields["event"].annotation
    return tuple(getattr(annotation, "__args__", ()))


EVENTS: dict[str, type[Line]] = {name: model for model in MODELS for name in _names(model)}


def unknown_event(name: object) -> str:
    """What to say of a line whose event is not one a game records: the ones it does."""
    known = sorted(EVENTS)
    if not isinstance(name, str):
        return f"an event's name is text, one of: {', '.join(known)} (not {name!r})"
    hint = suggest(name, known)
    return f"there is no event {name!r} in a game's record{hint}; the events are {', '.join(known)}"
