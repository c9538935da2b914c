"""A variant against its list: the paired difference of two rates, and how a sweep uses it."""

from __future__ import annotations

import json
from itertools import product
from math import comb
from pathlib import Path

import pytest
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.sim.compare import LOSS, WIN, compare, from_the_other_side, paired_change
from kriegsspiel.sim.stats import paired_difference

DATA = Path(__file__).parent / "data" / "sim"


def test_paired_difference_matches_a_published_example() -> None:
    # Fagerland, Lydersen and Laake, "Statistical Analysis of Contingency Tables" (2017),
    # chapter 8, the Newcombe square-and-add interval for the paired table 59 6 / 16 80
    # (as the contingencytables package's tests print it): -0.0621 (-0.1186 to -0.0046) for
    # the first rate less the second; ours is the second less the first
    d = paired_difference(59, 6, 16, 80)
    assert d.change == pytest.approx(0.0621, abs=5e-5)
    assert d.low == pytest.approx(0.0046, abs=5e-5)
    assert d.high == pytest.approx(0.1186, abs=5e-5)
    assert d.pairs == 161 and d.clear


pair_counts = st.tuples(*[st.integers(0, 60)] * 4)


@given(pair_counts)
def test_the_interval_holds_the_change_and_stays_within_minus_one_and_one(
    counts: tuple[int, int, int, int],
) -> None:
    both, first, second, neither = counts
    d = paired_difference(both, first, second, neither)
    assert -1.0 <= d.low <= d.change <= d.high <= 1.0
    # the other way round: the same interval, its sign turned
    back = paired_difference(both, second, first, neither)
    assert back.change == pytest.approx(-d.change, abs=1e-12)
    assert (back.low, back.high) == pytest.approx((-d.high, -d.low), abs=1e-12)


def test_no_pairs_say_nothing_and_negative_counts_are_refused() -> None:
    d = paired_difference(0, 0, 0, 0)
    assert (d.change, d.low, d.high, d.pairs, d.clear) == (0.0, -1.0, 1.0, 0, False)
    with pytest.raises(ValueError, match="cannot be negative"):
        paired_difference(1, -1, 0, 0)


def test_pairs_that_go_together_give_a_narrower_interval_than_pairs_that_do_not() -> None:
    # the same two rates (30% and 40% of 100): together, the 10 extra are all discordant one
    # way; apart, the pairs disagree far more often
    together = paired_difference(30, 0, 10, 60)
    apart = paired_difference(12, 18, 28, 42)
    assert together.change == pytest.approx(apart.change)
    assert together.high - together.low < apart.high - apart.low
    assert together.clear and not apart.clear


@pytest.mark.parametrize(
    "cells",
    [  # (both, first only, second only, neither): the true chances of a pair's four ends
        (0.30, 0.15, 0.10, 0.45),
        (0.40, 0.05, 0.05, 0.50),
        (0.10, 0.20, 0.05, 0.65),
    ],
)
def test_the_interval_covers_the_true_change_95_times_in_100(
    cells: tuple[float, float, float, float],
) -> None:
    """Exact coverage over every table of 40 pairs, each weighed by its multinomial chance
    (no sampling): the brute-force check of the interval's promise."""
    n = 40
    truth = cells[2] - cells[1]  # the second rate less the first
    covered = 0.0
    for a, b, c in product(range(n + 1), repeat=3):
        d = n - a - b - c
        if d < 0:
            continue
        chance = (
            comb(n, a) * comb(n - a, b) * comb(n - a - b, c)
            * cells[0] ** a * cells[1] ** b * cells[2] ** c * cells[3] ** d
        )  # fmt: skip
        found = paired_difference(a, b, c, d)
        if found.low <= truth <= found.high:
            covered += chance
    assert 0.93 <= covered <= 0.985


def test_games_are_paired_by_their_number_and_the_other_side_swaps_wins_and_losses() -> None:
    draw = 1
    base = bytes([WIN, WIN, LOSS, draw, LOSS, WIN])
    variant = bytes([WIN, LOSS, WIN, WIN, LOSS, draw, WIN])  # a 7th game: no pair, not read
    wins = paired_change(base, variant, WIN)
    assert wins == paired_difference(1, 2, 2, 1)
    assert paired_change(base, variant, LOSS) == paired_difference(1, 1, 1, 3)
    assert compare(base, variant).wins == wins
    assert from_the_other_side(base) == bytes([LOSS, LOSS, WIN, draw, WIN, LOSS])


def test_a_sweep_compares_each_variant_with_its_list_game_by_game(tmp_path: Path) -> None:
    done = run_cli("sweep", str(DATA / "sweep.yaml"), "--workers", "1", "--games", "12",
                   "--json", "--no-store", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    (variant,) = data["variants"]
    assert variant["variant"] == "riflemen for the MMG"
    assert (variant["list"], variant["row"]) == tuple(data["rows"])
    assert variant["points_added"] == -10  # 40 points of riflemen for a 50-point MMG
    (change,) = variant["against"]
    (base,), (swapped,) = data["cells"]
    assert change["wins"]["pairs"] == 12
    assert change["wins"]["change"] == pytest.approx(swapped["rate"] - base["rate"])
    assert change["wins"]["low"] <= change["wins"]["change"] <= change["wins"]["high"]
    shown = run_cli("sweep", str(DATA / "sweep.yaml"), "--workers", "1", "--games", "12",
                    "--no-store", cwd=tmp_path)  # fmt: skip
    said = " ".join(shown.stdout.split())
    assert "What each variant changes" in said and "12 pairs of games" in said
    assert "(against Grenadier Patrol, -10 points)" in said


def test_a_variants_list_left_out_of_the_rows_is_added_and_read_from_its_mirror(
    tmp_path: Path,
) -> None:
    """The variant's own list is only a column here: it becomes a row, and its cell against
    the other patrol is the mirror of that patrol's, read from the other side."""
    text = (DATA / "sweep.yaml").read_text()
    text = text.replace("lists: [patrol-a.yaml]", "lists: [patrol-b.yaml]")
    text = text.replace("against: [patrol-b.yaml]", "against: [patrol-b.yaml, patrol-a.yaml]")
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    (tmp_path / "sweep.yaml").write_text(text)
    done = run_cli("sweep", "sweep.yaml", "--workers", "1", "--games", "10", "--seed", "5",
                   "--json", "--no-store", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["rows"] == [
        "Rifle Patrol",
        "Grenadier Patrol",
        "Grenadier Patrol (riflemen for the MMG)",
    ]
    (_, b_v_a), (a_v_b, _), (swapped_v_b, swapped_v_a) = data["cells"]
    assert a_v_b["mirrored"] and not swapped_v_b["mirrored"] and not swapped_v_a["mirrored"]
    (variant,) = data["variants"]
    against_b, against_a = variant["against"]
    assert against_a is None  # its list against itself was not played: nothing to pair with
    # the list's wins against B are B's losses in B's own games: read the right way round
    assert against_b["wins"]["change"] == pytest.approx(swapped_v_b["rate"] - a_v_b["rate"])
    assert a_v_b["rate"] != b_v_a["rate"]  # (read the wrong way round, the test would fail)


def test_a_sweeps_picture_shows_each_variants_changes_beside_the_heat_map(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kriegsspiel.render.plots as plots

    drawn: list[object] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig))
    change = compare(bytes([WIN, LOSS, WIN, LOSS]), bytes([WIN, WIN, WIN, LOSS])).to_json()
    cell = {"rate": 0.5, "low": 0.2, "high": 0.8}
    variant = {"variant": "riflemen", "against": [change, None]}
    plots.plot_heatmap(["a", "a'"], ["b", "a"], [[cell, None], [cell, cell]], "t", "x.png")
    plots.plot_heatmap(["a", "a'"], ["b", "a"], [[cell, None], [cell, cell]], "t", "x.png",
                       [variant])  # fmt: skip
    alone, beside = drawn
    assert [ax.get_title() for ax in alone.axes[:1]] == ["t"]  # (and its colour bar)
    changes = beside.axes[1]
    assert changes.get_title() == "What each variant changes"
    assert [t.get_text() for t in changes.get_yticklabels()] == ["riflemen\nv b"]
    # the wins' point and interval, in percentage points: +25 (one pair in four turned)
    (wins_line, *_), *_ = changes.containers
    assert wins_line.get_xdata()[0] == pytest.approx(25.0)
