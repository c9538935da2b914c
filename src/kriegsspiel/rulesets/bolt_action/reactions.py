"""The reactions ("target reacts"): which a unit may make when it is shot at or assaulted,
out of turn, with its own order die, as each edition declares them (``down_reaction``,
``assault_reactions``, ``recce_escape`` in :mod:`.edition`: Konflikt '47 all three, sheet
001's "may make a reaction"; Bolt Action 1st edition the Down reaction and the recce
escape, shot at or assaulted, after which the vehicle is Down: ``recce_escape_goes_down``).

One implementation for the simulated game (:mod:`.game.state`, :mod:`.game.close_quarters`)
and the table-side play aid (:mod:`kriegsspiel.aid`), each asking with the few facts read
here; the rules "Konflikt '47's reactions in the game" of docs/rules/konflikt47.md and the
reactions' rules of docs/rules/bolt-action-1.md say why.
"""

from __future__ import annotations

from kriegsspiel.rulesets.bolt_action.assault import fighting_modes
from kriegsspiel.rulesets.bolt_action.edition import Rules

# the order a reaction's die shows: going Down when shot at, an escape's Run, and the Fire
# of a unit that stands and fires at its assaulters (a recce vehicle's escape: die_shown)
DIE_SHOWN = {"down": "Down", "escape": "Run", "stand and fire": "Fire"}


# What each reaction that spends a die does, as a player is offered it: what it is, then
# what follows. The solo game's prompts ("what: then") and the play aid's buttons ("Run
# (escape the assault)", the rest beside it) say it so: one wording for both.
REACTION_WORDS = {
    "down": ("go Down when shot at", "harder to hit, and that is its order this turn"),
    "escape": ("escape the assault", "a Run straight away, and no fight"),
    "stand and fire": (
        "stand and fire at the assaulters",
        "their fire as the assaulters come in, before the fight",
    ),
}


def reaction_words(rules: Rules, reaction: str, *, vehicle: bool) -> tuple[str, str]:
    """What ``reaction`` does and what follows (:data:`REACTION_WORDS`); a recce
    vehicle's escape, from a shot or an assault, with the die it then shows
    (:func:`die_shown`: Down in Bolt Action 1st edition, where it counts as halted)."""
    if reaction == "escape" and vehicle:
        shown = die_shown(rules, "escape", vehicle=True)
        halted = ", halted" if shown == "Down" else ""
        return (
            "escape the shot or assault",
            f"it drives straight away, and its die then shows {shown}{halted}",
        )
    return REACTION_WORDS[reaction]


def die_shown(rules: Rules, reaction: str, *, vehicle: bool) -> str:
    """The order ``reaction``'s die shows once it is made (:data:`DIE_SHOWN`), save that a
    recce vehicle's escape ends Down in an edition that says so (Bolt Action 1st edition:
    "mark the vehicle as Down, just as if the recce vehicle had failed an order test");
    in Konflikt '47 it shows the Run of its escape move, as troops' escape does."""
    if reaction == "escape" and vehicle and rules.recce_escape_goes_down:
        return "Down"
    return DIE_SHOWN[reaction]


def vehicle_move_shown(face: str | None, *, immobilised: bool = False) -> str | None:
    """How a vehicle counts as having moved this turn, for infantry assaulting it
    (:func:`.assault.vehicle_hit_score`), as its die shows: Run "run" (it cannot be hit,
    so not assaulted), Advance "advance" (6s), any other None: stationary, or halted by a
    Down die (4+). An ``immobilised`` vehicle has not moved, whatever its die (the damage
    chart: it "cannot move for the rest of the game"; an Advance lets it fire where it
    stands). The game sets a recce vehicle's after its escape by this, and the play aid
    reads every vehicle's die by it: one answer for both."""
    if immobilised:
        return None
    return {"Run": "run", "Advance": "advance"}.get(face or "")


def goes_down_when_shot_at(rules: Rules, *, vehicle: bool, unordered: bool) -> bool:
    """Whether a unit shot at may react by going Down: one that is not a vehicle, with no
    order this turn and no die kept from the last, in an edition with the Down reaction."""
    return rules.down_reaction and unordered and not vehicle


def recce_may_escape(rules: Rules, *, recce: bool, immobilised: bool, unordered: bool) -> bool:
    """Whether a vehicle may escape an attack declared on it, shot at or assaulted: a recce
    vehicle with no order this turn and no die kept, able to move, in an edition with the
    recce escape (Bolt Action's recce rule: "If fired at or assaulted can attempt to
    Escape"; sheet 001: "Recce vehicles can react by making an escape move")."""
    return rules.recce_escape and recce and unordered and not immobilised


def shot_reactions(
    rules: Rules, *, vehicle: bool, recce: bool, immobilised: bool, unordered: bool
) -> list[str]:
    """What a unit shot at may do, "none" (take the fire) first; empty where it is not
    asked: troops and guns may go Down (:func:`goes_down_when_shot_at`), a recce vehicle
    escape (:func:`recce_may_escape`: the move first, then the shot from where it ends);
    any other vehicle takes the fire."""
    if vehicle:
        escapes = recce_may_escape(rules, recce=recce, immobilised=immobilised, unordered=unordered)
        return ["none", "escape"] if escapes else []
    if goes_down_when_shot_at(rules, vehicle=False, unordered=unordered):
        return ["none", "down"]
    return []


def asked_when_assaulted(
    rules: Rules, *, vehicle: bool, recce: bool, immobilised: bool, unordered: bool
) -> bool:
    """Whether an assaulted unit is asked for its reaction: troops where they have a choice
    (:func:`assault_choices`: Konflikt '47's, which pick how they fight); a recce vehicle,
    in an edition with the recce escape, only with no order this turn, no die kept and
    able to move, to escape (sheet 001: "Recce vehicles can react by making an escape
    move"). Any other vehicle is not asked: it fires at assaulters without spending its die."""
    if vehicle:
        return recce_may_escape(rules, recce=recce, immobilised=immobilised, unordered=unordered)
    return len(assault_choices(rules, vehicle=False, unordered=unordered)) > 1


def assault_choices(rules: Rules, *, vehicle: bool, unordered: bool) -> list[str]:
    """What an assaulted unit that is asked may do: a recce vehicle stays or drives off;
    troops fight in one of the edition's fighting modes (hand-to-hand, and in Konflikt '47
    point-blank fire), or, in an edition with assault reactions (Konflikt '47, sheet 001),
    with no order this turn and no die kept from the last, escape or stand and fire."""
    if vehicle:
        return ["stay", "escape"]
    choices: list[str] = [*fighting_modes(rules)]
    if rules.assault_reactions and unordered:
        choices += ["escape", "stand and fire"]
    return choices


def dice_faces(
    rules: Rules, *, vehicle: bool, recce: bool, immobilised: bool, unordered: bool
) -> tuple[str, ...]:
    """The orders a unit's die may be taken for by a reaction, in the order Down, Run,
    Fire: a shot's reactions (going Down, a recce vehicle's escape) and an assault's that
    spend the die (an escape, standing to fire); none for a unit that reacts to nothing."""
    facts = {"vehicle": vehicle, "recce": recce, "immobilised": immobilised}
    return tuple(dice_reactions(rules, **facts, unordered=unordered))


def dice_reactions(
    rules: Rules, *, vehicle: bool, recce: bool, immobilised: bool, unordered: bool
) -> dict[str, str]:
    """:func:`dice_faces`, each with the reaction its die is taken for (Down: "down",
    or a Bolt Action recce vehicle's "escape"; Run: "escape"; Fire: "stand and fire")."""
    facts = {"vehicle": vehicle, "recce": recce, "immobilised": immobilised}
    reacts = [r for r in shot_reactions(rules, **facts, unordered=unordered) if r != "none"]
    if asked_when_assaulted(
        rules, vehicle=vehicle, recce=recce, immobilised=immobilised, unordered=unordered
    ):
        reacts += [
            c
            for c in assault_choices(rules, vehicle=vehicle, unordered=unordered)
            if c in DIE_SHOWN
        ]
    faces: dict[str, str] = {}
    for r in reacts:  # (a recce vehicle's escape, shot at or assaulted: once)
        faces.setdefault(die_shown(rules, r, vehicle=vehicle), r)
    return faces


def edition_faces(rules: Rules) -> tuple[str, ...]:
    """The orders any reaction of the edition may take a die for, in the order Down, Run,
    Fire: Down with the Down reaction (or a recce's escape that ends Down), Run with an
    escape (a recce's that shows Run, or troops'), Fire with standing to fire."""
    recce_down = rules.recce_escape and rules.recce_escape_goes_down
    faces = {
        "Down": rules.down_reaction or recce_down,
        "Run": (rules.recce_escape and not recce_down) or rules.assault_reactions,
        "Fire": rules.assault_reactions,
    }
    return tuple(face for face, played in faces.items() if played)
