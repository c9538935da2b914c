"""A readable turn-by-turn account of a game, made from its event log."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from kriegsspiel.core.dice import DiceExpr
from kriegsspiel.core.game import Event
from kriegsspiel.core.names import a_or_an, facing_text, ordinal
from kriegsspiel.rulesets.bolt_action.game.record_events import by_weapon

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.data import ArtilleryBarrage, Edition
    from kriegsspiel.rulesets.bolt_action.to_hit import HitWords

SIDES = ("Side A", "Side B")


def _name(units: list[Any], uid: Any) -> str:
    if isinstance(uid, int) and 0 <= uid < len(units):
        u = units[uid]
        return f"{u.name} [{SIDES[u.side][-1]}]"
    return "?"


def counted(number: int, thing: str) -> str:
    """ "1 pin", "2 pins", "0 casualties": a count with its noun, singular only for one."""
    if number == 1:
        return f"1 {thing}"
    plural = thing[:-1] + "ies" if thing.endswith("y") else thing + "s"
    return f"{number} {plural}"


def vehicle_damage(data: dict[str, Any]) -> str:
    """What an attack did to a vehicle: "knocked out", "immobilised, stunned, 2 pins"... or
    "no damage, 1 pin": the pins it took (its damage's and the attack's own), as a shot at
    troops tells them, unless it was knocked out (a wreck's pins count for nothing)."""
    effects = [k for k in ("knocked_out", "immobilised", "stunned", "on_fire") if data.get(k)]
    told = ", ".join(e.replace("_", " ") for e in effects) or "no damage"
    if data.get("knocked_out") or "pins" not in data:
        return told
    return f"{told}, {counted(data['pins'], 'pin')}"


def vehicle_hit(data: dict[str, Any], words: HitWords | None = None) -> str:
    """What shots (or an aircraft's or a shell's hits) did to a vehicle: the hits, by
    weapon where more than one weapon hit, as a shot at troops tells them ("0 hits -> no
    damage, 0 pins"; "4 hits (Heavy AT gun 1, MMG 3) -> ..."), then the damage, and on a
    line of its own, as the dice are, the damage rolls and which hits had none (small
    arms at armour, a Shockwave's set result: :func:`unrolled`): "damage roll v 9: Heavy
    AT gun 4+5=9 none; no damage roll for 3 hits of MMG" (the rolls and the damage alone,
    on one line, for a record that has no hits by weapon)."""
    fired = data.get("weapons")
    if not isinstance(fired, list) or not all(isinstance(w.get("hits"), int) for w in fired):
        return f"{damage_rolls(data, words=words)}{vehicle_damage(data)}"
    fired = by_weapon(fired)  # (a weapon's parts by what they needed, as one)
    hits = sum(w["hits"] for w in fired)
    if not hits:
        return f"0 hits -> {vehicle_damage(data)}"
    scored = [w for w in fired if w["hits"]]
    said = counted(hits, "hit")
    if len(fired) > 1:
        said += f" ({_each(scored, 'hits')})"
    rolls = data.get("damage_rolls")
    rolls = rolls if isinstance(rolls, list) else None
    told = damage_rolls(data, by_weapon=len(scored) > 1, words=words).removesuffix(" -> ")
    rolled = [told] if told else []  # (the damage rolls' own line, as the dice have theirs)
    none, out = unrolled(scored, rolls, knocked_out=bool(data.get("knocked_out")))
    if none and len(fired) == 1:
        said += ", none with a damage roll"
    elif none:
        whose = ", ".join(f"{counted(w['hits'], 'hit')} of {w['weapon']}" for w in none)
        if rolled:
            rolled.append(f"no damage roll for {whose}")
        else:
            said += f"; no damage roll for {whose}"
    said += f" -> {vehicle_damage(data)}" + not_rolled(out, shots_not_rolled(data))
    return said + (f"\n      {'; '.join(rolled)}" if rolled else "")


def not_rolled(hits: int, shots: int) -> str:
    """ " (its other 2 hits and 1 shot not rolled: it was out)": what of an attack on a
    vehicle was not rolled because it was knocked out first ("" for nothing)."""
    told = [f"its other {counted(hits, 'hit')}"] if hits else []
    told += [counted(shots, "shot")] if shots else []
    return f" ({' and '.join(told)} not rolled: it was out)" if told else ""


def shots_not_rolled(data: dict[str, Any]) -> int:
    """How many of an attack's shots at a vehicle rolled no to-hit die because it was
    knocked out before them (the game rolls shot by shot, and stops at a wreck: the
    vehicle's damage or the On fire check of an earlier shot): the shots less the rolls
    its to-hit dice make (0 for a vehicle not knocked out, sure hits, or a record without
    its dice)."""
    fired = data.get("weapons")
    if not data.get("knocked_out") or not isinstance(fired, list):
        return 0
    unrolled = 0
    for w in fired:
        if "needs" not in w or not isinstance(w.get("hit_dice"), (list, tuple)):
            continue
        needs = w["needs"] if isinstance(w["needs"], list) else [w["needs"]]
        unrolled += max(0, w["shots"] - len(hit_rolls(w["hit_dice"], needs)))
    return unrolled


def unrolled(
    scored: list[dict[str, Any]], rolls: list[dict[str, Any]] | None, *, knocked_out: bool
) -> tuple[list[dict[str, Any]], int]:
    """Of the weapons that hit a vehicle (``scored``), those none of whose hits made a
    damage roll (small arms at armour, or a Shockwave, whose result is set), and how many
    hits of the others were not rolled because an earlier one had knocked it out (a
    weapon's hits after that are not counted; only a shot's own further hits are). A
    record without damage rolls: none, and no hit left unrolled."""
    if rolls is None:
        return [], 0
    made: dict[str, int] = {}
    for r in rolls:
        name = r.get("weapon")
        if isinstance(name, str):
            made[name] = made.get(name, 0) + 1
    if len(made) < len({r.get("weapon") for r in rolls}):  # (rolls without their weapon)
        return [], max(0, sum(w["hits"] for w in scored) - len(rolls)) if knocked_out else 0
    none = [w for w in scored if not made.get(w["weapon"])]
    rolled = [w for w in scored if made.get(w["weapon"])]
    out = sum(w["hits"] - made[w["weapon"]] for w in rolled) if knocked_out else 0
    return none, max(0, out)


def assault_dice(data: dict[str, Any], words: HitWords | None = None) -> str:
    """ "to hit on 4+ with 6 models: 2 hits; damage roll v 9: 5+2=7 none -> ": an assault on
    a vehicle's dice, the hits as the damage roll's pen ("" for a record without them)."""
    if not isinstance(data.get("hits"), int) or not isinstance(data.get("hit_on"), int):
        return ""
    hits = data["hits"]
    said = (
        f"to hit on {data['hit_on']}+ with {counted(data['models'], 'model')}: "
        f"{counted(hits, 'hit') if hits else 'no hit'}"
    )
    if not hits:
        return f"{said} -> "
    capped = "" if data.get("anti_tank") else " (no anti-tank weapon: superficial at most)"
    return f"{said}; {damage_rolls(data, words=words)}".removesuffix(" -> ") + f"{capped} -> "


def rolled(data: dict[str, Any]) -> str:
    """ ", rolled 7" for a test whose 2D6 the event records ("" for a record without it)."""
    return f", rolled {data['roll']}" if isinstance(data.get("roll"), int) else ""


def at_the_edge(needs: int) -> str:
    """What a 2D6 test needing ``needs`` or less means where the number alone misleads:
    a double six always fails, a double one always passes (docs/rules, "The 2D6 test")."""
    if needs >= 12:
        return " (a double six still fails)"
    if needs < 2:
        return " (only a double one passes)"
    return ""


def order_test(data: dict[str, Any]) -> str:
    """An order test's line: what it needed, the 2D6 rolled (a FUBAR's roll on its chart
    too) and the result."""
    needs = data["needs"]
    said = f"    order test: needs {needs} or less on 2D6{at_the_edge(needs)}{rolled(data)}"
    if isinstance(data.get("fubar_roll"), int):
        said += f" (FUBAR), {data['fubar_roll']} on the FUBAR chart"
    if data["result"] == "fail":  # (the order is lost: the unit goes Down instead)
        return f"{said} -> fail: it goes Down instead"
    return f"{said} -> {data['result']}"


def weapons_fired(data: dict[str, Any], *, hits: bool, words: HitWords | None = None) -> str:
    """ "9 shots (Rifle 6, LMG 3)": an attack's shots by weapon, as its event records them
    (the plain count for a record without them); ``hits``: and ": 3 hits (Rifle 2, LMG
    1)", the hits by weapon told where more than one weapon fired and any hit. A record
    that has what the shots needed to hit (format 5 on) tells it, in the solo prompt's
    words: "8 shots of MMG needing 5+ (long range -1, soft cover -1): 4 hits"; "12 shots:
    8 of Rifle needing 4+ (long range -1), 4 of LMG needing 3+; 3 hits (Rifle 2, LMG 1)"."""
    fired = data.get("weapons")
    if isinstance(fired, list) and fired and any("needs" in w for w in fired):
        return _with_needs(data, fired, hits=hits, words=words)
    said = counted(data["shots"], "shot")
    if not isinstance(fired, list) or not fired:
        return said + (f": {counted(data['hits'], 'hit')}" if hits else "")
    if len(fired) == 1:
        said += f" ({fired[0]['weapon']})"
    else:
        said += f" ({_each(fired, 'shots')})"
    if not hits:
        return said
    if len(fired) == 1 and fired[0].get("struck"):
        return f"{said}: {_multiplied(fired[0])} = {counted(data['hits'], 'hit')}"
    said += f": {counted(data['hits'], 'hit')}"
    scored = [w for w in fired if w["hits"] or w.get("struck")]
    if len(fired) > 1 and scored:
        said += f" ({_each(scored, 'hits')})"
    return said


def _with_needs(
    data: dict[str, Any],
    fired: list[dict[str, Any]],
    *,
    hits: bool,
    words: HitWords | None,
) -> str:
    """:func:`weapons_fired` for a record with what each weapon's shots needed: each
    weapon's part (one for each score it needed) with its shots and that score; the hits
    by part where more than one fired and any hit (a weapon's part named by its score
    where it has more than one)."""
    if len(fired) == 1:
        part = fired[0]
        said = f"{counted(part['shots'], 'shot')} of {part['weapon']}{needing(part, words)}"
    else:
        each = ", ".join(f"{w['shots']} of {w['weapon']}{needing(w, words)}" for w in fired)
        said = f"{counted(data['shots'], 'shot')}: {each}"
    if not hits:
        return said
    one = ": " if len(fired) == 1 else "; "
    if len(fired) == 1 and fired[0].get("struck"):
        return f"{said}{one}{_multiplied(fired[0])} = {counted(data['hits'], 'hit')}"
    said += f"{one}{counted(data['hits'], 'hit')}"
    scored = [w for w in fired if w["hits"] or w.get("struck")]
    if len(fired) > 1 and scored:
        names = [w["weapon"] for w in fired]
        told = [
            {**w, "weapon": f"{w['weapon']} at {needs_score(w, words)}"}
            if names.count(w["weapon"]) > 1
            else w
            for w in scored
        ]
        said += f" ({_each(told, 'hits')})"
    return said


@cache
def shipped_words() -> HitWords:
    """What made or fixed a to-hit score, in the shipped data's words (the two editions'
    are the same): an account's when it is given no rules' words."""
    from kriegsspiel.rulesets.bolt_action.edition import rules_for
    from kriegsspiel.rulesets.bolt_action.to_hit import hit_words

    return hit_words(rules_for("konflikt47"))


def needs_score(part: dict[str, Any], words: HitWords | None = None) -> str:
    """ "5+", or "7+ (a 6, then 4+)": the score a weapon's shots needed, as recorded, by
    the rules of ``words`` (:func:`needing`'s), as the odds tell a plan's
    (:func:`~kriegsspiel.rulesets.bolt_action.to_hit.describe_needs`)."""
    needs = part["needs"]
    words = shipped_words() if words is None else words
    return words.needs(tuple(needs) if isinstance(needs, list) else (needs,))


def needing(part: dict[str, Any], words: HitWords | None = None) -> str:
    """ " needing 5+ (long range -1, soft cover -1)": what a weapon's shots needed to hit
    and what made it, as recorded ("" for a sure hit, which needs no roll), in ``words``
    (the record's rules', :func:`~kriegsspiel.rulesets.bolt_action.to_hit.hit_words`;
    left out, the shipped data's) and in their order, the sheets', whatever the record's."""
    if "needs" not in part:
        return ""
    words = shipped_words() if words is None else words
    why: list[str] = []
    if part.get("fixed"):
        why.append(words.get(part["fixed"], part["fixed"]))
    from kriegsspiel.rulesets.bolt_action.to_hit import in_sheet_order

    modifiers = part.get("modifiers") or {}
    for key in in_sheet_order(modifiers, words):  # (the order the odds tell them in)
        why.append(f"{words.get(key, key.replace('_', ' '))} {modifiers[key]:+d}")
    score = needs_score(part, words)
    if not why:
        return f" needing {score}"
    if score.endswith(")"):  # "7+ (a 6, then 4+; long range -1, ...)"
        return f" needing {score[:-1]}; {', '.join(why)})"
    return f" needing {score} ({', '.join(why)})"


def _multiplied(weapon: dict[str, Any]) -> str:
    """ "1 hit x D6": a weapon's shots that hit, each making a roll of hits (HE, a
    flamethrower...; "x D6 halved" at a Down target); where they came to no hit, "1 shot
    on target x D3 halved" (not "1 hit" beside "0 hits")."""
    struck = counted(weapon["struck"], "hit" if weapon["hits"] else "shot")
    return f"{struck}{'' if weapon['hits'] else ' on target'} x {weapon['per_hit']}"


def _each(fired: list[dict[str, Any]], count: str) -> str:
    """ "Rifle 6, LMG 3": each weapon with its shots (or hits; "Mortar 1 hit x D6 = 4"
    where a hit made a roll of hits)."""
    return ", ".join(
        f"{w['weapon']} {_multiplied(w)} = {w[count]}"
        if count == "hits" and w.get("struck")
        else f"{w['weapon']} {w[count]}"
        for w in fired
    )


def _score(result: dict[str, Any], damage: int = 0) -> str:
    """A roll on the damage results table, its die and then each modifier: "4"; "2-3" (a
    superficial hit's D6-3, ``damage`` its -3); "1-3+1" (and an open-topped vehicle's +1
    under indirect fire); "3+1" (a full or massive hit's D6, and the +1)."""
    die, score = result["roll"], result["score"]
    if die is None or die == score:
        return str(score)
    parts = [m for m in (damage, score - die - damage) if m]
    return f"{die}{''.join(f'{m:+d}' for m in parts)}"


#: the most damage rolls a line tells one by one (the rest are counted)
DAMAGE_ROLLS_TOLD = 4


def damage_rolls(
    data: dict[str, Any], *, by_weapon: bool = False, words: HitWords | None = None
) -> str:
    """ "damage rolls v 9: 4+3=7 none, 6+3=9 full (result 5: immobilised) -> ": each
    hit's D6 and pen against the vehicle's damage value, and any rolls on the results
    table ("" for an attack without a damage roll, or a record without them). Of many,
    those that did damage are told and the rest counted. ``by_weapon``: each weapon's
    rolls after its name ("PIAT 4+6=10 superficial, HMG 2+0=2 none"). What made the pens
    is told after the damage value (:func:`pens_told`: "damage roll v 10 (pen +4, side
    armour +1): 4+5=9 none"). Rolls whose best (a 6) cannot damage the vehicle say so
    ("at best 6+0=6: short of 9"), as the dice are rolled for them all the same (by the
    rules of ``words``, as :func:`needing`'s)."""
    rolls = data.get("damage_rolls")
    if not isinstance(rolls, list) or not rolls:
        return ""
    words = shipped_words() if words is None else words
    shown = rolls
    if len(rolls) > DAMAGE_ROLLS_TOLD:
        shown = [r for r in rolls if r["damage"] != "none"][:DAMAGE_ROLLS_TOLD]
    told: list[str] = []
    named: object = None  # the weapon whose rolls are being told
    for i, r in enumerate(shown):
        line = f"{r['roll']}{r['pen']:+d}={r['roll'] + r['pen']} {r['damage']}"
        table = words.rules.data.damage_results  # (the level's dice: D6-3, D6)
        level = DiceExpr(table.superficial if r["damage"] == "superficial" else table.full)
        results = ", ".join(f"{_score(x, level.constant)}: {x['result']}" for x in r["results"])
        many = "s" if len(r["results"]) > 1 else ""
        line += f" (result{many} {results})" if results else ""
        if by_weapon and r.get("weapon") != named:
            named = r.get("weapon")
            line = f"{named} {line}"
        after = shown[i + 1] if i + 1 < len(shown) else None
        best = 6 + r["pen"]
        if not words.can_damage(r["damage_value"], r["pen"]) and (
            after is None or (after.get("weapon"), after["pen"]) != (r.get("weapon"), r["pen"])
        ):  # (said once, after the last of a run of such rolls)
            line += f" (at best 6{r['pen']:+d}={best}: short of {r['damage_value']})"
        told.append(line)
    left = [r for r in rolls if r not in shown]
    value = rolls[0]["damage_value"]
    pens = pens_told(rolls, by_weapon=by_weapon)
    against = f"{value}{f' ({pens})' if pens else ''}"
    if not told:  # (all harmless: not "all 6: none", which reads as six sixes)
        return f"damage rolls v {against}: {len(rolls)} rolled, none reached {value} -> "
    if left:
        harmless = all(r["damage"] == "none" for r in left)
        told.append(f"{len(left)} more, none reached {value}" if harmless else f"{len(left)} more")
    many = "s" if len(rolls) > 1 else ""
    return f"damage roll{many} v {against}: {', '.join(told)} -> "


def pens_told(rolls: list[dict[str, Any]], *, by_weapon: bool) -> str:
    """ "pen +4, side armour +1, long range -1": the parts the damage rolls' pens add up
    from (format 9 on), by the names the odds' reasoning gives them; ``by_weapon``, each
    weapon's after its short name ("PIAT: pen +5, side armour +1; HMG: pen +1, long
    range -1"); a weapon whose rolls had different pens, each ("pen +4, long range -1 or
    pen +4"). Nothing of a weapon whose pen is its own alone, nor of rolls without their
    parts (an assault's, an older record's)."""
    told: dict[str, list[str]] = {}  # each weapon's pens, in words
    modified: set[str] = set()  # the weapons with a pen made of more than their own
    for r in rolls:
        parts = r.get("pen_parts")
        if not isinstance(parts, list):
            continue
        weapon = short_name(str(r.get("weapon"))) if by_weapon else ""
        said = ", ".join(f"{p['name']} {p['value']:+d}" for p in parts)
        if said not in told.setdefault(weapon, []):
            told[weapon].append(said)
        if len(parts) > 1:
            modified.add(weapon)
    return "; ".join(
        f"{weapon}: {' or '.join(pens)}" if weapon else " or ".join(pens)
        for weapon, pens in told.items()
        if weapon in modified
    )


#: the most dice a roll is told die by die: more are told by face ("6s 4, 5s 2, ...")
DICE_TOLD = 20


def shot_dice(data: dict[str, Any]) -> str:
    """An attack's dice on a line of their own, after its totals (format 8 on), each roll
    high to low, so what made its score reads at a glance: "dice: to hit 5+: 6 5 2 1
    (2 hits); to damage 4+: 5 3 (1 casualty)"; where several weapons fired, each one's
    to-hit dice after its name ("MMG to hit 5+: ...; Rifle to hit 4+: ..."), then all the
    damage dice at troops. A 7+'s 6 is told with its second die ("6/4"); a roll of hits
    with its dice ("2 hits x D6: 5 3 = 8 hits"; at a vehicle too, format 9 on; a sure
    hit's alone: "1 hit x D3: 2 = 2 hits"); a weapon's own pins as rolled after its hits
    ("pins D3: 2", format 9 on; "(the most counts)" where the attack rolled more than
    one). "" for an attack with no dice (single sure hits at a vehicle, or an event
    without them: a record's account is told from its replay, whose events have them,
    whatever the record's format)."""
    fired = data.get("weapons")
    if not isinstance(fired, list) or not any("hit_dice" in w for w in fired):
        return ""
    told: list[str] = []
    pinned = [w for w in fired if w.get("pin_dice")]  # (the most of their rolls counts)
    for w in fired:
        rolled = ""
        if w.get("per_hit_dice"):  # (a roll of hits: HE, a flamethrower, an aircraft)
            # (as the shot's line names them: "1 shot on target" where they came to none)
            struck = counted(len(w["per_hit_dice"]), "hit" if w["hits"] else "shot")
            struck += "" if w["hits"] else " on target"
            rolls = " ".join(str(r) for r in w["per_hit_dice"])
            rolled = f"{struck} x {w['per_hit']}: {rolls} = {counted(w['hits'], 'hit')}"
        if "needs" in w:
            needs = w["needs"] if isinstance(w["needs"], list) else [w["needs"]]
            score = needs_score(w).split(" (")[0]  # ("8+", its "6/5" dice tell the rest)
            said = f"to hit {score}: {dice_text(hit_rolls(w['hit_dice'], needs))}"
            said += f" ({rolled or counted(w['hits'], 'hit')})"
        elif rolled:  # (a sure hit's roll of hits: no to-hit dice)
            said = rolled
        else:  # (a sure hit, one hit each: no dice but its pins')
            said = ""
        if w.get("pin_dice"):
            pins = f"pins {w['pin_roll']}: {' '.join(str(r) for r in w['pin_dice'])}"
            said = f"{said}, {pins}" if said else pins
            if w is pinned[-1] and sum(len(p["pin_dice"]) for p in pinned) > 1:
                said += " (the most counts)"
        if not said:
            continue
        if len(fired) > 1:
            said = f"{short_name(w['weapon'])} {said}"
        told.append(said)
    damage = [die for w in fired for die in w.get("damage_dice", ())]
    value = next((w["damage_needs"] for w in fired if "damage_needs" in w), None)
    if damage and value is not None:
        told.append(damage_told(damage, value, data.get("casualties")))
    return dice_line(told)


def dice_line(told: Sequence[str], indent: int = 6) -> str:
    """The rolls ``told`` on a line of their own after an event's totals ("" for none):
    "dice: to hit 5+: 6 5 2 1 (2 hits); to damage 4+: 5 3 (1 casualty)"."""
    return f"\n{' ' * indent}dice: {'; '.join(told)}" if told else ""


def damage_told(dice: Sequence[int], value: int, casualties: int | None) -> str:
    """ "to damage 4+: 5 3 (1 casualty)": damage dice high to low and the casualties they
    made (None: as many as they scored); where they scored more than the models left,
    how many counted ("(4 scored: 3 casualties, all it had)")."""
    scored = sum(die >= value for die in dice)
    said = f"to damage {value}+: {dice_text([(die,) for die in dice])}"
    casualties = scored if casualties is None else casualties
    if scored > casualties:  # (no more casualties than models left)
        return f"{said} ({scored} scored: {counted(casualties, 'casualty')}, all it had)"
    return f"{said} ({counted(casualties, 'casualty')})"


def fight_dice(r: dict[str, Any]) -> str:
    """A round of close quarters' dice on a line after it (format 9 on), each side's told
    as a shot's are (:func:`shot_dice`): "dice: attackers to damage 4+: 6 5 3 1 (2
    casualties); defenders to hit 7+: 6/4 3 2 (1 hit); to damage 4+: 5 (1 casualty)". A
    side that struck no blow is left out. Where one side fired point-blank and the other
    fought hand-to-hand (Konflikt '47), the fire came first (docs/rules, "Close
    quarters"): that side is told first, and says so; a side with more dice than models
    says why (assault weapons strike twice). "" for a round without its dice."""
    told: dict[str, str] = {}
    fired: list[str] = []  # the sides whose dice began with point-blank fire's to-hit
    for side, enemy in (("attackers", "defenders"), ("defenders", "attackers")):
        rolls = r.get(f"{side}_dice")
        if not isinstance(rolls, list) or not rolls:
            continue
        said: list[str] = []
        *to_hit, damage = rolls
        if to_hit:  # (point-blank fire: to hit first; a 7+'s 6 with its second die)
            fired.append(side)
            needs = [roll["needs"] for roll in to_hit]
            score = needs_score({"needs": needs if len(needs) > 1 else needs[0]}).split(" (")[0]
            hits = counted(len(damage["dice"]), "hit")
            said.append(f"to hit {score}: {dice_text(staged_rolls(to_hit))} ({hits})")
        if damage["dice"]:
            said.append(damage_told(damage["dice"], damage["needs"], r[f"{enemy}_lost"]))
            if not to_hit and len(damage["dice"]) > r[side]:  # (hand-to-hand)
                many = f", {len(damage['dice'])} dice from {counted(r[side], 'model')} (assault"
                said[-1] = said[-1].replace(":", f"{many} weapons strike twice):", 1)
        if said:
            told[side] = "; ".join(said)
    if len(told) == 2 and len(fired) == 1:  # (the fire first, then hand-to-hand)
        first, then = fired[0], next(side for side in told if side != fired[0])
        return dice_line(
            [f"{first} first, point-blank fire: {told[first]}", f"then {then} {told[then]}"],
            indent=8,
        )
    return dice_line([f"{side} {said}" for side, said in told.items()], indent=8)


def staged_rolls(stages: Sequence[dict[str, Any]]) -> list[tuple[int, ...]]:
    """Dice rolled a roll at a time, each roll's dice that made its score rolled again
    for the next (a fight's point-blank fire: all the first dice, then a second for each
    6 of a 7+), told as :func:`hit_rolls` tells a shot's: each first die with those that
    followed it ("6/4")."""
    rolls: list[tuple[int, ...]] = [(die,) for die in stages[0]["dice"]]
    for k in range(1, len(stages)):
        need, later = stages[k - 1]["needs"], iter(stages[k]["dice"])
        rolls = [
            (*roll, next(later)) if len(roll) == k and roll[-1] >= need else roll for roll in rolls
        ]
    return rolls


def hit_rolls(dice: Sequence[int], needs: Sequence[int]) -> list[tuple[int, ...]]:
    """A weapon's to-hit dice as rolled, each shot's together: a 7+'s 6 with the second
    die that followed it."""
    rolls: list[tuple[int, ...]] = []
    i = 0
    while i < len(dice):
        roll = [dice[i]]
        i += 1
        for need in needs[:-1]:  # (a die that made its score is followed by the next)
            if roll[-1] < need or i >= len(dice):
                break
            roll.append(dice[i])
            i += 1
        rolls.append(tuple(roll))
    return rolls


def dice_text(rolls: Sequence[tuple[int, ...]]) -> str:
    """ "6 5 2 1", "6/4 6/2 3 1": rolls high to low (a 7+'s 6 with its second die); more
    than :data:`DICE_TOLD` by face ("6s 4, 5s 3, 4s 6, ..."; a 7+'s second dice after)."""
    ordered = sorted(rolls, reverse=True)
    if len(ordered) <= DICE_TOLD:
        return " ".join("/".join(map(str, roll)) for roll in ordered) or "none"
    faces = [roll[0] for roll in ordered]
    said = ", ".join(f"{face}s {faces.count(face)}" for face in range(6, 0, -1) if face in faces)
    seconds = [str(roll[1]) for roll in ordered if len(roll) > 1]
    return f"{said} (second dice {' '.join(seconds)})" if seconds else said


def short_name(weapon: str) -> str:
    """A weapon's name as a dice line tells it: "HMG" for "Heavy machine gun (HMG)"."""
    if weapon.endswith(")") and " (" in weapon:
        return weapon[weapon.rindex(" (") + 2 : -1]
    return weapon


def inches(value: float) -> str:
    """A place's coordinate as the tables print it, to the tenth of an inch ("16.9"), a
    whole inch without its ".0" ("12")."""
    return f"{value:.1f}".removesuffix(".0")


def _at(point: Sequence[float]) -> str:
    """A place, to the tenth of an inch as the tables and place lists print it (so a
    place the account names can be typed as it reads)."""
    return f'({inches(point[0])}", {inches(point[1])}")'


def describe(
    event: Event,
    units: list[Any],
    before: Event | None = None,
    *,
    rally: str = "D6",
    words: HitWords | None = None,
    fallen: Collection[int] = (),
    burnt: bool = False,
    out_after: bool = False,
) -> str | None:
    """One line for an event worth telling (None for book-keeping events). ``before``, the
    event logged just before it (if known), tells where a FUBAR panic ran to (its move)
    and whether a barrage's fire for effect is where a miscalculation let the enemy put it;
    ``words``, what made a to-hit score in the rules' words (:func:`needing`); ``fallen``,
    the units destroyed before it (a delayed call whose observer is among them says so);
    ``burnt``, an attack on a vehicle that set it on fire and whose crew's On fire check,
    told after it, then failed: it is told as on fire, and the check's line knocks it out
    (:func:`burnt_out`), in the order the dice decided it; ``out_after``, a passed On fire
    check whose attack knocked the vehicle out all the same (a later hit or check): the
    fire is out, but it is not left halted (:func:`out_after_fire`)."""
    d = event.data
    if burnt:
        d = {k: v for k, v in d.items() if k != "pins"} | {"knocked_out": False}

    def n(key: str) -> str:
        return _name(units, d.get(key))

    kind = event.kind
    if kind == "order":
        if d.get("choice") in ("barrage", "air strike") and d.get("target") is not None:
            # an observer's call (its die a Fire order): what it calls in, and on whom
            return f"  {n('unit')}: calls {a_or_an(d['choice'])} on {n('target')}"
        bits = [f"{n('unit')}: {d.get('order')}"]
        if (d.get("to") and d.get("order") != "Run") or (d.get("to") and d.get("target") is None):
            bits.append(f"to {_at(d['to'])}")
        if d.get("choice") == "reverse":
            bits.append("in reverse")
        if d.get("facing") is not None:
            bits.append(f"then {facing_text(d['facing'])}")
        if d.get("target") is not None:
            bits.append(("assaulting " if d.get("order") == "Run" else "at ") + n("target"))
            if d.get("order") == "Run" and d.get("choice") in FIGHTING_MODES:
                bits.append(f"({d['choice']})")  # Konflikt '47: the attacker's choice
        return "  " + " ".join(bits)
    if kind == "order test":
        return order_test(d)
    if kind == "shoot":
        if "casualties" in d:
            return (
                f"    {weapons_fired(d, hits=True, words=words)}, "
                f"{counted(d['casualties'], 'casualty')}, {counted(d['pins'], 'pin')} on "
                f"{n('target')}{shot_dice(d)}"
            )
        return (
            f"    {weapons_fired(d, hits=False, words=words)} at {n('target')}: "
            f"{vehicle_hit(d, words)}{shot_dice(d)}"
        )
    if kind == "no shot":
        return f"    {n('unit')} has no shot at {n('target')}"
    if kind == "morale check":
        result = "passed" if d["passed"] else "failed"
        needs = f"{d['needs']} or less on 2D6{at_the_edge(d['needs'])}"
        return f"    morale check for {n('unit')}: needs {needs}{rolled(d)} -> {result}"
    if kind in CHECKS:
        result = "passed" if d["passed"] else "failed"
        if kind == "on fire check" and not d["passed"]:
            result += ": knocked out"  # (the hits after the fire: see :func:`burnt_out`)
        elif kind == "on fire check":  # (sheets 001, 002: put out, halted, its die Down)
            result += ": the fire is out" + ("" if out_after else "; halted, Down")
        if kind == "automaton check":
            result = "ignores it" if d["passed"] else "stunned"
            return (
                f"    {n('unit')}, an automaton, ignores Crew stunned on {d['needs']}+: "
                f"rolled {d['roll']} -> {result}"
            )
        check = (
            f"{n('unit')} is on fire: its crew's morale check"
            if kind == "on fire check"
            else f"morale check for {n('unit')} after a flamethrower:"
        )
        return (
            f"    {check} needs {d['needs']} or less on 2D6{at_the_edge(d['needs'])}, "
            f"rolled {d['roll']} -> {result}"
        )
    if kind == "destroyed":
        return f"    ** {n('unit')} destroyed ({d['why']})"
    if kind == "rally":
        lost = counted(d["pins_lost"], "pin")
        if isinstance(d.get("roll"), int):  # (format 7 on: the dice as rolled)
            if d["pins_lost"] == 0 and d["roll"] > 0:  # (a roll that lost none: it had none)
                return f"    rallies: has no pins to lose (its {rally} rolled {d['roll']})"
            capped = " (all it has)" if d["roll"] > d["pins_lost"] else ""
            return f"    rallies: rolls {d['roll']} on {rally}: loses {lost}{capped}"
        return (  # (an older record keeps the pins lost, not the dice: no more than it had)
            f"    rallies: loses {lost} ({rally} pins off, at most all it has)"
        )
    if kind == "close quarters":
        return close_quarters(d, n("attacker"), n("defender"))
    if kind == "assault vehicle":
        return f"    assault on {n('target')}: {assault_dice(d, words)}{vehicle_damage(d)}"
    if kind == "fubar":
        if d.get("away_from") is not None:  # a panic: it Runs from the enemy, not as ordered
            return panic_line(d, n("unit"), n("away_from"), before)
        if d.get("target") is None:
            return f"    FUBAR! {d['result']}"
        chooser = d.get("chosen_by")
        how = (  # the opposing player chooses the target (sheets 000, 001, 002)
            f"the target {SIDES[chooser]} chose"
            if chooser in (0, 1)
            else 'the only friend it could shoot with an enemy within 12"'
        )
        return f"    FUBAR! {d['result']}: {n('unit')} fires at {n('target')}, {how}"
    if kind == "react":
        choice = str(d.get("choice"))
        if choice == "escape":  # (told once, where it ends: its "escape", or "no escape")
            return None
        return f"    {n('unit')} {_REACTION_TOLD.get(choice, f'reacts: {choice}')}"
    if kind == "ambush" and d.get("choice") == "fire":
        return f"    {n('unit')} springs an ambush"
    if kind == "retain":
        return f"  {n('unit')} keeps its order die" if d.get("choice") == "keep" else None
    if kind == "vehicle fires at assaulters":
        return f"    {n('unit')} fires at {n('target')} as they come on"
    if kind == "no escape":
        return f"    {n('unit')} has nowhere to escape to and stays where it is"
    if kind == "assault blocked":
        return f"    {n('unit')} cannot Run in to its target now and the assault is over"
    if kind == "gravity pulse":  # (Konflikt '47: damaged by one, it may not Run next)
        return (
            f"    {n('unit')} may not be given a Run order at its next activation (gravity pulse)"
        )
    if kind == "escape":  # (its move just before it: where it ran, or drove, to)
        if before is not None and before.kind == "move" and before.data["unit"] == d["unit"]:
            back = " in reverse" if before.data.get("reverse") else ""
            return f"    {n('unit')} escapes to {_at(before.data['to'])}{back}"
        return f"    {n('unit')} escapes"
    if kind in ("barrage", "air strike"):
        if d.get("again"):  # delayed last turn, it rolls again as this turn begins
            caller = f"{n('caller')}'s {kind}" if d.get("caller") is not None else f"the {kind}"
            if d.get("caller") is not None and d["caller"] in fallen:
                caller += ", called before its observer fell"  # (the call stands: docs/rules)
            return f"    {caller}, delayed last turn, rolls again: {d['roll']} -> {d['effect']}"
        return f"    {kind}: rolled {d['roll']} -> {d['effect']}"
    if kind == "air strike target":
        if d.get("target") is None:
            return f"    the air strike is called off: {n('was')} is gone, no other target in sight"
        return f"    the air strike comes back for {n('target')} ({n('was')} is gone)"
    if kind == "fire for effect":
        near = f'    fire for effect: every unit within {d["radius"]}" of'
        if (
            before is not None
            and before.kind == "barrage"
            and before.data["effect"] == "miscalculation"
        ):
            # the enemy of the side that called it moves the point up to 24" (sheet 002):
            # onto the caller's nearest unit within reach, else away from its own, or
            # leaves it (the events do not say which)
            enemy = SIDES[1 - before.data["side"]]
            told = f"{near} {_at(d['at'])}, where {enemy} put the target point"
            return told + barrage_dice(d, words)
        return f"{near} the target point {_at(d['at'])}{barrage_dice(d, words)}"
    if kind in ("barrage pins", "air strike pins"):
        took = f"    {n('unit')} takes {counted(d['pins'], 'pin') if d['pins'] else 'no pins'}"
        if kind == "air strike pins":
            return took + air_strike_dice(d, words, kind)
        return took + barrage_dice(d, words, kind)
    if kind == "barrage hit":
        return f"    {n('unit')} is hit by {a_or_an(d['weapon'])}{barrage_dice(d, words, kind)}"
    if kind == "aircraft":
        pins = d.get("pins", 0)
        added = f": +{pins} pin{'s' if pins != 1 else ''}" if pins else ""
        attacks = f"    {a_or_an(d['aircraft'])} attacks {n('target')}{added}"
        return attacks + air_strike_dice(d, words, kind)
    if kind == "support damage":
        if before is not None and before.kind == "aircraft" and d.get("pins") == 0:
            # (the aircraft's pins are told on its line: its hits bring none of their own)
            d = {k: v for k, v in d.items() if k != "pins"}
        if "casualties" in d:
            pins = f", {counted(d['pins'], 'pin')}" if "pins" in d else ""
            return (
                f"    {counted(d['hits'], 'hit')}, {counted(d['casualties'], 'casualty')}"
                f"{pins} on {n('target')}{shot_dice(d)}"
            )
        return f"    {n('target')}: {vehicle_hit(d, words)}{shot_dice(d)}"
    if kind == "dice":
        return f"  (the dice are rolled from seed {d['seed']} from here on)"
    if kind == "turn end":
        return f"-- end of turn {d['turn']}: score {d['score'][0]} - {d['score'][1]}"
    if kind == "another turn":  # (the roll at the end of the last turn, format 9 on)
        more = f"{a_or_an(ordinal(d['turn'] + 1))} turn is played"
        outcome = more if d["played"] else "the game ends"
        return (
            f"-- end of turn {d['turn']}: rolled {d['roll']} (needs {d['needs']}+ for "
            f"another turn) -> {outcome}"
        )
    if kind == "game over":  # (the result line that follows says who won, and how)
        if before is None or before.kind in ("turn end", "another turn"):
            return f"== Game over after turn {d['turn']}"
        return f"== Game over in turn {d['turn']}"  # (a side wiped out before its end)
    return None


def barrage_dice(d: dict[str, Any], words: HitWords | None, kind: str = "fire for effect") -> str:
    """A barrage's dice on a line of their own, as a shot's are (:func:`shot_dice`), by
    the chart of the rules of ``words`` (left out, the shipped Bolt Action 1st edition's):
    its fire for effect's radius ('dice: radius D6+6: 4+6 = 10"'), and each unit's die
    under it and what it gave ("dice: 3 (1-5: D3 pins), D3: 2"; "dice: 6 (6: a hit)").
    "" for a radius rolled on more than one die (its dice are not recorded apart), an
    event without its roll or a chart with no barrage."""
    chart = barrage_chart(words)
    rolled = d.get("radius" if kind == "fire for effect" else "roll")
    if chart is None or not isinstance(rolled, int):
        return ""
    if kind == "fire for effect":
        radius = DiceExpr(chart.radius)
        if radius.count != 1:
            return ""
        die = d["radius"] - radius.constant
        told = f"{die}{radius.constant:+d}" if radius.constant else str(die)
        return f'\n      dice: radius {radius.text}: {told} = {d["radius"]}"'
    if kind == "barrage pins":
        pins = DiceExpr(chart.pins)
        return (
            f"\n      dice: {d['roll']} ({faces(chart.pin_rolls)}: {pins.text} pins), "
            f"{pins.text}: {d['pins']}"
        )
    return f"\n      dice: {d['roll']} ({faces(chart.hit_rolls)}: a hit)"


def air_strike_dice(d: dict[str, Any], words: HitWords | None, kind: str) -> str:
    """An air strike's dice on a line of their own, as a barrage's are
    (:func:`barrage_dice`), by the chart of the rules of ``words`` (left out, the shipped
    Bolt Action 1st edition's): each unit's pins die ("dice: pins D3-1: 2-1 = 1", its
    face the pins less the chart's constant) and the aircraft's ("dice: 3 (2-3:
    Fighter-bomber)"). "" where the pins are not one die's, or a pins' 0 may be more than
    one face (never below 0), an event without its roll, or a chart with no air strike."""
    chart = support_charts(words).air_strike
    if chart is None:
        return ""
    if kind == "aircraft":
        plane = next((a for a in chart.aircraft if d.get("roll") in a.rolls), None)
        if plane is None:
            return ""
        return f"\n      dice: {d['roll']} ({faces(plane.rolls)}: {plane.aircraft})"
    pins, took = DiceExpr(chart.pins), d.get("pins")
    if pins.count != 1 or not isinstance(took, int) or (took == 0 and pins.constant < -1):
        return ""
    die = took - pins.constant
    told = f"{die}{pins.constant:+d}" if pins.constant else str(die)
    return f"\n      dice: pins {pins.text}: {told} = {took}"


def support_charts(words: HitWords | None) -> Edition:
    """The data of the rules of ``words`` (left out, the shipped Bolt Action 1st
    edition's), where its barrage and air strike charts are."""
    if words is not None:
        return words.rules.data
    from kriegsspiel.rulesets.bolt_action.edition import rules_for

    return rules_for("bolt-action-1").data


def barrage_chart(words: HitWords | None) -> ArtilleryBarrage | None:
    """The artillery barrage chart of the rules of ``words`` (left out, the shipped Bolt
    Action 1st edition's: the only edition with one)."""
    return support_charts(words).artillery_barrage


def faces(rolls: Sequence[int]) -> str:
    """A die's faces as a chart gives them: "1-5", "6", "2, 4"."""
    ordered = sorted(rolls)
    if len(ordered) > 1 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}-{ordered[-1]}"
    return ", ".join(map(str, ordered))


#: the checks a unit makes within an attack (their own events, format 2 on)
CHECKS = ("on fire check", "flamethrower check", "automaton check")
#: the events of an attack that may damage a vehicle
VEHICLE_ATTACKS = ("shoot", "support damage", "assault vehicle")


def burnt_out(events: Sequence[Event], at: int) -> bool:
    """Whether the attack ``events[at]`` knocked a vehicle out by setting it on fire: its
    crew's On fire check, among the checks logged just after it, failed (sheet 002: "If
    the test is failed, vehicle is Knocked Out"; the check is rolled as the fire starts,
    and any hits after it are not rolled: the vehicle is out)."""
    attack = events[at]
    if attack.kind not in VEHICLE_ATTACKS or not attack.data.get("knocked_out"):
        return False
    for later in events[at + 1 :]:
        if later.kind not in CHECKS:
            return False
        if later.kind == "on fire check" and not later.data["passed"]:
            return later.data.get("unit") == attack.data.get("target")
    return False


def out_after_fire(events: Sequence[Event], at: int) -> bool:
    """Whether the attack whose On fire check ``events[at]`` is (the attack logged just
    before its checks) knocked the vehicle out all the same: a passed check puts the fire
    out and halts the vehicle, its die Down (sheets 001, 002; the game's
    ``vehicle_damage``), unless a later hit or check of that attack knocked it out."""
    for earlier in reversed(events[:at]):
        if earlier.kind not in CHECKS:
            return earlier.kind in VEHICLE_ATTACKS and bool(earlier.data.get("knocked_out"))
    return False


def hits_not_rolled(data: dict[str, Any]) -> int:
    """How many of an attack's hits on a vehicle were not rolled because an earlier one
    knocked it out (:func:`unrolled`; 0 for a record without its hits by weapon)."""
    fired = data.get("weapons")
    if not isinstance(fired, list) or not all(isinstance(w.get("hits"), int) for w in fired):
        return 0
    scored = [w for w in by_weapon(fired) if w["hits"]]
    rolls = data.get("damage_rolls")
    return unrolled(scored, rolls if isinstance(rolls, list) else None, knocked_out=True)[1]


#: the ways a Konflikt '47 assault is fought (the attacker's choice, told on its order)
FIGHTING_MODES = ("hand-to-hand", "point-blank")


def close_quarters(d: dict[str, Any], attacker: str, defender: str) -> str:
    """A fight's lines: who won and what each side has left, and, where the record has
    them (format 2 on), each round's casualties and the morale check a Konflikt '47 round
    brings to the side that took more."""
    a_left, d_left = d["attackers_left"], d["defenders_left"]
    both = a_left == d_left == 0
    winner = (
        "both sides wiped out"
        if both
        else "attackers win"
        if d["attacker_wins"]
        else "defenders win"
    )
    rounds = d.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        return f"    close quarters {attacker} v {defender}: {winner} ({a_left} v {d_left} left)"
    lines = [f"    close quarters {attacker} v {defender}:"]
    for i, r in enumerate(rounds, 1):
        line = (
            f"      round {i}: attackers {r['attackers']} lose {r['attackers_lost']}, "
            f"defenders {r['defenders']} lose {r['defenders_lost']}"
        )
        check = r.get("check")
        if isinstance(check, dict):
            held = "passed, the fight goes on" if check["passed"] else "failed"
            line += (
                f"; {check['side']}' morale check: needs {check['needs']} or less on 2D6"
                f"{at_the_edge(check['needs'])}, rolled {check['roll']} -> {held}"
            )
        lines.append(line + fight_dice(r))
    last = rounds[-1]
    standing = (
        last["attackers"] - last["attackers_lost"],
        last["defenders"] - last["defenders_lost"],
    )
    if both:
        lines.append(f"      {winner}")
        return "\n".join(lines)
    lost = "defenders" if d["attacker_wins"] else "attackers"
    left = a_left if d["attacker_wins"] else d_left
    loser_standing = standing[1] if d["attacker_wins"] else standing[0]
    if not loser_standing:
        why = f"no {lost} left"
    elif isinstance(last.get("check"), dict):
        why = f"the {lost}' {loser_standing} left failed their check: destroyed"
    else:  # (Bolt Action: the side with more casualties is destroyed)
        why = f"the {lost}' {loser_standing} left, with more casualties, are destroyed"
    lines.append(f"      {winner}, {left} left ({why})")
    return "\n".join(lines)


def account(
    events: list[Event],
    units: list[Any],
    *,
    rally: str = "D6",
    words: HitWords | None = None,
) -> list[str]:
    """The whole game as lines, with a heading at the start of each turn (``rally``: the
    dice of pins a Rally loses, the rules' own; ``words``: what makes a to-hit score in
    the rules' words, :func:`~kriegsspiel.rulesets.bolt_action.to_hit.hit_words`)."""
    return account_from(events, units, rally=rally, words=words)[0]


#: the events that may open a turn: its first draw or order, or a barrage or an air
#: strike delayed last turn that comes back as it begins (its target renamed first)
TURN_OPENERS = ("order", "draw", "barrage", "air strike", "air strike target")


def account_from(
    events: Sequence[Event],
    units: list[Any],
    turn: int = 0,
    *,
    rally: str = "D6",
    words: HitWords | None = None,
    told: int = 0,
) -> tuple[list[str], int]:
    """The lines of ``events``, told after those of a turn ``turn`` (0: none yet), and
    the turn they end in: a game told as it is played, a few events at a time (``rally``
    and ``words`` as :func:`account`'s). The first ``told`` events were told before: read
    again for what they say of those after them (the assault whose target escaped, which
    its assaulters then chase), not told."""
    lines: list[str] = []
    cut = 0  # the lines of the events told before
    before: Event | None = None
    speaker: Any = None  # the unit whose doing the lines tell now (a shot's is named)
    ordered: tuple[int, Any] | None = None  # the line of the last order told, and its unit
    assaulting: Any = None  # the unit whose order is an assault, while it is carried out
    chasing: Any = None  # assaulters whose target escaped: their next move is the chase
    burning: Event | None = None  # an attack that set a vehicle on fire, its check to come
    # the units destroyed before the event told: those whose destruction is told before
    # it, and those destroyed now whose destruction ``events`` does not tell (before them)
    told_destroyed = {e.data.get("unit") for e in events if e.kind == "destroyed"}
    fallen: set[Any] = {
        i for i, u in enumerate(units) if i not in told_destroyed and getattr(u, "destroyed", False)
    }
    for i, event in enumerate(events):
        if i == told:
            cut = len(lines)
        t = event.data.get("turn", turn)
        if event.kind in TURN_OPENERS and t != turn:
            turn = t
            lines.append(f"Turn {turn}")
        burnt = burnt_out(events, i)
        out_after = event.kind == "on fire check" and out_after_fire(events, i)
        line = describe(
            event, units, before, rally=rally, words=words, fallen=fallen, burnt=burnt,
            out_after=out_after,
        )  # fmt: skip
        if event.kind == "fire for effect" and line is not None and not caught(events, i):
            head, *dice = line.split("\n", 1)  # (a barrage that fell on no one says so)
            line = "\n".join([f"{head}: no unit within it", *dice])
        if burnt:
            burning = event
        elif event.kind == "on fire check" and not event.data["passed"] and burning is not None:
            if line is not None:  # (told here, after the check that put it out)
                line += not_rolled(hits_not_rolled(burning.data), shots_not_rolled(burning.data))
            burning = None
        if event.kind == "destroyed":
            fallen.add(event.data.get("unit"))
        if event.kind in ("order", "draw"):
            run_at = event.data.get("order") == "Run" and event.data.get("target") is not None
            assaulting, chasing = (event.data.get("unit") if run_at else None), None
        if event.kind == "escape" and assaulting != event.data.get("unit"):
            chasing = assaulting
        if event.kind == "order" and line is not None:
            # (where its line goes: a reverse its move makes is told there)
            ordered = (len(lines), event.data.get("unit"))
        elif (
            event.kind == "order test"
            and ordered is not None
            and ordered[1] == event.data.get("unit")
            and ordered[0] < len(lines)
        ):  # (ordered, then tested: the test's line says whether it was done)
            lines[ordered[0]] = as_ordered(lines[ordered[0]], _name(units, ordered[1]))
            if isinstance(event.data.get("fubar_roll"), int):
                ordered = None  # (not carried out: a panic's move is its own line's)
        elif event.kind == "move" and chasing is not None and chasing == event.data.get("unit"):
            line = now_facing(chase_line(units, event.data), event.data)
            chasing = None
        elif event.kind == "move" and ordered is not None and ordered[1] == event.data.get("unit"):
            line_of = lines[ordered[0]]
            if event.data.get("reverse"):
                line_of = in_reverse(line_of, event.data)
            lines[ordered[0]] = now_facing(line_of, event.data)
        firer = event.data.get("unit")
        if event.kind == "shoot" and line is not None and firer != speaker:
            # a shot after an interruption (an ambush sprung, a reaction) or another's
            line = f"    {_name(units, firer)} fires: {line.strip()}"
        if event.kind in SPEAKERS or event.kind == "shoot":
            speaker = firer
        if line is not None:
            lines.extend(line.split("\n"))  # (a fight tells its rounds a line each)
        before = event
    return lines[cut:] if told < len(events) else [], turn


def caught(events: Sequence[Event], at: int) -> bool:
    """Whether the fire for effect ``events[at]`` caught any unit: each it caught is told
    just after it (its pins or its hit)."""
    after = events[at + 1] if at + 1 < len(events) else None
    return after is not None and after.kind in ("barrage pins", "barrage hit")


def panic_line(d: dict[str, Any], unit: str, away_from: str, before: Event | None) -> str:
    """A FUBAR panic's line: whom the unit ran from and, from its move (the event logged
    just before, its own), where it ended (a vehicle "in reverse" where it reversed) and
    the way a vehicle faces there, and why the
    flight was shorter than its Run where it was (the record's ``flight``, format 9 on:
    "an Advance: a vehicle that may not Run there", "cut short where it was blocked")."""
    ran = f"    FUBAR! {d['result']}: {unit} runs away from {away_from}"
    if before is not None and before.kind == "move" and before.data["unit"] == d["unit"]:
        ran += f", to {_at(before.data['to'])}{' in reverse' if before.data.get('reverse') else ''}"
        if isinstance(before.data.get("heading"), (int, float)):
            ran += f" instead, now {facing_text(before.data['heading'])}"
            return ran + (f" ({d['flight']})" if d.get("flight") else "")
    return ran + " instead" + (f" ({d['flight']})" if d.get("flight") else "")


def as_ordered(line: str, name: str) -> str:
    """An order's line as what was ordered, for an order that then takes its test ("1st
    Section [A]: ordered to Advance to (55.9", 33.2")"), passed or lost alike: the test's
    line says whether it was carried out."""
    return line.replace(f"{name}: ", f"{name}: ordered to ", 1)


def chase_line(units: list[Any], move: dict[str, Any]) -> str:
    """The assaulters' move after the unit they assaulted escaped: they run after it, and
    no fight follows (:func:`~kriegsspiel.rulesets.bolt_action.game.close_quarters.chase`)."""
    return (
        f"    {_name(units, move.get('unit'))} runs after it to {_at(move['to'])}; "
        "the assault ends without a fight"
    )


def now_facing(line: str, move: dict[str, Any]) -> str:
    """An order's line with the way a vehicle faces after its move ("(now facing 319°)"),
    where the move turned it (the record's move gives its new heading) and the order did
    not already name that facing; the line itself otherwise."""
    heading = move.get("heading")
    if not isinstance(heading, (int, float)):
        return line
    facing = facing_text(heading)
    return line if f"then {facing}" in line else f"{line} (now {facing})"


def in_reverse(line: str, move: dict[str, Any]) -> str:
    """An order's line with "in reverse" after its place, where the move it made reversed
    (a vehicle ordered to a place behind it drives there backwards unbidden): the record's
    move says so; the order, only where it was asked for."""
    if "in reverse" in line:
        return line
    place = f"to {_at(move['to'])}"
    return line.replace(place, f"{place} in reverse", 1) if place in line else line


#: the events whose unit the lines after them are about, until another speaks: its shots
#: are told without its name (the line before names it), another's with it
SPEAKERS = ("order", "ambush", "react", "fubar", "vehicle fires at assaulters")


# what a side's score counts, by the scenario's victory
SCORED = {"units destroyed": "enemy units destroyed", "objectives": "objective points held"}


def score_label(game: Any) -> str:
    """What a game's running score counts, as a player reads it mid-game: "objective
    points held now" (they may change hands before the end), "enemy units destroyed"."""
    scored = SCORED.get(str(game.scenario.victory), str(game.scenario.victory))
    return f"{scored} now" if game.scenario.victory == "objectives" else scored


def army_names(game: Any) -> tuple[str, str] | None:
    """The names of the two armies, as the game's first event ("start") logged them (None
    if it has no such event)."""
    events = game.events
    if not events or events[0].kind != "start":
        return None
    names = events[0].data.get("armies")
    if not isinstance(names, list) or len(names) != 2:
        return None
    return str(names[0]), str(names[1])


def how_won(scenario: Any) -> str:
    """The scenario's length and victory in a line: what the score counts and who wins."""
    scored = SCORED.get(str(scenario.victory), str(scenario.victory))
    return f"{scenario.length_text()}; the side with more {scored} wins (a side wiped out loses)."


def opening(game: Any, players: Sequence[str], rules_label: str | None = None) -> list[str]:
    """The lines that open a game's account: the scenario, the edition (and a designer's
    rules file, named ``rules_label``) and the seed; each side's army and who plays it;
    the game's length and how it is won."""
    house = "" if rules_label is None else f" (rules file {rules_label})"
    names = army_names(game) or ("army A", "army B")
    shuffled = getattr(game, "deployment", None) == "shuffled"
    order = ", deployment shuffled" if shuffled else ""
    return [
        f"{game.scenario.name} — {game.rules.data.title}{house}, seed {game.seed}{order}",
        f"Side A: {names[0]} ({players[0]})   Side B: {names[1]} ({players[1]})",
        how_won(game.scenario),
    ]


def set_up_lines(game: Any) -> list[str]:
    """Who set up where by hand (``kriegsspiel play``'s set-up): for each side a person
    set up, each unit placed, in the order it was, with its place (its centre, as the
    tables show it) and facing, and whether it took the place offered; [] for a
    game set up by the automatic set-up alone."""
    placements = getattr(game, "placements", None)
    if not placements:
        return []
    lines = []
    for side, placed in sorted(placements.items()):
        left = sum(u.side == side for u in game.units) - len(placed)
        if not placed:
            lines.append(f"{SIDES[side]}: not set up yet")
            continue
        if not left and all(p.at is None for p in placed):
            lines.append(f"{SIDES[side]} set up by hand: every unit at the place offered")
            continue
        lines.append(f"{SIDES[side]} set up by hand:")
        for p in placed:
            at, facing = game.set_up_places[p.unit]
            offered = " (the place offered)" if p.at is None else ""
            name = _name(game.units, p.unit)
            lines.append(f"  {name} at {_at((at.x, at.y))}, facing {facing:.0f}°{offered}")
        if left:
            lines.append(f"  ({counted(left, 'unit')} not set up yet: at the places offered)")
    return lines


def units_lost(game: Any) -> list[str]:
    """Each side's units destroyed, a line a side, for a game scored by units destroyed
    ("  side A lost 2: Platoon HQ, PIAT Team"; "  side B lost none"), so the lines add up
    to its score; [] for a game scored otherwise (:func:`objectives_held` tells those)."""
    if game.scenario.victory != "units destroyed":
        return []
    lines = []
    for s in (0, 1):
        lost = [u.name for u in game.units if u.side == s and u.destroyed]
        names = f"{len(lost)}: {', '.join(lost)}" if lost else "none"
        lines.append(f"  side {SIDES[s][-1]} lost {names}")
    return lines


def objectives_held(game: Any) -> list[str]:
    """Each objective of an objectives game as it stands: who holds it now (the one side
    with a unit on foot near it, named with its units), contested (both sides), or nobody;
    [] for a game scored otherwise. The game's own test of holding
    (:func:`~kriegsspiel.rulesets.bolt_action.game.state.holds_near`), so the lines add
    up to its score."""
    from kriegsspiel.rulesets.bolt_action.game.state import OBJECTIVE_REACH, holder, holds_near

    if game.scenario.victory != "objectives":
        return []
    lines = []
    for obj in game.scenario.objectives:
        near = [u for u in game.units if holds_near(u, (obj.x, obj.y))]
        side = holder({u.side for u in near})
        names = {
            SIDES[s][-1]: ", ".join(u.name for u in near if u.side == s)
            for s in (0, 1)
            if any(u.side == s for u in near)
        }
        if side is not None:
            held = f"held by side {SIDES[side][-1]} ({names[SIDES[side][-1]]})"
        elif near:
            both = "; ".join(f"side {letter}: {them}" for letter, them in names.items())
            held = f"contested, so nobody's ({both})"
        else:
            held = f"nobody's (no unit on foot within {OBJECTIVE_REACH:g}\")"
        worth = counted(obj.points, "point")
        lines.append(f"  {obj.name} ({worth}, at {inches(obj.x)}, {inches(obj.y)}): {held}")
    return lines


def result_line(game: Any) -> str:
    """The finished game's result in a line: who won (the side and its army) and how, the
    score and what it counts, the units left a side."""
    a, b = game.score()
    won = game.winner()
    left = [sum(1 for u in game.units if u.side == s and not u.destroyed) for s in (0, 1)]
    if won is None:
        result = "a draw"
    else:
        names = army_names(game)
        result = f"{SIDES[won]}{f' ({names[won]})' if names else ''} wins"
        if left[1 - won] == 0:  # (a side wiped out loses, whatever the score)
            result += f" by wiping out side {SIDES[1 - won][-1]}"
    scored = SCORED.get(str(game.scenario.victory), str(game.scenario.victory))
    return f"Result: {result}; score {a} - {b} ({scored}); units left {left[0]} v {left[1]}"


# a unit's answer to a shot or an assault, as the account tells it: only some spend its
# die as a reaction; a Konflikt '47 defender's way to fight (sheet 001's step 5) is not one
_REACTION_TOLD = {
    "none": "does not react",
    "down": "goes Down (its die: Down)",
    "escape": "escapes",
    "stay": "stays where it is",
    "stand and fire": "stands and fires at the assaulters",
    "hand-to-hand": "meets the assault hand-to-hand",
    "point-blank": "meets the assault with point-blank fire",
}
