"""48 fixed-seed games, one line each: a check that a speed change leaves every game as it was.

Run:  python scripts/golden_games.py > before.txt   (on the code before the change)
      python scripts/golden_games.py | diff before.txt -   (after it: no output, no change)

Both editions, both sample scenarios, tactical and random players, seeds 0 to 5. Each line
has a hash of the game's events and, for random players, a hash of every list of legal
orders they were offered (their contents and order), so a change to how orders are listed
shows even where the random choice happens to land alike. Speed work must leave every line
as it was; a rule change is expected to change lines and says so in its commit.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import Player, RandomPlayer, chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.core.seeds import chance_stream
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


class ListingPlayer(RandomPlayer):
    """The random player, keeping each list of legal orders it was offered."""

    def __init__(self, seed: int, offered: list[list[Any]]) -> None:
        super().__init__(seed)
        self.offered = offered

    def choose(self, state: Any) -> Any:
        self.offered.append([a.to_json() for a in state.legal_actions()])
        return super().choose(state)


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def main() -> None:
    for ruleset in ("konflikt47", "bolt-action-1"):
        armies = [load_army(p, ruleset) for p in sample_armies(ruleset)[:2]]
        for scenario_path in sample_scenarios():
            scenario = load_scenario(scenario_path)
            for kind in ("tactical", "random"):
                for seed in range(6):
                    game = BoltActionGame(ruleset, scenario, (armies[0], armies[1]), seed=seed)
                    offered: list[list[Any]] = []
                    players: list[Player] = (
                        [TacticalPlayer(seed), TacticalPlayer(seed + 1)]
                        if kind == "tactical"
                        else [ListingPlayer(seed, offered), ListingPlayer(seed + 1, offered)]
                    )
                    rng = chance_stream(seed)
                    while not game.is_terminal():
                        side = game.current_player()
                        action = (
                            chance_outcome(game, rng)
                            if side == CHANCE
                            else players[side].choose(game)
                        )
                        game.apply_action(action)
                    events = digest([e.to_json() for e in game.events])
                    orders = digest(offered) if offered else "-"
                    print(
                        f"{ruleset} {scenario_path.stem} {kind} seed {seed}: "
                        f"{len(game.events)} events {events}, {len(offered)} lists {orders}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
