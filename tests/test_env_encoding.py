"""The fixed numbering of decisions (kriegsspiel.env.encoding) and the observation arrays
(kriegsspiel.env.observe), checked against the engine's own legal actions and state."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from conftest import one_unit_armies
from hypothesis import given
from hypothesis import strategies as st

import kriegsspiel
from kriegsspiel.ai.players import chance_outcome
from kriegsspiel.core.game import CHANCE
from kriegsspiel.env.encoding import (
    MODES,
    REACTIONS,
    SUPPORT_CALLS,
    WAYS,
    ActionEncoding,
    NotEncodedError,
)
from kriegsspiel.env.observe import GAME_FEATURES, UNIT_FEATURES, Observer
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame


def random_decisions(ruleset: str, seed: int, limit: int = 10_000):  # type: ignore[no-untyped-def]
    """(game, its encoding) at each decision of a random game, the game moving on after."""
    game = kriegsspiel.new_game(ruleset, seed=seed)
    encoding = ActionEncoding.of(game)
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_terminal():
            return
        if game.current_player() == CHANCE:
            game.apply_action(chance_outcome(game, rng))
            continue
        yield game, encoding
        game.apply_action(rng.choice(game.legal_actions()))


def test_the_layout_is_the_documented_one() -> None:
    game = kriegsspiel.new_game()
    enc = ActionEncoding.of(game)
    n, g = len(game.units), 24 * 16  # 72" x 48" in 3" cells
    assert (enc.units, enc.columns, enc.rows, enc.cells) == (n, 24, 16, g)
    per_unit = 4 + n * (1 + len(SUPPORT_CALLS) + len(MODES)) + 2 * g
    assert enc.per_unit == per_unit == 4 + 5 * n + 2 * g
    size = n * per_unit + (n + 1) * WAYS + 2 + len(REACTIONS) + (n + 1) + 2 + n
    assert enc.size == size
    # a few indices by the formula, and what they say
    assert enc.first_index(game, Action("order", unit=2, order="Down")) == 2 * per_unit + 2
    fire = Action("order", unit=1, order="Fire", target=n - 1)
    assert enc.first_index(game, fire) == per_unit + 4 + n - 1
    call = Action("order", unit=0, order="Fire", target=3, choice="air strike")
    assert enc.first_index(game, call) == 4 + n + n + 3
    assault = Action("order", unit=0, order="Run", target=5, choice="point-blank", to=(1, 1))
    assert enc.first_index(game, assault) == 4 + 3 * n + n + 5
    run = Action("order", unit=0, order="Run", to=(7.0, 4.0))  # cell column 2, row 1
    assert enc.first_index(game, run) == 4 + 5 * n + g + 24 + 2
    assert enc.first_index(game, Action("draw", side=1)) == n * per_unit + (n + 1) * WAYS + 1
    assert enc.describe(2 * per_unit + 2, game) == f"{game.units[2].name}: Down"
    assert enc.describe(4 + 5 * n + g + 26) == 'unit 0: Run to the cell 6-9", 3-6"'
    assert enc.describe(enc.size - 1, game).startswith("friendly fire at ")
    # each index says what encode() gives it: the edition's only way is the first block's
    assert enc.describe(4 + 3 * n + 5) == "unit 0: assault unit 5 (hand-to-hand, or the only way)"
    assert enc.describe(4 + 3 * n + n + 5) == "unit 0: assault unit 5 (point-blank fire)"
    only = Action("order", unit=0, order="Run", target=5, to=(1, 1))
    assert enc.first_index(game, only) == 4 + 3 * n + 5
    assert enc.describe(4 + n + n + 3) == "unit 0: Fire, calling an air strike on unit 3"
    assert enc.describe(4 + n + 3) == "unit 0: Fire, calling a barrage on unit 3"


def test_cells_cover_the_table_edges_included() -> None:
    enc = ActionEncoding(3, 72, 48, cell=3)
    assert enc.cell_of(0, 0) == 0
    assert enc.cell_of(72, 48) == enc.cells - 1  # the far edge belongs to the last cell
    assert enc.cell_of(2.999, 3.0) == 24
    assert enc.centre(25) == (4.5, 4.5)
    odd = ActionEncoding(3, 50, 40, cell=6)  # a table not a whole number of cells across
    assert (odd.columns, odd.rows) == (9, 7)
    with pytest.raises(ValueError, match="positive number of inches"):
        ActionEncoding(3, 72, 48, cell=0)
    with pytest.raises(ValueError, match="from 0 to"):
        enc.describe(enc.size)


def test_an_action_the_numbering_does_not_know_is_refused_by_name() -> None:
    game = kriegsspiel.new_game()
    enc = ActionEncoding.of(game)
    with pytest.raises(NotEncodedError, match="'wave' is not a reaction"):
        enc.first_index(game, Action("react", side=0, unit=1, choice="wave"))
    with pytest.raises(NotEncodedError, match="not a unit of this game"):
        enc.first_index(game, Action("order", unit=99, order="Down"))
    with pytest.raises(NotEncodedError, match="needs a place"):
        enc.first_index(game, Action("order", unit=0, order="Advance"))


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_every_index_open_is_a_legal_action_and_round_trips(ruleset: str) -> None:
    """At every decision of random games: each open index (and follow-up) stands for
    legal actions; encoding any of them gives back its indices; and nothing but a move's
    second place in one cell is out of reach (every order, target, reaction and cell the
    engine offers has its index)."""
    decisions = lost = offered = follow_ups = 0
    for seed in range(1):
        for game, enc in random_decisions(ruleset, seed):
            decisions += 1
            legal = game.legal_actions()
            offered += len(legal)
            choices = enc.choices(game)
            assert all(0 <= i < enc.follow_up or enc.draw <= i < enc.size for i in choices)
            reached = set()
            for index, actions in choices.items():
                assert actions and all(a in legal for a in actions)
                if len(actions) == 1:
                    assert enc.encode(game, actions[0]) == (index, None)
                    reached.add(actions[0])
                    continue
                follow_ups += 1
                assert len({a.to for a in actions}) == 1  # one place, its endings
                ends = enc.follow_ups(actions)
                assert len(ends) == len(actions)  # no two endings share an index
                for second, action in ends.items():
                    assert enc.follow_up <= second < enc.draw
                    assert enc.encode(game, action) == (index, second)
                    reached.add(action)
            for action in legal:
                if action in reached:
                    continue
                lost += 1
                assert action.order in ("Advance", "Run") and action.to is not None
                assert not (action.order == "Run" and action.target is not None)  # no assault
                # out of reach only because its cell stands for another place
                assert enc.first_index(game, action) in choices
                with pytest.raises(NotEncodedError, match="is not what index"):
                    enc.encode(game, action)
    assert decisions > 50 and follow_ups > 0
    assert lost < 0.2 * offered  # 5-13% in the games measured (docs/environment.md)


def test_the_place_a_cell_stands_for_is_the_candidate_nearest_its_centre() -> None:
    for game, enc in random_decisions("konflikt47", 3):
        for index, actions in enc.choices(game).items():
            cell = enc.move_cell(index)
            if cell is None:
                continue  # not a move to a cell
            centre = np.array(enc.centre(cell))
            places = {
                a.to
                for a in game.legal_actions()
                if a.to is not None
                and a.target is None
                and a.unit == actions[0].unit
                and a.order == actions[0].order
                and enc.first_index(game, a) == index
            }
            chosen = actions[0].to
            assert chosen is not None
            best = min(np.linalg.norm(np.array(p) - centre) for p in places)
            assert np.linalg.norm(np.array(chosen) - centre) == pytest.approx(best)
        if game.turn > 1:
            return


@given(st.floats(-10, 90), st.floats(-10, 60))
def test_every_place_falls_in_one_cell_of_the_table(x: float, y: float) -> None:
    enc = ActionEncoding(4, 72, 48)
    cell = enc.cell_of(x, y)
    assert 0 <= cell < enc.cells
    cx, cy = enc.centre(cell)
    if 0 <= x < 72 and 0 <= y < 48:  # on the table: the cell holds the place
        assert abs(x - cx) <= 1.5 and abs(y - cy) <= 1.5


def _observer(game: BoltActionGame) -> Observer:
    return Observer(game, ActionEncoding.of(game))


def test_the_observation_counts_what_is_on_the_table() -> None:
    for game, enc in random_decisions("bolt-action-1", 5):
        if game.turn < 3:
            continue
        observer = Observer(game, enc)
        side = game.current_player()
        seen = observer.observe(game, side)
        planes, units, vector = seen["planes"], seen["units"], seen["game"]
        assert planes.shape == observer.shapes.planes and planes.dtype == np.float32
        assert units.shape == (len(game.units), len(UNIT_FEATURES))
        assert vector.shape == (len(GAME_FEATURES),)
        names = observer.shapes.plane_names
        # (a destroyed vehicle keeps its one model: the planes show only units in play)
        live = [u for u in game.units if not u.destroyed]
        mine = sum(len(u.alive_models) for u in live if u.side == side)
        theirs = sum(len(u.alive_models) for u in live if u.side != side)
        assert planes[names.index("my models")].sum() == mine
        assert planes[names.index("enemy models")].sum() == theirs
        points = sum(o.points for o in game.scenario.objectives)
        assert planes[names.index("objective points / 10")].sum() == pytest.approx(points / 10)
        for u in game.units:
            row = units[u.uid]
            assert row[0] == (u.side == side) and row[1] == (not u.destroyed)
            if not u.destroyed:
                assert row[3] == pytest.approx(u.anchor.x / game.table.width)
                assert row[7] == pytest.approx(u.pins / 10)
        dice = game.dice_in_cup()
        assert vector[1] * 20 == pytest.approx(dice[side])
        assert vector[2] * 20 == pytest.approx(dice[1 - side])
        decision = "order" if game.pending is None else game.pending.kind
        assert (
            vector[5 + [d.removeprefix("decision ") for d in GAME_FEATURES[5:]].index(decision)]
            == 1
        )
        # the other side sees the same facts from its side
        other = observer.observe(game, 1 - side)
        assert (other["units"][:, 0] == 1 - units[:, 0]).all()
        assert planes[names.index("my models")].tolist() == (
            other["planes"][names.index("enemy models")].tolist()
        )
        return
    pytest.fail("the game ended before turn 3")


def test_terrain_planes_are_the_share_of_each_cell_covered() -> None:
    from kriegsspiel.rulesets.bolt_action.game.table_rules import terrain_row

    game = kriegsspiel.new_game()
    observer = _observer(game)
    enc, names = observer.encoding, observer.shapes.plane_names
    planes = observer.observe(game, 0)["planes"]
    checked = 0
    for feature in game.table.features:
        xs = [p[0] for p in feature.polygon]
        ys = [p[1] for p in feature.polygon]
        if len(xs) != 4 or max(xs) - min(xs) < 9 or max(ys) - min(ys) < 9:
            continue
        # a rectangle 9" across holds the whole cell of a point 4.5" inside its corner
        row, col = divmod(enc.cell_of(min(xs) + 4.5, min(ys) + 4.5), enc.columns)
        category = terrain_row(game.rules, feature.category).category
        assert planes[names.index(f"terrain: {category}"), row, col] == 1.0
        if feature.blocks_line_of_sight:
            assert planes[names.index("blocks sight"), row, col] == 1.0
        checked += 1
    assert checked
    # a cell no feature touches has no terrain at all
    import shapely

    shapes = [shapely.Polygon(f.polygon) for f in game.table.features]
    for cell in range(enc.cells):
        x, y = enc.centre(cell)
        box = shapely.box(x - 1.5, y - 1.5, x + 1.5, y + 1.5)
        if not any(box.intersects(s) for s in shapes):
            row, col = divmod(cell, enc.columns)
            assert planes[: len(observer.categories) + 4, row, col].sum() == 0
            break
    else:
        pytest.fail("no open cell on the table")
    assert 0 < planes[: len(observer.categories) + 4].max() <= 1.0


def test_the_environment_guide_names_every_plane_and_feature() -> None:
    """docs/environment.md lists the arrays' contents; it must not fall behind the code."""
    from pathlib import Path

    guide = (Path(__file__).parent.parent / "docs" / "environment.md").read_text()
    flat = " ".join(guide.split())
    game = kriegsspiel.new_game()
    observer = _observer(game)
    for name in (*observer.shapes.plane_names, *UNIT_FEATURES, *GAME_FEATURES):
        shown = name if not name.startswith("terrain: ") else "terrain: <category>"
        assert f"`{shown}`" in flat, name
    enc = observer.encoding
    assert f"{enc.size:,}" in flat  # the standard matchup's count of indices


def test_a_reaction_shows_who_acts_and_who_is_acted_on() -> None:
    for game, enc in random_decisions("konflikt47", 1):
        pending = game.pending
        if pending is None or pending.kind != "shot-reaction":
            continue
        observer = Observer(game, enc)
        seen = observer.observe(game, pending.side)
        names = observer.shapes.plane_names
        shooter, target = pending.action.unit, pending.target
        involved = {shooter, target, *game.deciding_units()}
        models = sum(len(game.units[uid].alive_models) for uid in involved)
        assert seen["planes"][names.index("units deciding or acted on (models)")].sum() == models
        units = seen["units"]
        column = UNIT_FEATURES.index
        assert units[shooter, column("the pending order's unit")] == 1
        assert units[:, column("the pending order's unit")].sum() == 1
        assert units[target, column("decides now")] == 1
        assert seen["game"][GAME_FEATURES.index("decision shot-reaction")] == 1
        return
    pytest.fail("no shot came to a reaction")


@pytest.mark.parametrize(
    ("movers", "marked"),
    [({"vehicles"}, 1.0), ({"everyone"}, 1.0), ({"walkers"}, 0.0), (set(), 0.0)],
)
def test_ground_a_scenario_makes_impassable_to_vehicles_is_on_their_plane(
    movers: set[str], marked: float
) -> None:
    """The plane "impassable to vehicles" held only wrecks; a river a scenario makes
    impassable (``impassable_to``) is as closed to a vehicle, so it is on the plane too."""
    from kriegsspiel.core.table import Table, TerrainFeature

    game = kriegsspiel.new_game()
    river = TerrainFeature(
        "River", "open ground", "none", ((0, 21), (72, 21), (72, 27), (0, 27)), False,
        frozenset(movers),
    )  # fmt: skip
    game.table = Table(72, 48, (river,))
    observer = _observer(game)
    names = observer.shapes.plane_names
    plane = observer.observe(game, 0)["planes"][names.index("impassable to vehicles")]
    row, col = divmod(observer.encoding.cell_of(36, 24), observer.encoding.columns)
    assert plane[row, col] == marked
    assert plane.max() == marked


def test_the_table_is_not_turned_for_side_1_and_half_a_turn_maps_each_cell() -> None:
    """docs/environment.md: only "my" and "enemy" change with the side; the places are the
    table's own, and half a turn takes cell c to G - 1 - c and a place to 1 - x, 1 - y."""
    from pathlib import Path

    guide = " ".join((Path(__file__).parent.parent / "docs" / "environment.md").read_text().split())
    assert "The table is not turned for side 1." in guide
    assert "cell `c` becomes `G − 1 − c`" in guide
    game = kriegsspiel.new_game()
    observer = _observer(game)
    enc, names = observer.encoding, observer.shapes.plane_names
    seen = [observer.observe(game, side) for side in (0, 1)]
    mine, theirs = names.index("my models"), names.index("enemy models")
    assert np.array_equal(seen[1]["planes"][mine], seen[0]["planes"][theirs])
    assert np.array_equal(seen[0]["units"][:, 1:], seen[1]["units"][:, 1:])
    rows = np.flatnonzero(seen[1]["planes"][mine].sum(axis=1))
    assert rows.min() >= enc.rows // 2  # side 1's own models at the far rows, as on the table
    width, height = game.table.width, game.table.height
    for cell in range(enc.cells):  # (3" cells divide the 72" x 48" table)
        x, y = enc.centre(cell)
        assert enc.centre(enc.cells - 1 - cell) == (width - x, height - y)
        row, col = divmod(cell, enc.columns)  # planes[:, ::-1, ::-1] holds it at G - 1 - c
        assert divmod(enc.cells - 1 - cell, enc.columns) == (
            enc.rows - 1 - row,
            enc.columns - 1 - col,
        )
    column = UNIT_FEATURES.index
    for u in game.units:
        features = seen[1]["units"][u.uid]
        x_share = features[column("x (share of the table's width)")]
        assert x_share == pytest.approx(u.anchor.x / width)
        assert features[column("y (share of the table's height)")] == pytest.approx(
            u.anchor.y / height
        )


def test_cells_places_and_sides_out_of_range_are_refused_by_name() -> None:
    from kriegsspiel.errors import KriegsspielError

    game = kriegsspiel.new_game()
    observer = _observer(game)
    enc = observer.encoding
    for cell in (-1, enc.cells):
        with pytest.raises(KriegsspielError, match=f"no cell {cell} in this numbering: the cells"):
            enc.centre(cell)
    with pytest.raises(
        TypeError, match=r"a cell is a whole number from 0 to 383, not 1\.5"
    ) as wrong:
        enc.centre(1.5)  # type: ignore[arg-type]
    assert isinstance(wrong.value, KriegsspielError)
    assert enc.centre(np.int64(383)) == (70.5, 46.5)
    for x, y in ((float("nan"), 1.0), (1.0, float("inf")), ("1", 2.0)):
        with pytest.raises(KriegsspielError, match="a place is two finite numbers of inches"):
            enc.cell_of(x, y)  # type: ignore[arg-type]
    for side in (2, -1, True, "0"):
        with pytest.raises(KriegsspielError, match=f"side is 0 or 1 .* not {side!r}"):
            observer.observe(game, side)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="an index is a whole number") as wrong:
        enc.describe(2.0)  # type: ignore[arg-type]
    assert isinstance(wrong.value, KriegsspielError)


def test_a_cell_too_fine_for_the_numbering_is_refused_naming_the_smallest_allowed() -> None:
    """A cell of 0.01" (metres or feet mistaken for inches) made 1.2 billion indices and
    a reset that ate the machine's memory; it is refused when the numbering is made."""
    from kriegsspiel.env.encoding import MOST_INDICES, indices, smallest_cell
    from kriegsspiel.errors import KriegsspielError

    units = len(kriegsspiel.new_game().units)  # the standard Konflikt '47 set-up's 18
    assert smallest_cell(units, 72, 48) == 0.25
    below = ActionEncoding(units, 72.0, 48.0, 0.25)  # 288 x 192 cells
    assert below.size == indices(units, 288 * 192) == 1_992_472 <= MOST_INDICES
    assert indices(units, 289 * 193) > MOST_INDICES
    with pytest.raises(ValueError, match="cell") as refused:
        ActionEncoding(units, 72.0, 48.0, 0.249)  # 290 x 193 cells
    said = str(refused.value)
    assert not isinstance(refused.value, TypeError)
    assert isinstance(refused.value, KriegsspielError)
    for part in (
        'cell=0.249 cuts the 72" x 48" table into 290 x 193 cells',
        f"{indices(units, 290 * 193):,} action indices for its 18 units",
        "at most 2,000,000",
        "give a cell of 0.25 inches or more for this set-up",
    ):
        assert part in said
    # the smallest cell allowed is allowed, on other tables and set-ups too
    for units, width, height in ((18, 72.0, 48.0), (21, 72.0, 48.0), (2, 96.0, 48.0)):
        least = smallest_cell(units, width, height)
        assert ActionEncoding(units, width, height, least).size <= MOST_INDICES
        with pytest.raises(ValueError, match=f"give a cell of {least:g} inches or more"):
            ActionEncoding(units, width, height, least - 0.002)
    # a cell past counting is refused without counting (nor a traceback)
    with pytest.raises(ValueError, match="more than 2,000,000 cells a side"):
        ActionEncoding(18, 72.0, 48.0, 1e-300)


def test_a_cell_too_fine_for_the_environments_memory_is_refused(tmp_path: Path) -> None:
    """Two units on 0.084" cells were within the 2,000,000 indices, yet their reset took
    about 660 MB (the planes' bounds and terrain, cell by cell): the memory the planes
    take is bounded too, and the refusal names the smallest cell for that set-up."""
    from kriegsspiel.env.encoding import MOST_RESET_BYTES, reset_bytes, smallest_cell
    from kriegsspiel.env.observe import plane_names
    from kriegsspiel.env.versus_ai import VersusAIEnv
    from kriegsspiel.errors import KriegsspielError

    armies = one_unit_armies(tmp_path)
    planes = len(plane_names(kriegsspiel.new_game()))
    least = smallest_cell(2, 72, 48, planes)
    assert least == 0.166 and smallest_cell(2, 72, 48) == 0.084  # (the numbering alone)
    with pytest.raises(ValueError, match="cell") as refused:
        VersusAIEnv(armies=armies, cell=0.084)
    said = str(refused.value)
    assert not isinstance(refused.value, TypeError)
    for part in (
        'cell=0.084 cuts the 72" x 48" table into 858 x 572 cells',
        f"the environment's {planes} observation planes on 490,776 cells",
        f"about {reset_bytes(2, 490_776, planes) / 1e6:,.0f} MB",
        "at most 64 MB",
        "give a cell of 0.166 inches or more for this set-up (2 units on this table)",
    ):
        assert part in said
    for cell in (least - 0.001, 0.1):
        with pytest.raises(ValueError, match=r"give a cell of 0\.166 inches or more"):
            ActionEncoding(2, 72.0, 48.0, cell, planes=planes)
    fine = ActionEncoding(2, 72.0, 48.0, least, planes=planes)
    assert reset_bytes(2, fine.cells, planes) <= MOST_RESET_BYTES
    # a set-up whose indices bind first is told so, with the smallest cell of both limits
    with pytest.raises(ValueError, match=r"action indices .* give a cell of 0\.25 inches"):
        ActionEncoding(18, 72.0, 48.0, 0.2, planes=planes)
    for bad in (-1, 1.5):
        with pytest.raises(KriegsspielError, match="planes is a whole number 0 or more"):
            ActionEncoding(2, 72.0, 48.0, 3.0, planes=bad)  # type: ignore[arg-type]


def test_an_environment_on_the_finest_cell_allowed_stays_within_its_bound(
    tmp_path: Path,
) -> None:
    """What a set-up, reset and a few steps really allocate (tracemalloc's peak) at the
    finest cell allowed stays within MOST_RESET_BYTES, and the estimate is not far above."""
    import tracemalloc

    from kriegsspiel.env.aec import KriegsspielEnv
    from kriegsspiel.env.encoding import MOST_RESET_BYTES, reset_bytes

    armies = one_unit_armies(tmp_path)
    kriegsspiel.new_game()  # (the engine's imports and caches: not the environment's)
    tracemalloc.start()
    try:
        env = KriegsspielEnv(armies=armies, cell=0.166)
        env.reset(seed=1)
        for _ in range(3):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np.flatnonzero(mask)[0]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    encoding = env.setup.encoding
    estimate = reset_bytes(2, encoding.cells, env.setup.observer.shapes.planes[0])
    assert peak <= estimate <= MOST_RESET_BYTES
    assert estimate < 1.25 * peak


def test_observer_shapes_name_every_plane_unit_column_and_game_entry() -> None:
    game = kriegsspiel.new_game()
    observer = _observer(game)
    shapes = observer.shapes
    assert len(shapes.plane_names) == shapes.planes[0]
    assert (len(shapes.unit_features),) == shapes.units[
        1:
    ] and shapes.unit_features == UNIT_FEATURES
    assert (len(shapes.game_features),) == shapes.game and shapes.game_features == GAME_FEATURES
    for side in (0, 1):
        seen = observer.observe(game, side)
        mine = seen["units"][:, shapes.unit_features.index("mine")]
        assert mine.tolist() == [float(u.side == side) for u in game.units]
        turn = seen["game"][shapes.game_features.index("turn / most turns")]
        assert turn == np.float32(game.turn / game.scenario.most_turns)
