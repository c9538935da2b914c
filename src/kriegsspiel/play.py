"""``kriegsspiel play``: set up a game from files (or the shipped samples) and play it out."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets import check_ruleset


def _pick(kind: str, given: str, samples: list[Path]) -> Path:
    """A file path, or the stem of a shipped sample ('meeting-engagement')."""
    path = Path(given)
    if path.exists():
        return path
    for sample in samples:
        if sample.stem == given or sample.name == given:
            return sample
    names = ", ".join(s.stem for s in samples)
    raise UsageError(f"{kind} {given!r} is neither a file nor a shipped {kind} ({names}).")


def run_game(
    *,
    ruleset: str,
    scenario: str | None,
    armies: list[str],
    seed: int,
    players: str,
    record: str | None,
    svg: str | None,
    quiet: bool,
) -> None:
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.ai.players import Player, RandomPlayer, play
    from kriegsspiel.core.records import write_record
    from kriegsspiel.core.scenario import parse_scenario, sample_scenarios
    from kriegsspiel.render.game_account import account
    from kriegsspiel.rulesets.bolt_action.army import parse_army, sample_armies
    from kriegsspiel.rulesets.bolt_action.game.record import header
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

    ruleset = check_ruleset(ruleset)
    if ruleset not in ("konflikt47", "bolt-action-1"):
        raise UsageError(f"'play' is built for konflikt47 and bolt-action-1 so far, not {ruleset}.")
    kinds = [k.strip() for k in players.split(",")]
    if len(kinds) != 2 or any(k not in ("tactical", "random") for k in kinds):
        raise UsageError("--players takes two of tactical/random, e.g. --players tactical,random.")
    if len(armies) not in (0, 2):
        raise UsageError("give two --army options (side A, then side B), or none for the samples.")
    scenario_path = (
        _pick("scenario", scenario, sample_scenarios()) if scenario else sample_scenarios()[-1]
    )
    army_paths = (
        [_pick("army", a, sample_armies(ruleset)) for a in armies]
        if armies
        else sample_armies(ruleset)[:2]
    )
    scenario_text = scenario_path.read_text(encoding="utf-8")
    army_texts = (
        army_paths[0].read_text(encoding="utf-8"),
        army_paths[1].read_text(encoding="utf-8"),
    )
    game = BoltActionGame(
        ruleset,
        parse_scenario(scenario_text, str(scenario_path)),
        (
            parse_army(army_texts[0], str(army_paths[0]), ruleset),
            parse_army(army_texts[1], str(army_paths[1]), ruleset),
        ),
        seed=seed,
    )

    def player(kind: str, player_seed: int) -> Player:
        return TacticalPlayer(player_seed) if kind == "tactical" else RandomPlayer(player_seed)

    play(game, [player(kinds[0], seed), player(kinds[1], seed + 1)], seed)
    console = Console(highlight=False)
    a, b = game.score()
    console.print(f"[bold]{game.scenario.name}[/bold] — {game.rules.data.title}, seed {seed}")
    console.print(
        f"Side A: {game_name(army_texts[0])} ({kinds[0]})   Side B: {game_name(army_texts[1])} ({kinds[1]})"
    )
    if not quiet:
        for line in account(game.events, game.units):
            console.print(line, markup=False)
    survivors = [sum(1 for u in game.units if u.side == s and not u.destroyed) for s in (0, 1)]
    console.print(
        f"Result: {a} - {b} ({game.scenario.victory}); units left {survivors[0]} v {survivors[1]}"
    )
    record_path = record or f"kriegsspiel-{ruleset}-seed{seed}.jsonl"
    write_record(
        record_path, header(game, scenario_text, army_texts, (kinds[0], kinds[1])), game.events
    )
    console.print(
        f"Record written to {record_path} (replay with: kriegsspiel replay {record_path})"
    )
    if svg:
        from kriegsspiel.render.table_svg import write_svg

        write_svg(game, svg)
        console.print(f"Table drawn to {svg}")


def game_name(text: str) -> str:
    import yaml

    data = yaml.safe_load(text)
    return str(data.get("name", "?")) if isinstance(data, dict) else "?"
