"""Pictures of simulated battles with matplotlib (headless): scores, win rates, heat maps."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from kriegsspiel.core.names import counted
from kriegsspiel.core.per_cent import chance_shown_whole
from kriegsspiel.outfiles import drawn_by, writing
from kriegsspiel.render.evaluation_text import house_rules, per_point


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only, no screen
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: str) -> None:
    try:
        with writing(path, "--plot") as temp:
            # marked as kriegsspiel's, so that only a picture it drew is ever replaced
            mark = {"Software" if path.lower().endswith(".png") else "Creator": drawn_by()}
            fig.savefig(temp, dpi=120, bbox_inches="tight", metadata=mark)
    finally:
        _pyplot().close(fig)


BLUE, GREY, RED = "#4477aa", "#999999", "#cc6677"  # army A won, a draw, army B won
TITLE_ROOM = 95  # characters of the title a line, across the picture
SCORED = {"units destroyed": "units destroyed", "objectives": "objective points held"}


def _wrapped(text: str, width: int, lines: int = 3) -> str:
    """``text`` broken into lines of at most ``width`` characters, at most ``lines`` of them
    (the last cut short with an ellipsis): a long list name fits under its bar."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width, max_lines=lines, placeholder=" …") or [""])


def plot_evaluation(data: dict[str, Any], scores: Counter[tuple[int, int, str]], path: str) -> None:
    """Left: how often each score margin came up, each bar split by the games' results (a
    side that wipes the other out wins at any margin). Right: outcome rates with 95%
    intervals. ``scores``: games by (army A's score, army B's score, winner)."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.8), layout="constrained")
    margins: dict[str, Counter[int]] = {"A": Counter(), "draw": Counter(), "B": Counter()}
    for (a, b, winner), count in scores.items():
        margins[winner][a - b] += count
    xs = sorted({x for counts in margins.values() for x in counts}) or [0]
    n = sum(scores.values()) or 1
    bottom = [0.0] * len(xs)
    for winner, label, colour in (
        ("A", "army A won", BLUE),
        ("draw", "draw", GREY),
        ("B", "army B won", RED),
    ):
        heights = [margins[winner][x] / n for x in xs]
        if any(heights):  # (stacked: a bar is every game of its margin, split by result)
            left.bar(xs, heights, bottom=bottom, color=colour, label=label)
            bottom = [low + h for low, h in zip(bottom, heights, strict=True)]
    left.set_ylim(0, max(bottom) * 1.35)  # (room above the bars for the legend)
    left.legend(fontsize=8, title="the game's result", title_fontsize=8, loc="upper left")
    left.xaxis.get_major_locator().set_params(integer=True)
    left.set_xlim(xs[0] - 1, xs[-1] + 1)  # (one margin alone would fill the axis otherwise)
    scored = SCORED.get(str(data.get("victory")), "score")
    left.set_xlabel(
        f"score margin, army A − army B ({scored}; {_wrapped(str(data['scenario']), 30, 1)})\n"
        "a side that wipes the other out wins at any margin",
        fontsize=9,
    )
    left.set_ylabel("share of games")
    left.set_title(f"Scores over {data['games']} game{'s' if data['games'] != 1 else ''}")
    # (each list's name, with its file where the two share one)
    shown = [data[army].get("shown_as", data[army]["name"]) for army in ("army_a", "army_b")]
    names = [_wrapped(name, 26) for name in shown]
    labels = [f"A wins\n{names[0]}", "draw", f"B wins\n{names[1]}"]
    parts = [data["army_a_wins"], data["draws"], data["army_b_wins"]]
    rates = [p["rate"] for p in parts]
    errors = [[p["rate"] - p["low"] for p in parts], [p["high"] - p["rate"] for p in parts]]
    right.bar(range(3), rates, yerr=errors, capsize=6, color=[BLUE, GREY, RED])
    right.set_xticks(range(3), labels, fontsize=8)
    right.set_ylim(0, 1.08)  # (room above a 100% bar for its label)
    right.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    right.set_ylabel("probability (95% Wilson interval)")
    right.set_title("Who wins")
    for x, p in enumerate(parts):
        right.text(x, p["high"] + 0.015, chance_shown_whole(p["rate"]), ha="center", fontsize=9)
    house = house_rules(data)
    rules = data["ruleset"] if house is None else f"{data['ruleset']}, rules file {house}"
    rules += _how_played(data)
    title = f"{shown[0]} v {shown[1]} — {rules}"
    if len(title) > TITLE_ROOM:  # (a line each: army A's, army B's, and the rules)
        second = f"v {shown[1]} — {rules}"
        lines = [shown[0]]
        lines += [second] if len(second) <= TITLE_ROOM else [f"v {shown[1]}", rules]
        title = "\n".join(_wrapped(line, TITLE_ROOM, 1) for line in lines)
    fig.suptitle(title)
    _save(fig, path)


def _how_played(data: dict[str, Any]) -> str:
    """What the title adds of how the games were played, where it is not the usual: the
    players when they are not the same ("; tactical v random", army A's first: a lopsided
    match of players is no verdict on the lists), and a deployment shuffled."""
    players = [data[army].get("player") for army in ("army_a", "army_b")]
    said = f"; {players[0]} v {players[1]}" if None not in players and len(set(players)) > 1 else ""
    if data.get("deployment") == "shuffled":
        said += ", shuffled deployment" if said else "; shuffled deployment"
    return said


def _net(cell: dict[str, Any]) -> float:
    """A cell's colour: the row's wins less its losses, from -1 (lost every game) to +1.
    The win rate alone would colour a row that mostly draws as one that mostly loses."""
    return 2 * float(cell["rate"]) + float(cell["draws"]["rate"] if "draws" in cell else 0.0) - 1


def _luminance(rgb: Sequence[float]) -> float:
    """The relative luminance of an sRGB colour (WCAG 2's definition)."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ink(background: Sequence[float]) -> str:
    """Black or white, whichever reads better on ``background``: black text on the dark
    ends of the colour scale, the cells a reader looks at first, could not be read."""
    light = _luminance(background)
    return "black" if (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) else "white"


# under a heat map's pooled column, as the text table's note says it
FIELD_CAPTION = (
    "the field: each row's games against every column but its own list (and, for a\n"
    "variant, the list it was made from), pooled; rows may face different opponents:\n"
    "compare the field only between rows that face the same columns"
)


def plot_heatmap(
    rows: Sequence[str],
    columns: Sequence[str],
    cells: Sequence[Sequence[dict[str, Any] | None]],
    title: str,
    path: str,
    changes: Sequence[dict[str, Any]] = (),
    field: Sequence[dict[str, Any] | None] = (),
) -> None:
    """A sweep: the row list's win rate against each column list, with its interval (and
    its draw rate: a row of draws is not a row of losses) in the cell, coloured by its wins
    less its losses, and (given ``field``, where some row meets more than one opponent in it) a last
    column set apart: each row against the field, pooled; beside it, when the sweep has variants, what each
    changes (:func:`_plot_changes`)."""
    plt = _pyplot()
    pairs = [
        (_variant_told(variant), change.get("opponent", column), change)
        for variant in changes
        for column, change in zip(columns, variant["against"], strict=True)
        if change is not None
    ]
    if any(pooled and pooled.get("opponents", 2) > 1 for pooled in field):
        columns = [*columns, "the field (pooled)"]
        cells = [[*row, pooled] for row, pooled in zip(cells, field, strict=True)]
    else:
        field = ()
    width, height = 2.2 + 2.0 * len(columns), 1.4 + 0.8 * len(rows)
    if pairs:
        fig, (ax, right) = plt.subplots(  # (a gap: the colour bar's label is the heat map's)
            1,
            2,
            figsize=(width + 6.0, max(height, 1.6 + 0.7 * len(pairs))),
            gridspec_kw={"wspace": 0.55},
        )
        _plot_changes(right, pairs)
    else:
        fig, ax = plt.subplots(figsize=(width, height))
    values = [[_net(c) if c else float("nan") for c in row] for row in cells]
    image = ax.imshow(values, cmap="RdBu", vmin=-1, vmax=1, aspect="auto")
    ax.set_xticks(range(len(columns)), columns, rotation=20, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    for i, row in enumerate(cells):
        for j, cell in enumerate(row):
            text = (
                f"{chance_shown_whole(cell['rate'])}\n[{chance_shown_whole(cell['low'])}, {chance_shown_whole(cell['high'])}]"
                + (
                    f"\ndraws {chance_shown_whole(cell['draws']['rate'])}"
                    if "draws" in cell
                    else ""
                )
                + ("\n(mirror)" if cell.get("mirrored") else "")  # (as the table marks it)
                # (a field is as many opponents as it says: rows may face different ones)
                + (f"\nv {counted(cell['opponents'], 'opponent')}" if "opponents" in cell else "")
                if cell
                else "(no opponent)"
                if field and j == len(columns) - 1
                else "(itself)"
            )
            shade = image.cmap(image.norm(values[i][j])) if cell else (1.0, 1.0, 1.0)
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color=_ink(shade))
    if field:  # (the pooled column is not one more opponent: set it apart, and say so)
        ax.axvline(len(columns) - 1.5, color="black", linewidth=3)
        ax.set_xlabel(FIELD_CAPTION, fontsize=8, loc="right")
    from matplotlib.ticker import PercentFormatter

    fig.colorbar(
        image,
        ax=ax,
        label="the row's list: wins less losses (a draw is neither)",
        format=PercentFormatter(1.0, decimals=0),
    )
    # over the whole picture, above its top edge (the saved picture grows to take it): over
    # the heat map alone a long title ran on over the colour bar's label
    room = max(40, int(fig.get_figwidth() * 11))  # (characters a line, at its font size)
    lines = [_wrapped(line, room, 2) for line in title.split("\n")]
    fig.suptitle("\n".join(lines), y=1.0, va="bottom")
    _save(fig, path)


def _plot_changes(ax: Any, pairs: Sequence[tuple[str, str, dict[str, Any]]]) -> None:
    """Each variant against its list, opponent by opponent: the change in the list's win
    rate and in its loss rate, with their paired 95% intervals, about a line at no change."""
    for y, (_, _, change) in enumerate(pairs):
        for offset, (key, colour) in ((-0.12, ("wins", "#4477aa")), (0.12, ("losses", "#cc6677"))):
            d = change[key]
            ax.errorbar(
                d["change"] * 100,
                y + offset,
                xerr=[[(d["change"] - d["low"]) * 100], [(d["high"] - d["change"]) * 100]],
                fmt="o",
                color=colour,
                capsize=4,
                label=key if y == 0 else None,
            )
    ax.axvline(0, color="#444444", linewidth=1)
    ax.set_yticks(
        range(len(pairs)),
        [f"{name}\nv {column}{_units_told(change)}" for name, column, change in pairs],
        fontsize=8,
    )
    ax.yaxis.tick_right()  # (clear of the heat map's colour bar on the left)
    ax.set_ylim(len(pairs) - 0.5, -0.5)
    ax.set_xlabel("change from its list, percentage points (95% paired interval)")
    ax.set_title("What each variant changes")
    ax.legend(loc="best", fontsize=8)


def _variant_told(variant: dict[str, Any]) -> str:
    """A variant as the picture names it: its name and list, then its own points and what
    it changes them by ("MMG for the Projektor (Schwerefeld Battlegroup)\n930 points, -70
    on its list"), so that no opponent's points read as its own."""
    named = f"{variant['variant']} ({variant['list']})"
    points, added = variant.get("points"), variant.get("points_added")
    if points is None:
        return named
    change = "" if added is None else f", {added:+d} on its list"
    return f"{named}\n{counted(points, 'point')}{change}"


def _units_told(change: dict[str, Any]) -> str:
    """The units a variant changes, as they fared against this opponent (one line each:
    how often it survived a game, and the damage it dealt a game per point), so the
    picture answers "is that unit worth its points?" as the text's units table does."""
    lines = [
        f"\n{way}: {unit['unit']}: survived {chance_shown_whole(unit['survival']['rate'])}, "
        f"{per_point(unit)} a point"
        for way, key in (("out", "taken_out"), ("in", "brought_in"))
        for unit in change.get(key, ())
    ]
    return "".join(lines)
