"""Show an :class:`OddsReport` the way a player reads a playsheet, with rich."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from kriegsspiel.core.per_cent import chance_shown
from kriegsspiel.core.report import OddsReport

BAR = 30
TAIL = Fraction(1, 2000)  # rows past a 0.05% tail are folded into one


OUTCOMES = {"p_hit": "at least one hit"}  # where the key alone would mislead
DETAILS = {  # the same for the tables of details
    "p_hit_by_weapon": "one shot's chance to hit",
    "damage_results": "damage results (rows overlap)",
}


#: the longest exact fraction the chances table shows whole: a longer one (a fight of many
#: rounds has fractions of hundreds of digits) would be cut by the console to a number
#: that reads as a whole one, so it is left to ``--json``, which holds it whole
EXACT_SHOWN = 40


def _exact(p: Fraction) -> str:
    """A chance as its exact fraction, where it is short enough to read."""
    said = str(p)
    if len(said) <= EXACT_SHOWN:
        return said
    return f"see --json ({len(str(p.denominator))} digits)"


def render(report: OddsReport) -> Group:
    """The reasoning table, the headline probabilities, then each distribution."""
    parts: list[Table | Text] = []
    title = f"{report.heading} — {report.rules}"
    why = Table(title=title, show_header=True, header_style="bold", title_justify="left")
    why.add_column("step")
    why.add_column("result", style="bold cyan")
    why.add_column("because")
    for r in report.reasons:
        why.add_row(r.topic, r.result, r.because)
    parts.append(why)
    if report.probabilities:
        odds = Table(
            show_header=True,
            header_style="bold",
            title="chances",
            title_justify="left",
            caption=report.notes.get("chances"),
            caption_justify="left",
        )
        odds.add_column("outcome")
        odds.add_column("chance", justify="right", style="bold green")
        odds.add_column("exact", justify="right", style="dim")
        for key, p in report.probabilities.items():
            label = report.labels.get(key) or OUTCOMES.get(
                key, key.removeprefix("p_").replace("_", " ")
            )
            odds.add_row(label, chance_shown(p), _exact(Fraction(p)))
        parts.append(odds)
    for name, dist in report.distributions.items():
        table = Table(
            title=f"{name.replace('_', ' ')} (mean {float(dist.mean()):.2f})",
            title_justify="left",
            show_header=True,
            header_style="bold",
            caption=report.notes.get(name),
            caption_justify="left",
        )
        table.add_column("count", justify="right")
        table.add_column("exactly", justify="right")
        table.add_column("at least", justify="right")
        table.add_column("")
        values = dist.as_list()
        tail = Fraction(1)
        for count, p in enumerate(values):
            if count and tail < TAIL:
                table.add_row(f"{count}+", chance_shown(tail), chance_shown(tail), "")
                break
            table.add_row(
                str(count), chance_shown(p), chance_shown(tail), "█" * round(float(p) * BAR)
            )
            tail -= p
        parts.append(table)
    for key, value in report.details.items():
        if isinstance(value, dict) and value and all(isinstance(v, float) for v in value.values()):
            title = DETAILS.get(key, key.replace("_", " "))
            table = Table(title=title, title_justify="left", show_header=False)
            table.add_column("")
            table.add_column("", justify="right")
            for k, v in value.items():
                table.add_row(str(k), chance_shown(v))
            parts.append(table)
    return Group(*parts)


def print_report(report: OddsReport, console: Console | None = None) -> None:
    (console or Console()).print(render(report))
