"""The running totals of an evaluation, fed games in index order, in constant memory."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kriegsspiel.core.names import counted
from kriegsspiel.core.per_cent import chance_shown_whole
from kriegsspiel.sim.outcome import GameOutcome
from kriegsspiel.sim.stats import Running, wilson, within_precision

SURPRISES_KEPT = 5
WINNERS = ("A", "draw", "B")  # a game's winner, by its code in Tally.winners
# what a unit's damage dealt does not count (said under its units; "damage_note" in JSON)
DAMAGE_LEFT_OUT = (
    "Left out: pins put on the enemy, an officer's bonus to the units near him, objectives "
    "held, and damage to a vehicle short of a knock-out (its crew stunned, immobilised, set "
    "on fire but not destroyed: only a vehicle knocked out counts, its whole points): a unit "
    "that works so (an HQ, an anti-tank gun, say) is worth more than its damage says."
)


@dataclass(slots=True)
class UnitTally:
    army: str
    slot: int
    name: str
    points: int
    games: int = 0
    survived: int = 0
    damage: Running = field(default_factory=Running)  # points of the enemy's it removed, a game


@dataclass(slots=True)
class Tally:
    """Everything the report needs, however many games are added."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)  # "A", "draw", "B"
    a_wins_on_side: list[int] = field(default_factory=lambda: [0, 0])
    games_on_side: list[int] = field(default_factory=lambda: [0, 0])  # A on side 0 / side 1
    # games won by the army on side 0 (the scenario's side A) and on side 1, whichever army
    # it was: what the table itself favours
    side_wins: list[int] = field(default_factory=lambda: [0, 0])
    score_a: Running = field(default_factory=Running)
    score_b: Running = field(default_factory=Running)
    margin: Running = field(default_factory=Running)
    turns: Running = field(default_factory=Running)
    orders: Running = field(default_factory=Running)
    # games by (A's score, B's score, winner): a side wiped out loses whatever the score
    scores: Counter[tuple[int, int, str]] = field(default_factory=Counter)
    units: dict[tuple[str, int], UnitTally] = field(default_factory=dict)
    # the biggest wins of each army and the first draws: (margin, -index, seed, swapped, a, b)
    best: dict[str, list[tuple[int, int, int, bool, int, int]]] = field(
        default_factory=lambda: {"A": [], "B": [], "draw": []}
    )
    # each game's winner in game order, by its place in WINNERS (one byte a game), kept only
    # when asked for: a sweep pairs a variant's games with its list's by them
    winners: bytearray | None = None

    def add(self, game: GameOutcome) -> None:
        self.games += 1
        self.wins[game.winner] += 1
        if self.winners is not None:
            self.winners.append(WINNERS.index(game.winner))
        side = 1 if game.swapped else 0
        self.games_on_side[side] += 1
        self.a_wins_on_side[side] += game.winner == "A"
        if game.winner != "draw":  # (army A won on A's side, army B on the other)
            self.side_wins[side if game.winner == "A" else 1 - side] += 1
        self.score_a.add(game.score_a)
        self.score_b.add(game.score_b)
        self.margin.add(game.score_a - game.score_b)
        self.turns.add(game.turns)
        self.orders.add(game.orders)
        self.scores[(game.score_a, game.score_b, game.winner)] += 1
        for unit in game.units:
            key = (unit.army, unit.slot)
            tally = self.units.get(key)
            if tally is None:
                tally = self.units[key] = UnitTally(unit.army, unit.slot, unit.name, unit.points)
            tally.games += 1
            tally.survived += unit.survived
            tally.damage.add(unit.damage_dealt)
        entry = (
            abs(game.score_a - game.score_b),
            -game.index,
            game.seed,
            game.swapped,
            game.score_a,
            game.score_b,
        )
        kept = self.best[game.winner]
        if len(kept) < SURPRISES_KEPT:
            heapq.heappush(kept, entry)
        else:
            heapq.heappushpop(kept, entry)

    def against_the_score(self) -> int:
        """The games won by the side that did not score more: by wiping the enemy out (a
        side with units left beats one with none, whatever the score)."""
        return sum(
            count
            for (a, b, winner), count in self.scores.items()
            if (winner == "A" and a <= b) or (winner == "B" and b <= a)
        )

    def precise(self, precision: float, minimum: int = 20) -> bool:
        """The early stop: an even number of games, and every outcome known to ± ``precision``."""
        if self.games < minimum or self.games % 2:
            return False
        return within_precision([self.wins["A"], self.wins["draw"], self.wins["B"]], precision)

    def surprises(self) -> tuple[str, list[dict[str, Any]]]:
        """The games that went against the run's trend: the underdog's biggest wins.

        There is a favourite only where one army won clearly more of the decisive games
        (the 95% Wilson interval of its share of them is above a half); else, the most
        one-sided games either way, which are no upsets.
        """
        a, b = self.wins["A"], self.wins["B"]
        if a == b == 0:
            return self._shown("no side won a game, so the draws", list(self.best["draw"]))
        favourite = "A" if a > b else "B"
        if wilson(max(a, b), a + b).low <= 0.5:
            why = (
                f"no clear favourite ({counted(a, 'win')} to {b}), so the most one-sided "
                "games either way"
            )
            return self._shown(why, self.best["A"] + self.best["B"])
        under = "B" if favourite == "A" else "A"
        won = f"army {favourite} won {max(a, b)} of the {a + b} games either side won"
        if not self.best[under] and not self.best["draw"]:
            return self._shown(f"no upset and no draw ({won})", [])
        if not self.best[under]:
            return self._shown(f"no upset ({won}), so the draws", list(self.best["draw"]))
        why = f"upsets, the biggest wins of army {under}, the underdog ({won})"
        return self._shown(why, list(self.best[under]))

    @staticmethod
    def _shown(
        why: str, pool: list[tuple[int, int, int, bool, int, int]]
    ) -> tuple[str, list[dict[str, Any]]]:
        pool.sort(reverse=True)
        games = [
            {"index": -m[1], "seed": m[2], "swapped": m[3], "score_a": m[4], "score_b": m[5]}
            for m in pool[:3]
        ]
        return why, games

    def to_json(self) -> dict[str, Any]:
        n = self.games
        units = []
        for (army, _), unit in sorted(self.units.items()):
            units.append(
                {
                    "army": army,
                    "slot": unit.slot,  # its place in its list, from 0 (as stored)
                    "place": unit.slot + 1,  # the same from 1, as the text says it
                    "unit": unit.name,
                    "points": unit.points,
                    "survival": wilson(unit.survived, unit.games).to_json(),
                    **damage_json(unit.damage, unit.points),
                }
            )
        why, surprising = self.surprises()
        return {
            "games": n,
            "army_a_wins": wilson(self.wins["A"], n).to_json(),
            "draws": wilson(self.wins["draw"], n).to_json(),
            "army_b_wins": wilson(self.wins["B"], n).to_json(),
            "army_a_wins_by_side": [
                wilson(self.a_wins_on_side[s], self.games_on_side[s]).to_json() for s in (0, 1)
            ],
            # each side's wins, whichever army held it: side A's (the first zone), then B's
            "wins_by_side": [wilson(self.side_wins[s], n).to_json() for s in (0, 1)],
            "score_a": self.score_a.spread().to_json(),
            "score_b": self.score_b.spread().to_json(),
            "margin": self.margin.spread().to_json(),
            "won_against_the_score": self.against_the_score(),
            "turns": self.turns.spread().to_json(),
            "orders": self.orders.spread().to_json(),
            "units": units,
            "surprising": {"why": why, "games": surprising},
        }


def damage_json(damage: Running, points: int) -> dict[str, Any]:
    """A unit's damage dealt a game (points of enemy models and vehicles it removed): its
    mean and sd, and per point of its own with the mean's 95% interval (Student's t; the
    damage of one game is often all or nothing, so the interval is wide). Per point is
    null for a unit of no points; the interval is null, with why, for fewer than two
    games and for damage alike in every game (most often none), where it would shrink to
    a point and claim the unit's mean known exactly."""
    spread = damage.spread()
    interval = damage.interval()
    per_point = spread.mean / points if points and damage.n else None
    why = None
    if per_point is None:
        why = "a unit of no points" if damage.n else "no game"
    elif interval is None:
        why = (
            "one game: no spread to measure"
            if damage.n < 2
            else f"{'no damage' if spread.mean == 0 else 'the same damage'} in all "
            f"{damage.n} games: no spread seen, so no interval can be given"
        )
    return {  # (to 6 decimals, as each game's damage is stored: no float noise)
        "damage_dealt_mean": round(spread.mean, 6),
        "damage_dealt_sd": None if spread.sd is None else round(spread.sd, 6),
        "damage_per_point": None if per_point is None else round(per_point, 6),
        "damage_per_point_interval": (
            None
            if per_point is None or interval is None
            else [round(max(0.0, interval[0]) / points, 6), round(interval[1] / points, 6)]
        ),
        "damage_per_point_no_interval": why,  # why the interval is null (null if it is not)
    }


def pooled_units(runs: Sequence[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Units' summaries (as :meth:`Tally.to_json` gives them) from several runs of the same
    list, taken together unit by unit (by army and place in its list): survival over all
    the games, and damage dealt a game over all of them (its spread too, exactly)."""
    survived: dict[tuple[str, int], list[int]] = {}  # survived, games
    damage: dict[tuple[str, int], Running] = {}
    first: dict[tuple[str, int], dict[str, Any]] = {}
    for run in runs:
        for unit in run:
            key = (unit.get("army", "A"), unit["slot"])
            first.setdefault(key, unit)
            n = unit["survival"]["games"]
            total = survived.setdefault(key, [0, 0])
            total[0] += unit["survival"]["count"]
            total[1] += n
            damage.setdefault(key, Running()).merge(
                Running.of(n, unit["damage_dealt_mean"], unit["damage_dealt_sd"])
            )
    return [
        {
            **unit,
            "survival": wilson(*survived[key]).to_json(),
            **damage_json(damage[key], unit["points"]),
        }
        for key, unit in first.items()
    ]


def side_favoured(side_wins: Sequence[int], sides: Sequence[str]) -> str | None:
    """What to say where the table itself favours a side: one side won clearly more of the
    games either side won (the 95% Wilson interval of its share of them lies above a half,
    as a favourite is found among the armies), whichever army held it; None otherwise.
    ``side_wins``: side A's wins and side B's; ``sides``: each as it is told ("the side
    deploying north")."""
    a, b = side_wins
    if a + b == 0:
        return None
    first = 0 if a >= b else 1
    share = wilson(max(a, b), a + b)
    if share.low <= 0.5:
        return None
    return (
        f"the table favours {sides[first]}: it won {max(a, b)} of the "
        f"{a + b} games either side won ({chance_shown_whole(share.rate)}, 95% interval "
        f"{chance_shown_whole(share.low)}–{chance_shown_whole(share.high)}), whichever army held it. Swapping the armies' "
        "sides every other game cancels it in their rates, but it widens their intervals; "
        "a scenario of your own may want its zones or terrain evened out."
    )
