"""A variant against its list: the paired difference of two rates, and how a sweep uses it."""

from __future__ import annotations

import json
from itertools import product
from math import comb
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.render.evaluation_text import per_point
from kriegsspiel.sim.compare import LOSS, WIN, compare, paired_change
from kriegsspiel.sim.matchup import Matchup
from kriegsspiel.sim.runner import evaluate
from kriegsspiel.sim.stats import paired_difference
from kriegsspiel.sim.sweep import load_sweep

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
def test_the_interval_holds_the_change_narrows_with_more_pairs_and_turns_with_them(
    counts: tuple[int, int, int, int],
) -> None:
    both, first, second, neither = counts
    d = paired_difference(both, first, second, neither)
    if d.pairs:  # (strictly: the bounds are kept to the change only against rounding)
        assert -1.0 <= d.low < d.change < d.high <= 1.0
        more = paired_difference(4 * both, 4 * first, 4 * second, 4 * neither)
        assert more.change == pytest.approx(d.change)
        assert more.high - more.low < d.high - d.low
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


def test_games_are_paired_by_their_number() -> None:
    draw = 1
    base = bytes([WIN, WIN, WIN, LOSS, LOSS, draw])
    variant = bytes([WIN, WIN, LOSS, WIN, draw, LOSS, WIN])  # a 7th game: no pair, not read
    wins = paired_change(base, variant, WIN)
    assert wins == paired_difference(2, 1, 1, 2)
    assert paired_change(base, variant, LOSS) == paired_difference(0, 2, 2, 2)
    # paired out of order, the same games would give other counts
    assert paired_change(base, variant[::-1], WIN) != wins
    assert paired_change(base, bytes(sorted(variant)), WIN) != wins
    assert compare(base, variant).wins == wins


def test_an_evaluation_keeps_no_winners_unless_asked() -> None:
    matchup = load_sweep(str(DATA / "sweep.yaml")).grids[0][0][0]
    assert evaluate(matchup, 4, 3).tally.winners is None
    kept = evaluate(matchup, 4, 3, keep_winners=True).tally.winners
    assert kept is not None and len(kept) == 4


def _winners(matchup: Matchup, games: int, seed: int, precision: float | None) -> bytes:
    """One cell's games, winner by winner, as an evaluation of its own finds them."""
    return _cell(matchup, games, seed, precision)[0]


def _cell(
    matchup: Matchup, games: int, seed: int, precision: float | None
) -> tuple[bytes, list[dict[str, Any]]]:
    """One cell's games as an evaluation of its own finds them: winner by winner, and how
    each unit of its first army fared."""
    found = evaluate(matchup, games, seed, precision=precision, keep_winners=True)
    units = [
        {k: v for k, v in u.items() if k != "army"}
        for u in found.tally.to_json()["units"]
        if u["army"] == "A"
    ]
    return bytes(found.tally.winners or b""), units


@pytest.mark.parametrize(
    "options",
    [
        ["--workers", "2", "--no-store"],
        ["--workers", "1", "--results", "r.sqlite"],  # run twice: read back the second time
        # cells of other lengths (at 0.11: 0.12's came out even once dice were rolled one by one)
        ["--workers", "1", "--no-store", "--precision", "0.11"],
    ],
)
def test_a_sweep_pairs_each_variants_games_with_its_lists_game_by_game(
    tmp_path: Path, options: list[str]
) -> None:
    """The sweep's changes are exactly the paired intervals of the two cells' games, taken
    game by game: however the games were played, read back or stopped."""
    games = 200 if "--precision" in options else 24
    args = ["sweep", str(DATA / "sweep.yaml"), "--games", str(games), "--json", *options]
    for _ in range(2 if "--results" in options else 1):
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        sweep = load_sweep(str(DATA / "sweep.yaml"))
        precision = 0.11 if "--precision" in options else None
        base, base_units = _cell(sweep.grids[0][0][0], games, 3, precision)
        variant, variant_units = _cell(sweep.grids[0][1][0], games, 3, precision)
        ((change,),) = [v["against"] for v in data["variants"]]
        assert change == {
            "opponent": "Rifle Patrol",
            **compare(base, variant).to_json(),
            # the MMG team, second in patrol A, as it fared in A's games; its riflemen in B's
            "taken_out": [base_units[1]],
            "brought_in": [variant_units[1]],
        }
        assert change["taken_out"][0]["unit"] == "MG 42 MMG Team"
        assert change["brought_in"][0]["unit"] == "Rifle section"
        assert change["wins"]["pairs"] == min(len(base), len(variant))
        if precision is not None:
            assert len(base) != len(variant)  # (so the pairs stop with the shorter cell)


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
    assert "(compared with Grenadier Patrol, -10 points)" in said
    # how the units it changed fared: the MMG in its list's games, the riflemen in its own
    assert "The units each variant changes" in said
    assert "out: MG 42 MMG" in said and "in: Rifle section" in said  # (a narrow table)
    for unit in (variant["against"][0]["taken_out"][0], variant["against"][0]["brought_in"][0]):
        rate = unit["survival"]
        survived = f"{rate['rate']:.0%} ({rate['low']:.0%}–{rate['high']:.0%})"
        assert f"{survived} │" in said and f"{per_point(unit)} a point │" in said


def test_a_variants_list_left_out_of_the_rows_is_added_and_played_from_its_own_side(
    tmp_path: Path,
) -> None:
    """The variant's own list is only a column here: it becomes a row, and its cell against
    the other patrol is played from its own side (as the variant's is: each pair of games
    starts from the same seed on the same sides), though the table reaches it after the
    other patrol's cell against it, which is then read from it as its mirror."""
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
    assert b_v_a["mirrored"] and not a_v_b["mirrored"]
    assert not swapped_v_b["mirrored"] and not swapped_v_a["mirrored"]
    assert "the games of Grenadier Patrol v Rifle Patrol, from the other side" in " ".join(
        done.stderr.split()
    )
    (variant,) = data["variants"]
    against_b, against_a = variant["against"]
    assert against_a is None  # its list against itself was not played: nothing to pair with
    sweep = load_sweep(str(tmp_path / "sweep.yaml"))
    base = _winners(sweep.grids[0][1][0], 10, 5, None)  # A v B, played from A's side
    swapped = _winners(sweep.grids[0][2][0], 10, 5, None)
    assert {k: against_b[k] for k in ("opponent", "wins", "losses")} == {
        "opponent": "Rifle Patrol",
        **compare(base, swapped).to_json(),
    }
    assert against_b["wins"]["change"] == pytest.approx(swapped_v_b["rate"] - a_v_b["rate"])


def test_variants_of_one_name_are_refused_at_the_sweeps_line(tmp_path: Path) -> None:
    text = (DATA / "sweep.yaml").read_text()
    start, end = text.index("  - name: riflemen for the MMG"), text.index("against:")
    (tmp_path / "sweep.yaml").write_text(text[:end] + text[start:end] + text[end:])
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    done = run_cli("sweep", "sweep.yaml", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    line = text[:end].count("\n") + 1  # the second variant's name, where the first ended
    assert (
        f"sweep.yaml: line {line}, field variants.1.name: each variant needs a name of its own: "
        "'riflemen for the MMG' is also the name of variants.0"
    ) in done.stderr
    assert "Traceback" not in done.stderr


def _patrols_in(folder: Path) -> None:
    for name in ("patrol-a.yaml", "patrol-b.yaml", "skirmish.yaml"):
        (folder / name).write_text((DATA / name).read_text())


def test_two_lists_of_one_name_are_told_apart_by_their_files(tmp_path: Path) -> None:
    """A copy of a list, changed but not renamed, is named with its file in the table."""
    _patrols_in(tmp_path)
    copy = (DATA / "patrol-a.yaml").read_text().replace("quality: regular", "quality: veteran", 1)
    assert copy != (DATA / "patrol-a.yaml").read_text()
    (tmp_path / "copy.yaml").write_text(copy.replace("points: 173", "points: 173"))
    text = (
        (DATA / "sweep.yaml")
        .read_text()
        .replace("lists: [patrol-a.yaml]", "lists: [patrol-a.yaml, copy.yaml]")
    )
    (tmp_path / "sweep.yaml").write_text(text)
    done = run_cli("sweep", "sweep.yaml", "--workers", "1", "--json", "--no-store", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rows"]
    assert rows[:2] == ["Grenadier Patrol (patrol-a.yaml)", "Grenadier Patrol (copy.yaml)"]
    assert rows[2] == "Grenadier Patrol (riflemen for the MMG)"  # its own name: no file


def test_lists_of_one_name_are_told_apart_by_file_name_or_by_path_where_those_clash(
    tmp_path: Path,
) -> None:
    """Run from elsewhere, a list's file is a whole path: its name is enough to tell it
    apart, unless two of the lists of one name share a file name too."""
    _patrols_in(tmp_path)
    text = (DATA / "patrol-a.yaml").read_text()
    (tmp_path / "other").mkdir()
    (tmp_path / "copy.yaml").write_text(text.replace("quality: regular", "quality: veteran", 1))
    (tmp_path / "other" / "copy.yaml").write_text(text.replace("regular", "inexperienced", 1))
    sweep = (
        (DATA / "sweep.yaml")
        .read_text()
        .replace("lists: [patrol-a.yaml]", "lists: [patrol-a.yaml, copy.yaml]")
    )
    (tmp_path / "sweep.yaml").write_text(
        sweep.replace("against: [patrol-b.yaml]", "against: [patrol-b.yaml, other/copy.yaml]")
    )
    (tmp_path / "elsewhere").mkdir()
    done = run_cli("sweep", str(tmp_path / "sweep.yaml"), "--workers", "1", "--json",
                   "--no-store", "--games", "2", cwd=tmp_path / "elsewhere")  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["rows"][:2] == [
        "Grenadier Patrol (patrol-a.yaml)",
        f"Grenadier Patrol ({tmp_path / 'copy.yaml'})",
    ]
    assert data["columns"] == ["Rifle Patrol", f"Grenadier Patrol ({tmp_path / 'other/copy.yaml'})"]


def test_a_swap_naming_a_unit_two_units_share_is_refused(tmp_path: Path) -> None:
    _patrols_in(tmp_path)
    text = (DATA / "patrol-a.yaml").read_text()
    assert text.count("name: MG 42 MMG Team") == 1
    (tmp_path / "patrol-a.yaml").write_text(
        text.replace("name: Grenadier Squad", "name: MG 42 MMG Team")
    )
    (tmp_path / "sweep.yaml").write_text((DATA / "sweep.yaml").read_text())
    done = run_cli("sweep", "sweep.yaml", "--no-store", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "patrol-a.yaml has 2 units called 'MG 42 MMG Team'" in done.stderr
    assert "field variants.0.replace" in done.stderr and "Traceback" not in done.stderr


def test_a_sweep_whose_variants_meet_only_their_own_list_says_so(tmp_path: Path) -> None:
    _patrols_in(tmp_path)
    text = (
        (DATA / "sweep.yaml")
        .read_text()
        .replace("against: [patrol-b.yaml]", "against: [patrol-a.yaml]")
    )
    (tmp_path / "sweep.yaml").write_text(text)
    done = run_cli("sweep", "sweep.yaml", "--workers", "1", "--no-store", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "no variant could be set against its list" in said
    assert "What each variant changes" not in said


def test_a_sweeps_picture_shows_each_variants_changes_beside_the_heat_map(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kriegsspiel.render.plots as plots

    drawn: list[object] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig))
    change = compare(bytes([WIN, LOSS, WIN, LOSS]), bytes([WIN, WIN, WIN, LOSS])).to_json()
    cell = {"rate": 0.5, "low": 0.2, "high": 0.8}
    variant = {"variant": "riflemen", "list": "a", "against": [change, None]}
    plots.plot_heatmap(["a", "a'"], ["b", "a"], [[cell, None], [cell, cell]], "t", "x.png")
    plots.plot_heatmap(["a", "a'"], ["b", "a"], [[cell, None], [cell, cell]], "t", "x.png",
                       [variant])  # fmt: skip
    alone, beside = drawn
    # the title over the whole picture, above it (over the heat map it ran on over the
    # colour bar's label)
    assert alone.get_suptitle() == "t" and alone.axes[0].get_title() == ""
    changes = beside.axes[1]
    assert changes.get_title() == "What each variant changes"
    assert [t.get_text() for t in changes.get_yticklabels()] == ["riflemen (a)\nv b"]
    # the wins' point and interval, in percentage points: +25 (one pair in four turned)
    (wins_line, *_), *_ = changes.containers
    assert wins_line.get_xdata()[0] == pytest.approx(25.0)


def test_a_heat_maps_cell_text_reads_on_its_colour_and_marks_a_mirror(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from matplotlib.colors import to_rgb

    import kriegsspiel.render.plots as plots

    drawn: list[object] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig))
    rates = [i / 10 for i in range(11)]  # no draws: wins less losses from -100% to +100%
    cells = [[{"rate": r, "low": r, "high": r, "draws": {"rate": 0.0}}] for r in rates]
    plots.plot_heatmap([f"r{i}" for i in range(11)], ["b"], cells, "t", "x.png")
    (ax, *_) = drawn[0].axes  # type: ignore[attr-defined]
    image = ax.get_images()[0]
    inks = []
    for text, rate in zip(ax.texts, rates, strict=True):
        cell = image.cmap(image.norm(2 * rate - 1))
        ink = to_rgb(text.get_color())
        light, dark = sorted((plots._luminance(cell), plots._luminance(ink)), reverse=True)
        assert (light + 0.05) / (dark + 0.05) >= 4.5, (rate, ink)  # WCAG's contrast for text
        inks.append(text.get_color())
    assert inks[0] == inks[-1] == "white" and inks[5] == "black"
    mirrored = [[{**cells[3][0], "mirrored": True}], [cells[7][0]]]
    plots.plot_heatmap(["a", "b"], ["c"], mirrored, "t", "x.png")
    texts = [t.get_text() for t in drawn[1].axes[0].texts]  # type: ignore[attr-defined]
    assert texts[0].endswith("\n(mirror)") and "mirror" not in texts[1]


def test_a_sweeps_picture_tells_how_the_units_a_variant_changes_fared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kriegsspiel.render.plots as plots

    drawn: list[object] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig))
    change = compare(bytes([WIN, LOSS]), bytes([WIN, WIN])).to_json()
    walker = {"unit": "Walker", "points": 170, "survival": {"rate": 0.32}, "damage_per_point": 0.28,
              "damage_per_point_interval": [0.1, 0.46]}  # fmt: skip
    tank = {"unit": "Panzer IV", "points": 220, "survival": {"rate": 0.81}, "damage_per_point": 0.9,
            "damage_per_point_interval": None}  # fmt: skip
    change |= {"taken_out": [walker], "brought_in": [tank]}
    cell = {"rate": 0.5, "low": 0.2, "high": 0.8}
    variant = {"variant": "tank", "list": "a", "against": [change, None]}
    plots.plot_heatmap(["a", "a'"], ["b", "a"], [[cell, None], [cell, cell]], "t", "x.png",
                       [variant])  # fmt: skip
    (label,) = [t.get_text() for t in drawn[0].axes[1].get_yticklabels()]
    assert label.splitlines() == [
        "tank (a)",
        "v b",
        "out: Walker: survived 32%, 0.28 (0.10–0.46) a point",
        "in: Panzer IV: survived 81%, 0.90 a point",  # (one game: no interval)
    ]


def test_a_sweeps_picture_gives_a_variant_its_own_points_not_its_opponents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under a variant's name stood "v US Army Tesla Company\n1000 points", the heat map's
    column label: the opponent's points read as the variant's, and its own change in points
    was nowhere. The label gives the variant's points and their change, and the opponent
    by name."""
    import kriegsspiel.render.plots as plots

    drawn: list[object] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig))
    change = compare(bytes([WIN, LOSS]), bytes([WIN, WIN])).to_json() | {"opponent": "Tesla"}
    cell = {"rate": 0.5, "low": 0.2, "high": 0.8}
    variant = {"variant": "MMG", "list": "Schwerefeld", "points": 930, "points_added": -70,
               "against": [change, None]}  # fmt: skip
    columns = ["Tesla\n1000 points", "Schwerefeld\n1000 points"]
    plots.plot_heatmap(["Schwerefeld\n1000 points", "MMG\n930 points"], columns,
                       [[cell, None], [cell, cell]], "t", "x.png", [variant])  # fmt: skip
    (label,) = [t.get_text() for t in drawn[0].axes[1].get_yticklabels()]
    assert label.splitlines() == ["MMG (Schwerefeld)", "930 points, -70 on its list", "v Tesla"]


def test_a_variants_list_written_out_plays_and_reads_back_the_sweeps_games(
    tmp_path: Path,
) -> None:
    """--lists-to writes each variant's list; evaluated on its own against the same
    opponent with the same seed, it reads back the games the sweep stored for it."""
    _patrols_in(tmp_path)
    (tmp_path / "sweep.yaml").write_text((DATA / "sweep.yaml").read_text())
    done = run_cli(
        "sweep",
        "sweep.yaml",
        "--workers",
        "1",
        "--games",
        "6",
        "--json",
        "--lists-to",
        "lists",
        cwd=tmp_path,
    )  # fmt: skip (the folder is made)
    assert done.returncode == 0, done.stderr
    written = tmp_path / "lists" / "patrol-a--riflemen-for-the-mmg.yaml"
    assert f"variant list written to {Path('lists') / written.name}" in done.stderr
    swapped = json.loads(done.stdout)["cells"][1][0]
    again = run_cli("evaluate", "--ruleset", "konflikt47", "--scenario", "skirmish.yaml",
                    "--army", str(written), "--army", "patrol-b.yaml", "--players",
                    "random,random", "--games", "6", "--seed", "3", "--workers", "1", "--json",
                    cwd=tmp_path)  # fmt: skip
    assert again.returncode == 0, again.stderr
    alone = json.loads(again.stdout)
    assert (alone["games_reused"], alone["games_played"]) == (6, 0)
    assert alone["army_a_wins"]["count"] == swapped["count"]
    # a file of the same name with other contents is left alone, and nothing is played
    written.write_text("# mine\n")
    refused = run_cli("sweep", "sweep.yaml", "--lists-to", "lists", cwd=tmp_path)
    assert refused.returncode == 2 and "is there already with other contents" in refused.stderr
    assert written.read_text() == "# mine\n"
    nowhere = run_cli("sweep", "sweep.yaml", "--lists-to", "no/such", cwd=tmp_path)
    assert nowhere.returncode == 2 and "is not a folder" in nowhere.stderr  # (no parent)
    assert not (tmp_path / "no").exists()


def test_a_variants_failing_game_names_a_command_that_plays_it_from_its_written_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant's list has no file of its own: the command that replays its failed game
    names the file the sweep's --lists-to writes it to (in the folder given, or a folder
    LISTS, with how to write it there), and that command plays the game."""
    import shlex

    import kriegsspiel.sim.outcome as outcome
    import kriegsspiel.sim.runner as runner
    from kriegsspiel.sim.commands import RunOptions
    from kriegsspiel.sim.executors import InProcess
    from kriegsspiel.sim.outcome import play_one
    from kriegsspiel.sim.runner import SimulationError
    from kriegsspiel.sim.sweep_command import run_sweep

    class Here(InProcess):
        def __init__(self, workers: int) -> None:
            pass

    def variants_fail(matchup: Matchup, index: int, seed: int) -> object:
        if matchup.armies[0].as_file is not None:  # (army A is the variant)
            raise RuntimeError("boom")
        return play_one(matchup, index, seed)

    _patrols_in(tmp_path)
    (tmp_path / "sweep.yaml").write_text((DATA / "sweep.yaml").read_text())
    (tmp_path / "lists").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(outcome, "play_one", variants_fail)
    monkeypatch.setattr(runner, "local_pool", Here)
    options = RunOptions(workers=1)
    with pytest.raises(SimulationError) as unwritten:
        run_sweep("sweep.yaml", 2, None, options, None, True)
    with pytest.raises(SimulationError) as written:
        run_sweep("sweep.yaml", 2, None, options, None, True, lists_to="lists")
    file = "patrol-a--riflemen-for-the-mmg.yaml"
    told = str(unwritten.value)
    assert told.startswith("game 0 failed (RuntimeError: boom)")
    assert f"--army LISTS/{file} --army patrol-b.yaml" in told
    assert told.endswith(
        " (a variant's list: 'kriegsspiel sweep sweep.yaml --lists-to LISTS' writes it to a "
        "folder LISTS, before any game)"
    )
    command = str(written.value).split("Reproduce it with: ")[1]
    assert command == told.split("Reproduce it with: ")[1].split(" (")[0].replace("LISTS", "lists")
    played = run_cli(*shlex.split(command)[1:], cwd=tmp_path)  # (play ...)
    assert played.returncode == 0, played.stderr


def test_variants_whose_names_come_out_alike_are_written_to_files_of_their_own(
    tmp_path: Path,
) -> None:
    _patrols_in(tmp_path)
    text = (DATA / "sweep.yaml").read_text()
    start, end = text.index("  - name: riflemen for the MMG"), text.index("against:")
    block = text[start:end]
    more = "".join(
        block.replace("riflemen for the MMG", name)
        for name in ("Riflemen for the MMG!", '"+++"', '"***"')
    )
    (tmp_path / "sweep.yaml").write_text(text[:end] + more + text[end:])
    (tmp_path / "out").mkdir()
    done = run_cli("sweep", "sweep.yaml", "--no-store", "--games", "2", "--workers", "1",
                   "--lists-to", "out", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert files == [
        "patrol-a--riflemen-for-the-mmg-1.yaml",
        "patrol-a--riflemen-for-the-mmg.yaml",
        "patrol-a--variant-3.yaml",
        "patrol-a--variant.yaml",
    ]
    names = {yaml.safe_load((tmp_path / "out" / f).read_text())["name"] for f in files}
    assert len(names) == 4  # each file holds its own variant


def test_a_list_that_is_not_plain_data_is_refused_not_a_traceback(tmp_path: Path) -> None:
    """Such a list is hashed by its text (it cannot be by its data) and refused by the checks."""
    _patrols_in(tmp_path)
    with (tmp_path / "patrol-a.yaml").open("a") as f:
        f.write("1: x\n")
    (tmp_path / "sweep.yaml").write_text((DATA / "sweep.yaml").read_text())
    done = run_cli("sweep", "sweep.yaml", "--no-store", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "patrol-a.yaml" in done.stderr


def test_a_misspelt_field_of_a_variant_is_told_with_the_fields_as_the_file_spells_them(
    tmp_path: Path,
) -> None:
    _patrols_in(tmp_path)
    (tmp_path / "sweep.yaml").write_text(
        (DATA / "sweep.yaml").read_text().replace("    replace:", "    replce:")
    )
    done = run_cli("sweep", "sweep.yaml", "--no-store", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    said = " ".join(done.stderr.split())
    assert "field variants.0.replce: there is no such field here (did you mean 'replace'?)" in said
    assert "the fields here are name, list, replace, with" in said and "with_" not in said
    assert "Value error" not in said


def test_a_sweeps_heat_map_sets_each_rows_field_apart_in_a_last_column(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kriegsspiel.render.plots as plots

    drawn: list[Any] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig))
    cell = {"rate": 0.5, "low": 0.2, "high": 0.8}
    field = [{"rate": 0.25, "low": 0.1, "high": 0.45, "opponents": 2}, None]
    plots.plot_heatmap(["a", "b"], ["b", "a"], [[cell, None], [None, cell]], "t", "x.png",
                       field=field)  # fmt: skip
    alone = {**cell, "opponents": 1}  # (each row meets one opponent: the field repeats it)
    plots.plot_heatmap(["a"], ["b"], [[cell]], "t", "x.png", field=[alone])
    wide, narrow = (fig.axes[0] for fig in drawn)
    labels = [t.get_text() for t in wide.get_xticklabels()]
    assert labels == ["b", "a", "the field (pooled)"]
    texts = [t.get_text() for t in wide.texts]
    # the field's cell says how many opponents it pools, and a caption says what it is
    assert "25%\n[10%, 45%]\nv 2 opponents" in texts and "(no opponent)" in texts
    assert texts.count("(itself)") == 2
    assert wide.get_xlabel() == plots.FIELD_CAPTION
    assert "rows may face different opponents" in " ".join(plots.FIELD_CAPTION.split())
    assert [t.get_text() for t in narrow.get_xticklabels()] == ["b"]  # (its cell says it all)
    assert narrow.get_xlabel() == ""  # (no field column: nothing to caption)
    # a row of draws is told from a row of losses
    drawn.clear()
    plots.plot_heatmap(["a"], ["b"], [[{**cell, "draws": {"rate": 1.0}, "rate": 0.0, "low": 0.0}]], "t",
                       "x.png")  # fmt: skip
    (all_draws,) = drawn
    assert "0%\n[0%, 80%]\ndraws 100%" in [t.get_text() for t in all_draws.axes[0].texts]


def test_a_heat_maps_colour_is_wins_less_losses_so_draws_are_not_losses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A row that wins 34%, draws 38% and loses 28% is ahead, and is coloured so: by its win
    rate alone (under a half) it was drawn red, as a list that loses."""
    import kriegsspiel.render.plots as plots

    drawn: list[Any] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig))
    ahead = {"rate": 0.34, "low": 0.25, "high": 0.44, "draws": {"rate": 0.38}}
    drawing = {"rate": 0.0, "low": 0.0, "high": 0.2, "draws": {"rate": 1.0}}
    losing = {"rate": 0.1, "low": 0.05, "high": 0.2, "draws": {"rate": 0.0}}
    plots.plot_heatmap(["a", "b", "c"], ["x"], [[ahead], [drawing], [losing]], "t", "x.png")
    (fig,) = drawn
    (image,) = fig.axes[0].images
    assert [round(float(v), 2) for v in image.get_array().ravel()] == [0.06, 0.0, -0.8]
    assert image.get_clim() == (-1, 1)  # (0, the middle of the scale, is as many wins as losses)
    assert "wins less losses" in fig.axes[1].get_ylabel()
