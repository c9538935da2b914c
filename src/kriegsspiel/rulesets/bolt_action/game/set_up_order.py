"""The order each side's units set up in: the list's (the rules' own, as docs/rules'
"Deployment" row has it), or one drawn for each game from its seed, so that a unit's place
in its list does not decide where it stands and whom it faces (``--deployment shuffled``).

Kept apart from :mod:`deployment` (which needs shapely) so that the command line and the
results store can name the choices without loading the engine.
"""

from __future__ import annotations

from kriegsspiel.errors import ParameterError, named

LIST_ORDER, SHUFFLED = "list-order", "shuffled"
DEPLOYMENTS = (LIST_ORDER, SHUFFLED)


def check_deployment(deployment: object) -> str:
    """``deployment`` if it is one of DEPLOYMENTS; else a refusal saying which are (naming
    the parameter ``deployment``, which the command line tells as ``--deployment``)."""
    if not isinstance(deployment, str) or deployment not in DEPLOYMENTS:
        raise ParameterError(
            f"{named('deployment')} takes {' or '.join(DEPLOYMENTS)} (the order each side's units set "
            f"up in), not {deployment!r}."
        )
    return deployment


def figures_note(deployment: str) -> str:
    """What a unit's figures in a report (its survival, its damage) owe to where it set
    up: with the list's order, its place in the list (each side's units stand in list
    order, evenly spaced along the zone, so a place meets the same enemies game after
    game); with a shuffled one, every place, game by game."""
    if deployment == SHUFFLED:
        return (
            "each game set each side's units up in an order drawn from its seed "
            "(--deployment shuffled), so a unit's figures are over the places it drew, not "
            "its place in the list."
        )
    return (
        "a unit's figures depend on where it deploys, which its place in the list sets "
        "(each side's units set up in list order, evenly spaced along the zone, so a place "
        "meets the same enemies in every game); --deployment shuffled draws each game's "
        "order from its seed."
    )


def variant_units_note(deployment: str) -> str:
    """What the figures of a sweep's units each variant changes are: with the list's
    order, the slot's (the unit's place in its list) as much as the unit's, and how to get
    the unit's own; with a shuffled one, the unit's own, over every place."""
    if deployment == SHUFFLED:
        return (
            "each game set each side's units up in an order drawn from its seed (deployment: "
            "shuffled), so these figures are each unit's own, over the places it drew."
        )
    return (
        "these figures are the slot's as much as the unit's: the sweep set each side's units "
        "up in list order (its deployment: list-order), so a unit taken out or brought in "
        "stood at its place in the list (shown beside it) and met "
        "the same enemies in every game. For the unit's own worth, over every place, run the "
        "sweep with --deployment shuffled, or put 'deployment: shuffled' in the sweep file."
    )
