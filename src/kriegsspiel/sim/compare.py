"""A variant against its list: how changing its units changes the list's wins and losses.

The variant's cell and its list's cell of a sweep are both played from the list's side with
the same seeds, so game *i* of one and game *i* of the other start from the same dice and
the same sides: they are compared pair by pair (:func:`~kriegsspiel.sim.stats.paired_difference`), which is both
honest and narrower than setting two independent intervals side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kriegsspiel.sim.stats import Difference, paired_difference
from kriegsspiel.sim.tally import WINNERS

if TYPE_CHECKING:
    from kriegsspiel.sim.sweep import Compared, Sweep

WIN, LOSS = WINNERS.index("A"), WINNERS.index("B")  # of the row's list (army A)


def paired_change(base: bytes, variant: bytes, outcome: int) -> Difference:
    """How the rate of ``outcome`` (a code of WINNERS) changes from ``base``'s games to
    ``variant``'s, over the games both have (the first of each, pair by pair)."""
    both = base_only = variant_only = neither = 0
    for b, v in zip(base, variant, strict=False):
        if b == outcome:
            if v == outcome:
                both += 1
            else:
                base_only += 1
        elif v == outcome:
            variant_only += 1
        else:
            neither += 1
    return paired_difference(both, base_only, variant_only, neither)


@dataclass(frozen=True, slots=True)
class Change:
    """What a variant changes against one opponent: its list's wins and its losses."""

    wins: Difference
    losses: Difference

    def to_json(self) -> dict[str, Any]:
        return {"wins": self.wins.to_json(), "losses": self.losses.to_json()}


def compare(base: bytes, variant: bytes) -> Change:
    """The change in the row's win and loss rates from ``base``'s games to ``variant``'s."""
    return Change(paired_change(base, variant, WIN), paired_change(base, variant, LOSS))


def paired_games(
    winners: Sequence[dict[tuple[int, int], bytes]], base: tuple[int, int], row: tuple[int, int]
) -> tuple[bytes, bytes] | None:
    """The games of cells ``base`` and ``row`` that pair up, scenario by scenario (one dict
    of each cell's winners a scenario): on each, game *i* of one with game *i* of the
    other, over the games both have there (an early stop can leave one cell shorter); then
    the next scenario's. None if either cell has no games kept on some scenario."""
    first, second = bytearray(), bytearray()
    for on in winners:
        if base not in on or row not in on:
            return None
        both = min(len(on[base]), len(on[row]))
        first += on[base][:both]
        second += on[row][:both]
    return bytes(first), bytes(second)


def variant_changes(
    sweep: Sweep,
    rows: list[str],
    columns: list[str],
    winners: Sequence[dict[tuple[int, int], bytes]],
    units: dict[tuple[int, int], list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """Each variant of a sweep against its list, column by column (None where either cell
    is missing: the list against itself), from each cell's ``winners`` by (row, column),
    a dict a scenario (see :func:`paired_games`); with how the units it took out fared in
    its list's games and those it brought in fared in its own, from each cell's ``units``
    (its row's list's, as the cell's JSON gives them)."""

    from kriegsspiel.sim.sweep import row_points

    def fared(cell: tuple[int, int], slots: tuple[int, ...]) -> list[dict[str, Any]]:
        by_slot = {unit["slot"]: unit for unit in units.get(cell, [])}
        return [
            {k: v for k, v in by_slot[slot].items() if k != "army"}  # (the row's list's)
            for slot in slots
            if slot in by_slot
        ]

    def against(compared: Compared, column: int) -> dict[str, Any] | None:
        base, row = (compared.base, column), (compared.row, column)
        pairs = paired_games(winners, base, row)
        if pairs is None:
            return None
        return {
            "opponent": columns[column],
            **compare(*pairs).to_json(),
            "taken_out": fared(base, compared.taken_out),
            "brought_in": fared(row, compared.brought_in),
        }

    return [
        {
            "variant": compared.name,
            "row": rows[compared.row],
            "list": rows[compared.base],
            "points": row_points(sweep)[compared.row],  # the variant's own list's
            "points_added": compared.points,
            "against": [against(compared, c) for c in range(len(sweep.columns))],
        }
        for compared in sweep.compared
    ]
