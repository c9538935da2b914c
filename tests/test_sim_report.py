"""What an evaluation's report and picture say: margins by result, fitted labels, notes."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import kriegsspiel.render.plots as plots
from kriegsspiel.render.evaluation_text import print_evaluation
from kriegsspiel.sim.matchup import build_matchup
from kriegsspiel.sim.outcome import GameOutcome
from kriegsspiel.sim.runner import evaluate, evaluation_json
from kriegsspiel.sim.tally import Tally

DATA = Path(__file__).parent / "data" / "sim"
# (A's score, B's score, winner): a side that wipes the other out wins whatever the score
GAMES = [(2, 2, "A"), (1, 3, "A"), (3, 1, "A"), (1, 1, "draw"), (0, 2, "B"), (2, 2, "B")]


def _tally(games: list[tuple[int, int, str]]) -> Tally:
    tally = Tally()
    for i, (a, b, winner) in enumerate(games):
        tally.add(GameOutcome(i, 1000 + i, i % 2 == 1, winner, a, b, 3, 20, ()))
    return tally


def _data(tally: Tally, name_a: str = "Patrol A", name_b: str = "Patrol B") -> dict[str, Any]:
    """What plot_evaluation reads of a report, around the tally's own JSON."""
    return tally.to_json() | {
        "ruleset": "konflikt47",
        "scenario": "skirmish",
        "victory": "units destroyed",
        "army_a": {"name": name_a},
        "army_b": {"name": name_b},
    }


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Callable[[dict[str, Any], Tally], Any]:
    """plot_evaluation's figure, drawn, instead of written to a file."""
    figures: list[Any] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: figures.append(fig))

    def draw(data: dict[str, Any], tally: Tally) -> Any:
        plots.plot_evaluation(data, tally.scores, "unused.png")
        figures[-1].canvas.draw()
        return figures[-1]

    return draw


def test_a_win_by_wiping_the_enemy_out_is_drawn_as_a_win_at_any_margin(
    drawn: Callable[[dict[str, Any], Tally], Any],
) -> None:
    """The margin chart coloured each bar by the sign of the margin: a wipe-out win at a
    level or lower score showed as a draw or a loss, against the win rates beside it."""
    from matplotlib.colors import to_hex

    tally = _tally(GAMES)
    assert tally.against_the_score() == 3  # (2-2 and 1-3 won by A, 2-2 won by B)
    assert tally.to_json()["won_against_the_score"] == 3
    left = drawn(_data(tally), tally).axes[0]
    shares: dict[tuple[int, str], float] = {}
    for bar in left.patches:
        margin = round(bar.get_x() + bar.get_width() / 2)
        shares[margin, to_hex(bar.get_facecolor())] = round(bar.get_height() * len(GAMES))
    blue, grey, red = plots.BLUE, plots.GREY, plots.RED
    wins_a = {m: n for (m, colour), n in shares.items() if colour == blue and n}
    assert wins_a == {0: 1, -2: 1, 2: 1}
    assert {m: n for (m, colour), n in shares.items() if colour == grey and n} == {0: 1}
    assert {m: n for (m, colour), n in shares.items() if colour == red and n} == {-2: 1, 0: 1}
    labels = [text.get_text() for text in left.get_legend().get_texts()]
    assert labels == ["army A won", "draw", "army B won"]
    assert "wins at any margin" in left.get_xlabel()


def test_long_list_names_fit_the_picture_without_overlapping(
    drawn: Callable[[dict[str, Any], Tally], Any],
) -> None:
    """Long names ran into each other and the axis title, and the title off the image."""
    long_a = "US Armored Infantry, Ardennes 1944 (two Stuarts for the Easy Eight, and more)"
    long_b = "Panzergrenadier Kompanie of the 12th SS, Normandy 1944 (with every support)"
    tally = _tally(GAMES)
    fig = drawn(_data(tally, long_a, long_b) | {"rules_file": "my-house-rules.yaml"}, tally)
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    left, right = fig.axes
    texts = [fig._suptitle, left.xaxis.label, *right.get_xticklabels()]
    boxes = [text.get_window_extent(renderer) for text in texts]
    for text, box in zip(texts, boxes, strict=True):
        assert page.x0 <= box.x0 and box.x1 <= page.x1, text.get_text()
    for i, box in enumerate(boxes):
        for other in boxes[i + 1 :]:
            assert not box.overlaps(other), (texts[i].get_text(), boxes.index(other))
    title = fig._suptitle.get_text().split("\n")  # army A's name, army B's, the rules
    assert title == [long_a, f"v {long_b}", "konflikt47, rules file my-house-rules.yaml"]


def test_the_title_names_the_players_when_they_are_not_the_same(
    drawn: Callable[[dict[str, Any], Tally], Any],
) -> None:
    """A lopsided match of AI players read like a verdict on the lists: the title says
    who played them (army A's first), and a shuffled deployment; alike players, not."""
    tally = _tally(GAMES)
    data = _data(tally)
    data["army_a"] |= {"player": "tactical"}
    data["army_b"] |= {"player": "random"}
    title = drawn(data, tally)._suptitle.get_text()
    assert title == "Patrol A v Patrol B — konflikt47; tactical v random"
    data["deployment"] = "shuffled"
    title = drawn(data, tally)._suptitle.get_text()
    assert title == "Patrol A v Patrol B — konflikt47; tactical v random, shuffled deployment"
    data["army_a"] |= {"player": "random"}
    data["deployment"] = "list-order"
    assert drawn(data, tally)._suptitle.get_text() == "Patrol A v Patrol B — konflikt47"


@pytest.fixture(scope="module")
def report() -> str:
    matchup = build_matchup(
        "konflikt47",
        DATA / "skirmish.yaml",
        [DATA / "patrol-a.yaml", DATA / "patrol-b.yaml"],
        "random,random",
    )
    data = evaluation_json(evaluate(matchup, 2, 1))
    assert data["victory"] == "units destroyed"
    out = io.StringIO()
    print_evaluation(data, Console(file=out, width=100, highlight=False))
    return " ".join(out.getvalue().split())


def test_the_report_says_what_the_score_is_and_that_a_wipe_out_wins_at_any_margin(
    report: str,
) -> None:
    assert "score margin A − B" in report
    assert "Score: enemy units destroyed (the scenario's victory); margin: army A's score" in report
    assert "A side that wipes the other out wins whatever the score" in report


def test_damage_per_point_says_what_it_leaves_out(report: str) -> None:
    """Only damage was told, so an HQ, which works by its officer's bonus, looked worthless."""
    assert "Left out: pins put on the enemy, an officer's bonus to the units near him" in report
    assert "objectives held" in report and "(an HQ, an anti-tank gun, say)" in report
    # (a 6-pdr that stunned a crew or immobilised a tank had dealt "nothing")
    assert "damage to a vehicle short of a knock-out (its crew stunned, immobilised" in report
