"""An evaluation as rich tables: results with intervals, scores, units, surprising games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kriegsspiel.core.per_cent import chance_shown, chance_shown_whole
from kriegsspiel.rulesets.bolt_action.game.set_up_order import LIST_ORDER, figures_note
from kriegsspiel.sim.stats import percentage_points, plain
from kriegsspiel.sim.tally import DAMAGE_LEFT_OUT


def _pct(p: dict[str, Any]) -> str:
    if p["rate"] is None:  # (a side on which no game was played: one game in all)
        return "– (no game)"
    return f"{chance_shown(p['rate'])} [{chance_shown(p['low'])}, {chance_shown(p['high'])}]"


def short_rate(p: dict[str, Any]) -> str:
    """A rate and its interval in whole percent: "50% (24%–76%)". Where a whole per cent
    would hide a figure near certainty or nothing behind "<1%" or ">99%", all three are
    given as the odds give a chance ("99.9% (99.4%–99.995%)"), not ">99% (99%–>99%)"."""
    figures = (p["rate"], p["low"], p["high"])
    whole = [chance_shown_whole(figure) for figure in figures]
    if any(shown in ("<1%", ">99%") for shown in whole):
        whole = [chance_shown(figure) for figure in figures]
    return f"{whole[0]} ({whole[1]}–{whole[2]})"


def per_point(unit: dict[str, Any]) -> str:
    """A unit's damage dealt a game per point and its interval: "0.85 (0.69–1.01)"; "–"
    for a unit of no points, no interval after one game, and, for damage alike in every
    game, that instead of an interval of no width: "0.00 (none in 30 games)"."""
    mean, interval = unit["damage_per_point"], unit["damage_per_point_interval"]
    if mean is None:
        return "–"
    games = unit.get("survival", {}).get("games", 0)  # (the unit's games: survival's)
    if interval is None and games > 1:
        return f"{mean:.2f} ({'none' if mean == 0 else 'the same'} in {games} games)"
    if interval is None:
        return f"{mean:.2f}"
    return f"{mean:.2f} ({interval[0]:.2f}–{interval[1]:.2f})"


_SCORED = {"units destroyed": "enemy units destroyed", "objectives": "objective points held"}


def score_note(data: dict[str, Any]) -> str:
    """What a score counts, and that the score does not decide a game a side wins by
    wiping the other out (with how many of the games were won so against the score)."""
    scored = _SCORED.get(str(data.get("victory")), "victory points")
    note = (
        f"Score: {scored} (the scenario's victory); margin: army A's score less army B's.\n"
        "A side that wipes the other out wins whatever the score"
    )
    against = data.get("won_against_the_score", 0)
    if not against:
        return note + "."
    games = "game was" if against == 1 else "games were"
    return f"{note}: {against} of these {games} won so, at a level or lower score."


def other_code_note(games: int, versions: Sequence[str], these: str = "this matchup") -> str:
    """What to say of ``games`` of ``these`` stored by other code (``versions``), which a
    run never reuses; "" if there are none."""
    if not games:
        return ""
    were = "game" if games == 1 else "games"
    shown = ", ".join(versions[:2]) + (
        f" and {len(versions) - 2} more" if len(versions) > 2 else ""
    )
    code = f"code version{'s' if len(versions) > 1 else ''} {shown}"
    return (
        f"{games} {were} of {these} stored by other code ({code}) "
        f"{'was' if games == 1 else 'were'} not reused (a change to the code may change a "
        "game); 'kriegsspiel results --prune' removes them."
    )


def house_rules(data: dict[str, Any]) -> str | None:
    """The rules file an evaluation's games were played by, with the start of its digest
    as ``results`` lists it ("house.yaml (3f2a1b0c)"); None for the shipped rules."""
    house, digest = data.get("rules_file"), data.get("rules_digest")
    if house is None:
        return None
    return house if digest is None else f"{house} ({digest})"


def _ruleset(data: dict[str, Any]) -> str:
    """The ruleset, the rules file the games were played by, if any, and a shuffled
    deployment."""
    house = house_rules(data)
    told = data["ruleset"] if house is None else f"{data['ruleset']} with rules file {house}"
    if data.get("deployment", LIST_ORDER) != LIST_ORDER:
        told += f", deployment {data['deployment']}"
    return told


def print_evaluation(data: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console(highlight=False)
    a, b = data["army_a"], data["army_b"]
    named = [army.get("shown_as", army["name"]) for army in (a, b)]  # (told apart)
    sides = []
    for shown, army in zip(named, (a, b), strict=True):
        # "Name (mine.yaml)" is headed "Name (mine.yaml; 940 points, tactical)"
        file = shown.removeprefix(army["name"]).removeprefix(" (").removesuffix(")")
        about = f"{file}; " if file else ""
        sides.append(
            f"[bold]{escape(army['name'])}[/bold] "
            f"({escape(about)}{army['points']} points, {army['player']})"
        )
    console.print(
        f"{sides[0]} v {sides[1]} — {escape(_ruleset(data))}, {escape(data['scenario'])}, "
        f"seed {data['seed']}"
    )
    source = f"{data['games_played']} played, {data['games_reused']} from the results store"
    if data["stopped_early"]:
        source += (
            f"; stopped early at ± {plain(data['precision'])}, "
            f"{percentage_points(data['precision'])} percentage points"
        )
    games = f"{data['games']} game{'s' if data['games'] != 1 else ''}"
    console.print(f"{games} ({source}); armies swap sides every other game.")
    other = other_code_note(data.get("games_of_other_code", 0), data.get("other_code_versions", []))
    if other:
        console.print(other, markup=False)

    results = Table(title="Results (95% Wilson intervals, each on its own)", title_justify="left")
    results.add_column("outcome")
    results.add_column("games", justify="right")
    results.add_column("rate [95% interval]", justify="right")
    for label, key in (
        (f"army A wins ({escape(named[0])})", "army_a_wins"),
        ("draws", "draws"),
        (f"army B wins ({escape(named[1])})", "army_b_wins"),
    ):
        results.add_row(label, str(data[key]["count"]), _pct(data[key]))
    zones = data.get("sides") or ["side A", "side B"]
    for side, p in enumerate(data["army_a_wins_by_side"]):
        where = f"deploying {zones[side]}" if data.get("sides") else f"on {zones[side]}"
        results.add_row(f"  army A wins {where}", f"{p['count']}/{p['games']}", _pct(p))
    for side, p in enumerate(data.get("wins_by_side", [])):  # (the table's own lean)
        who = f"side deploying {zones[side]}" if data.get("sides") else zones[side]
        results.add_row(f"{who} wins (either army)", str(p["count"]), _pct(p))
    console.print(results)

    lengths = Table(title="Scores and length (mean ± sd)", title_justify="left")
    lengths.add_column("measure")
    lengths.add_column("mean", justify="right")
    lengths.add_column("sd", justify="right")
    for label, key in (
        ("score of army A", "score_a"),
        ("score of army B", "score_b"),
        ("score margin A − B", "margin"),
        ("turns", "turns"),
        ("orders given", "orders"),
    ):
        sd = data[key]["sd"]  # None after one game: a spread needs two
        lengths.add_row(label, f"{data[key]['mean']:.2f}", "–" if sd is None else f"{sd:.2f}")
    console.print(lengths)
    console.print(score_note(data), markup=False)

    units = Table(title="Units", title_justify="left")
    for col, just in (
        ("army", "left"),
        ("unit", "left"),
        ("points", "right"),
        ("survived (95%)", "right"),
        ("damage", "right"),
        ("per point (95%)", "right"),
    ):
        units.add_column(col, justify=just, no_wrap=just == "right")  # type: ignore[arg-type]
    for u in data["units"]:
        units.add_row(
            u["army"],
            u["unit"],
            str(u["points"]),
            short_rate(u["survival"]),
            f"{u['damage_dealt_mean']:.1f}",
            per_point(u),
        )
    console.print(units)
    console.print(
        # (a line a sentence, each wrapped to the console's width)
        "Damage: points of enemy models and vehicles the unit removed, a game.\n"
        "Per point: that damage over the unit's own points, with the 95% interval of its "
        "mean (a unit's damage in a game is often all or nothing, so it is wide).\n"
        f"{DAMAGE_LEFT_OUT}\n"
        f"Place: {figures_note(data.get('deployment', LIST_ORDER))}",
        markup=False,
    )

    surprise = data["surprising"]
    # (none to show only where no game went against the favourite, nor was drawn: said so)
    ends = ":" if surprise["games"] else "."
    console.print(f"[bold]Surprising games[/bold]: {escape(surprise['why'])}{ends}")
    for g in surprise["games"]:
        # the command puts its first --army on side A: army B, in a game with swapped sides
        swapped = " (sides swapped: army B is the command's side A)" if g["swapped"] else ""
        console.print(
            f"  game {g['index']}: A {g['score_a']} – B {g['score_b']}{swapped}  ->  {g['command']}",
            markup=False,
            soft_wrap=True,
        )
    for notice in data["notices"]:  # (the lists' points first, when they differ)
        console.print(f"[yellow]note:[/yellow] {notice}")
