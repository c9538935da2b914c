"""'odds' at the solo game's prompts: a unit's shots now, at each enemy, with the odds its
Fire list gives each target (:func:`~kriegsspiel.solo.briefing.shot_line`, the one
reckoning every choice shows), and where the other odds are shown.

Nothing here decides: the game's targets (:func:`.candidates.targets`, as its Fire
orders are found) and shooting do, and :mod:`kriegsspiel.solo.reasons` says why a unit
has no shot.
"""

from __future__ import annotations

from kriegsspiel.rulesets.bolt_action.game.candidates import targets
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.support import SUPPORT, can_call
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.solo.briefing import SIDE_NAMES, call_line, order_test_text, shot_line
from kriegsspiel.solo.reasons import (
    fire_closed,
    no_shot_reason,
    out_of_sight,
    support_spent,
    unseen_line,
)

# the decisions whose choices each show their own odds, as 'odds' points to them there
CHOICES_WITH_ODDS = {
    "shot-reaction": "each reaction above shows the fire it would then take",
    "assault-reaction": "each way to meet the assault above shows its chance",
    "ambush": "each ambusher above shows its shot's odds",
}


def odds_where(game: BoltActionGame) -> str:
    """What 'odds' says with no unit to answer for: where the odds are shown."""
    pending = game.pending
    here = "" if pending is None else CHOICES_WITH_ODDS.get(pending.kind, "")
    return (
        (f"Odds: {here}. " if here else "Odds: ")
        + "'odds' gives the shots of the unit being ordered, once it is picked, at each "
        "enemy; 'odds NAME' (or 'odds N', N its number in the table above) any unit's, "
        "of either side. Each target of a Fire, of an Advance from the place picked, and "
        "each assault shows its own odds, and the table of units a pinned unit's order test."
    )


# how 'odds' says where the unit fires from, in a game begun
FIRING_NOW = (
    "firing now, from where it stands (a Fire order; an Advance's shots are shown at the "
    "place picked)"
)


def odds_lines(game: BoltActionGame, unit: UnitState, firing: str = FIRING_NOW) -> list[str]:
    """``unit``'s shots if it fired now from where it stands (a Fire order): its order test
    if it is pinned, then each enemy in its sight and range with the Fire list's line (those
    it has a shot at first, then those it has none at, with why), and the enemies in its
    reach that it does not see (:func:`.reasons.out_of_sight`). ``firing``: the words after
    its name that say when and from where (the set-up's: from a place it may set up at)."""
    order = "" if unit.order is None else f"; its order this turn: {unit.order}"
    lines = [f"{unit.name} ({SIDE_NAMES[unit.side]}) {firing}{order}:"]
    test = order_test_text(game, unit)
    if test:
        lines.append(f"  its order test: {test}")
    enemies = [e for e in game.units if e.side != unit.side and not e.destroyed]
    able = targets(game, unit, moving=False, enemies=enemies)
    said = [(e, shot_line(game, unit, e, moving=False)) for e in able]
    for enemy, line in [s for s in said if s[1] != "no shot"]:
        lines.append(f"  {enemy.name}: {line}")
    for enemy, _ in [s for s in said if s[1] == "no shot"]:
        lines.append(f"  {enemy.name}: no shot ({no_shot_reason(game, unit, enemy, moving=False)})")
    unseen = unseen_line(out_of_sight(game, unit, able))
    if unseen is not None:
        lines.append(f"  ({unseen})")
    elif not able:
        lines.append(f"  {fire_closed(game, unit, [])}")
    return lines + call_lines(game, unit, enemies, only=not able)


def call_lines(
    game: BoltActionGame, unit: UnitState, enemies: list[UnitState], *, only: bool
) -> list[str]:
    """An observer's call, as 'odds' tells it: the barrage or air strike it may call
    (``only``: its one shot, no enemy being in its weapons' sight and range), how the menu
    gives it, and each enemy it sees as that order's target list shows it
    (:func:`.briefing.call_line`, whom it would reach); or that its one call a game is
    spent. None for a unit that is no observer."""
    spent = support_spent(game, unit)
    if spent is not None:
        return [f"  ({spent[0]} is not open to it now: {spent[1]})"]
    lines = []
    for kind in (k for k in SUPPORT if can_call(game, unit, k)):
        seen = [e for e in enemies if game.visible(unit, e)]
        if not seen:
            lines.append(f"  its {kind} (one a game) may be called on an enemy it sees: none now")
            continue
        said = f"its shot is the {kind} it may call" if only else f"it may call its {kind} instead"
        lines.append(
            f"  {said} (one a game): the order Call {kind} in the menu, then its target, any "
            "enemy it sees, however far:"
        )
        lines += [f"    {call_line(game, unit, e, kind)}" for e in seen]
    return lines
