"""A person playing against the AI at the terminal: what a solo probe of whole games found
unclear, each mended here (the terrain table's shapes, the reasons an order or a shot is
not open, the odds of an assault with its order test, the dice kept at a turn's end in
one answer, names matched by a word, the nearest place a refused move could go)."""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from test_solo import close_quarters_game

from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.orders import order_test_of
from kriegsspiel.rulesets.bolt_action.game.record import header, replay
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.rulesets.bolt_action.game.units import UnitState
from kriegsspiel.sim.matchup import build_matchup, new_player, set_up_game
from kriegsspiel.solo.human import HumanPlayer
from kriegsspiel.solo.session import SoloGame, resumed


def console(width: int = 250) -> Console:
    return Console(file=io.StringIO(), width=width)


def said(out: Console) -> str:
    return " ".join(out.file.getvalue().split())  # type: ignore[attr-defined]


def answers(*lines: str) -> Callable[[str], str]:
    """A person who types ``lines`` in turn (then quits)."""
    typed = iter(lines)
    return lambda prompt: next(typed, "quit")


def bolt_action(seed: int = 3) -> BoltActionGame:
    """The Bolt Action sample armies on the meeting engagement, no die drawn yet."""
    return set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), seed)


def named(game: BoltActionGame, name: str, side: int) -> UnitState:
    return next(u for u in game.units if u.name == name and u.side == side)


def put(unit: UnitState, x: float, y: float) -> None:
    unit.translate(x - unit.anchor.x, y - unit.anchor.y)


# ------------------------------------------------------------ (1) the terrain table
def test_the_terrain_table_gives_each_shape_and_how_it_plays_as_the_drawing_does() -> None:
    """The hexagonal wood is given by its corners (a box round it made a legal assault look
    illegal), a rectangle by its sides; each kind says the row it plays as, in the words
    of the drawing's tooltip (one function says both)."""
    from kriegsspiel.render.table_svg import feature_kind, table_svg

    game = bolt_action()
    out = console(120)
    HumanPlayer(out, answers("terrain", "quit")).answer(game, "terrain")
    rows = out.file.getvalue().splitlines()  # type: ignore[attr-defined]
    wood = next(r for r in rows if r.startswith("Bois de la Croix "))
    assert "wood, plays as rough ground" in wood
    assert "(4,28) (12,25) (18,30) (16,38) (7,39) (3,34)" in wood
    farmhouse = next(r for r in rows if r.startswith("Farmhouse "))
    assert "x 24–31, y 20–27" in farmhouse and " yes " in farmhouse
    assert any("corners (x,y) in order round its edge" in r for r in rows)
    tips = [
        t.text for t in ET.fromstring(table_svg(game)).iter("{http://www.w3.org/2000/svg}title")
    ]
    for feature in game.table.features:
        kind = feature_kind(feature, game.rules)
        assert any(t and t.startswith(f"{feature.name} ({kind}):") for t in tips)
        row = next(r for r in rows if r.startswith(f"{feature.name} "))
        assert kind.split(", ")[0] in row
    narrow = console(80)
    HumanPlayer(narrow, answers()).answer(game, "terrain")
    lines = narrow.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert max(len(line.rstrip()) for line in lines) <= 80


# ------------------------------------------------------------ (4) why not open
def test_an_assault_closed_by_a_hedge_names_the_hedge_not_the_distance() -> None:
    """The enemy is 8" away, within a Run, but across the East hedge, which no Run may
    cross: the player is told so, in the game's own words."""
    game = bolt_action()
    section, squad = named(game, "1st Section", 0), named(game, "1st Grenadier Squad", 1)
    put(section, 50, 30.5)
    put(squad, 50, 39.5)
    game.apply_action(Action("draw", side=0))
    assert game.gap(section, squad) < 12
    refusal = Action("order", unit=section.uid, order="Run", target=squad.uid)
    assert not game.is_legal(refusal)
    number = game.eligible(0).index(section) + 1
    out = console()
    HumanPlayer(out, answers(str(number), "assault", "down")).choose(game)
    text = said(out)
    assert (
        "'assault': not open to 1st Section now: 1st Section cannot assault 1st Grenadier "
        "Squad: cannot Run through East hedge (obstacle)" in text
    )
    assert "no enemy is within" not in text


def test_no_shot_says_whether_out_of_range_out_of_sight_or_harmless() -> None:
    from kriegsspiel.solo.reasons import no_shot_reason

    game = bolt_action()
    mortar, enemy_mortar = named(game, "3-inch Mortar Team", 0), named(game, "8cm Mortar Team", 1)
    put(mortar, 30, 10)
    put(enemy_mortar, 30, 16.5)  # (within its 18" least range)
    assert not game.shot_groups(mortar, enemy_mortar, moving=False)
    assert no_shot_reason(game, mortar, enemy_mortar, moving=False) == (
        'too close for its Medium mortar (at least 18")'
    )
    section, squad = named(game, "1st Section", 0), named(game, "1st Grenadier Squad", 1)
    put(section, 27.5, 12)
    put(squad, 27.5, 33)  # behind the Farmhouse (x 24-31, y 20-27)
    assert not game.shot_groups(section, squad, moving=False)
    assert (
        no_shot_reason(game, section, squad, moving=False) == "out of sight: Farmhouse in the way"
    )
    put(squad, 27.5, 47)  # in the open, far off (seen past the Farmhouse's corner)
    section.translate(-6, 0)
    far = no_shot_reason(game, section, squad, moving=False)
    assert re.fullmatch(
        r'out of range: [\d.]+" from its Light machine gun \(LMG\) \(30" range\), its '
        "longest-ranged weapon",
        far,
    ), far
    gap = float(far.split('"')[0].split()[-1])
    assert gap > 30 and gap >= game.gap(section, squad)


def test_out_of_range_names_the_units_longest_ranged_weapon_not_a_pistol() -> None:
    """Solo probe: the observer was "out of range: 38.5" from its Pistol (6" range)", the
    weapon that fell least short, though its signaller's Rifle (24") was the one that
    mattered: the reason names the longest-ranged weapon that sees the target, and a
    longer one that does not."""
    from kriegsspiel.solo.reasons import no_shot_reason

    game = set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), 3)
    observer, squad = named(game, "Forward Observer", 0), named(game, "1st Grenadier Squad", 1)
    put(squad, 60, 47)
    put(observer, 60, 5)
    assert [m.weapons for m in observer.alive_models] == [("Pistol",), ("Rifle",)]
    assert not game.shot_groups(observer, squad, moving=False)
    far = no_shot_reason(game, observer, squad, moving=False)
    assert re.fullmatch(
        r'out of range: [\d.]+" from its Rifle \(24" range\), its longest-ranged weapon', far
    ), far
    # the signaller does not see it (say, a wall in his way): the pistol is the weapon
    # that sees, and the rifle is named as not seeing
    table = game.table
    sight = table.nearest_in_sight

    def officer_only(flat: tuple[float, ...], coords: tuple[float, ...]) -> list[object]:
        seen = list(sight(flat, coords))
        return [seen[0], None, *seen[2:]]

    object.__setattr__(table, "nearest_in_sight", officer_only)
    try:
        far = no_shot_reason(game, observer, squad, moving=False)
    finally:
        object.__delattr__(table, "nearest_in_sight")
    assert re.fullmatch(
        r'out of range: [\d.]+" from its Pistol \(6" range\); its Rifle does not see it', far
    ), far


def test_an_observer_without_a_target_for_its_rifles_is_pointed_to_its_barrage() -> None:
    game = bolt_action()
    game.apply_action(Action("draw", side=0))  # (turn 1: the enemy 36" off)
    observer = named(game, "Forward Observer", 0)
    offered = {a.order + (a.choice or "") for a in game.legal_actions() if a.unit == observer.uid}
    assert "Fire" not in offered and "Firebarrage" in offered
    number = game.eligible(0).index(observer) + 1
    out = console()
    HumanPlayer(out, answers(str(number), "fire", "down")).choose(game)
    text = said(out)
    assert "'fire': not open to Forward Observer now: no enemy is in its sight and range" in text
    assert "its order for the enemy is Call barrage, in the menu, which reaches any enemy" in text


def test_a_fire_target_with_no_shot_is_listed_with_the_reason() -> None:
    """The game lets a Fire order name a target that the longest weapon reaches though no
    man does: the list and the question before the order is spent say why."""
    game = bolt_action()
    mortar, enemy_mortar = named(game, "3-inch Mortar Team", 0), named(game, "8cm Mortar Team", 1)
    put(mortar, 30, 10)
    put(enemy_mortar, 30, 16.5)  # (within its 18" least range)
    game.apply_action(Action("draw", side=0))
    fire = Action("order", unit=mortar.uid, order="Fire", target=enemy_mortar.uid)
    assert fire in game.legal_actions() and not game.shot_groups(mortar, enemy_mortar, moving=False)
    number = game.eligible(0).index(mortar) + 1
    out = console()
    action = HumanPlayer(out, answers(str(number), "fire", "8cm", "yes")).choose(game)
    text = said(out)
    why = '(too close for its Medium mortar (at least 18"))'
    assert f"8cm Mortar Team: no shot {why}" in text
    assert f"has no shot at 8cm Mortar Team from here {why}: spend its order on it anyway?" in text
    assert action == fire


# ------------------------------------------------------------ (5) the Advance's remark
def test_an_advance_tells_only_the_shots_it_would_lose() -> None:
    """Falling back 6", the section loses its shot at the squad 25" off (told, with why);
    an enemy it has no shot at from here either is not named."""
    game = bolt_action()
    section = named(game, "1st Section", 0)
    put(section, 20, 8)
    for unit in game.units:
        if unit.side == 1:
            put(unit, unit.anchor.x, 47)
    squad, mortar = named(game, "1st Grenadier Squad", 1), named(game, "8cm Mortar Team", 1)
    put(squad, 20, 34)
    game.apply_action(Action("draw", side=0))
    assert game.shot_groups(section, squad, moving=False)
    assert not game.shot_groups(section, mortar, moving=False)
    acts = [a for a in game.legal_actions() if a.unit == section.uid and a.order == "Advance"]
    out = console()
    action = HumanPlayer(out, answers("20,2"))._move(game, section, "Advance", acts)
    text = said(out)
    assert (
        "From there 1st Section would have no shot at 1st Grenadier Squad, as it has where it "
        'stands: out of range: 31.0" from its Light machine gun (LMG)' in text
    )
    assert "8cm Mortar Team" not in text
    assert action.to == (20.0, 2.0)
    out = console()
    HumanPlayer(out, answers("20,11", "1"))._move(game, section, "Advance", acts)
    assert "would have no shot" not in said(out)  # (nearer: nothing lost)
    assert not game.shot_groups(section, squad, moving=True, origin=Point(20, 2))


# ------------------------------------------------------------ (6) assault odds
def wins_of(game: BoltActionGame, action: Action, n: int, then: Action | None = None) -> int:
    """How many of ``n`` seeded plays of ``action`` (and ``then``, the reaction to it)
    the assaulters win (a failed order test: no fight, no win)."""
    from kriegsspiel.core.procedure import RandomDice

    wins = 0
    for seed in range(n):
        twin = game.clone()
        twin.dice = RandomDice(seed)
        start = len(twin.events)
        twin.apply_action(action)
        if then is not None and twin.pending is not None:
            twin.apply_action(then)
        fights = [e for e in twin.events[start:] if e.kind == "close quarters"]
        wins += bool(fights and fights[0].data["attacker_wins"])
    return wins


def test_an_assault_by_a_pinned_unit_shows_its_order_test_and_the_chance_of_both() -> None:
    """Bolt Action: a section with 3 pins is shown the order test beside the chance to win,
    and the chance of both; the game's own assaults, order test and all, win as often."""
    from conftest import within_se

    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.solo.briefing import _order_odds, assault_line

    game = close_quarters_game("bolt-action-1", 0)
    assault = next(
        a
        for a in game.legal_actions()
        if a.order == "Run" and a.target is not None and game.units[a.target].vehicle is None
    )
    unit, target = game.units[assault.unit], game.units[assault.target]  # type: ignore[index]
    unit.pins = 3
    test = order_test_of(game, unit, assault)
    passed = _order_odds(game.rules, test)[0]
    win = TacticalPlayer().assault_chance(game, unit, target, assault.choice)
    assert win is not None and 0 < passed < 1
    line = assault_line(game, unit, target, assault.choice)
    both = passed * win
    assert f"; its order test: {test.value} or less, {passed:.0%} (FUBAR" in line
    assert line.endswith(f"; {both:.0%} to pass it and win"), line
    n = 1000
    wins = wins_of(game, assault, n)
    assert within_se(wins / n, both, both * (1 - both), n, k=4), (wins / n, both)


def test_troops_assaulted_are_shown_the_assaulters_chance_for_each_way_to_fight() -> None:
    """Konflikt '47: meeting an assault hand-to-hand or with point-blank fire, each shows
    the assaulters' exact chance to win; the game's fights after that choice go so."""
    game = close_quarters_game("konflikt47", 1)
    for assault in game.legal_actions():
        if assault.order != "Run" or assault.target is None:
            continue
        if game.units[assault.target].vehicle is not None:
            continue
        twin = game.clone()
        twin.apply_action(assault)
        if twin.pending is not None and twin.pending.kind == "assault-reaction":
            break
    else:
        raise AssertionError("no assault on troops asks for a reaction")
    game.apply_action(assault)
    mine = game.units[assault.target]
    out = console()
    action = HumanPlayer(out, answers("point")).choose(game)
    text = said(out)
    shown = dict(
        re.findall(r"(hand-to-hand|point-blank): fight [^(]*\((\d+|<1|>99)% that they win it", text)
    )
    assert set(shown) == {"hand-to-hand", "point-blank"}, text
    assert f"and your {mine.name} is destroyed)" in text
    assert action.choice == "point-blank"
    n = 600
    for choice, percent in shown.items():
        react = next(a for a in game.pending_choices() if a.choice == choice)
        wins = wins_of(game, react, n)
        p = int(percent) / 100
        # (the chance shown is rounded to a whole per cent: half a point more slack)
        slack = 4 * math.sqrt(p * (1 - p) / n) + 0.005
        assert 0 < p < 1 and abs(wins / n - p) <= slack, (choice, wins / n, p)


# ------------------------------------------------------------ (7) the dice kept
class Keeper:
    """Orders every unit Down (the first listed), keeps ``keep`` at the turn's end; quits
    at the ``quit_at``-th keep question, or the first order of turn ``until``."""

    def __init__(self, keep: str, until: int = 2, quit_at: int | None = None) -> None:
        self.keep, self.until, self.quit_at = keep, until, quit_at
        self.prompts: list[str] = []
        self.game: BoltActionGame | None = None

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("Keep which?"):
            if self.quit_at == sum(p.startswith("Keep which?") for p in self.prompts):
                return "quit"
            return self.keep
        if prompt.startswith("Set up"):
            return "auto"
        if prompt.startswith("Unit to order"):
            assert self.game is not None
            return "quit" if self.game.turn >= self.until else "1"
        if prompt.startswith("Order"):
            return "down"
        return "1"


def solo_game(folder: Path, ask: Keeper, seed: int = 11) -> SoloGame:
    """The Bolt Action sample armies, side A a person asked by ``ask``, saved in ``folder``."""
    matchup = build_matchup("bolt-action-1", None, [], "human,tactical", seats=True)
    game = set_up_game(matchup, seed)
    texts = (matchup.armies[0].text, matchup.armies[1].text)
    head = header(game, matchup.scenario.text, texts, matchup.players)
    solo = SoloGame(
        game,
        ("human", "tactical"),
        head,
        str(folder / "game.jsonl"),
        str(folder / "game.svg"),
        console(),
        ask,
    )
    ask.game = solo.game
    return solo


def test_the_dice_kept_at_a_turns_end_are_asked_once_and_given_die_by_die(tmp_path: Path) -> None:
    """Every unit of side A went Down: at the turn's end one question lists them all;
    "1,3" keeps the first and the third, and the record holds a decision a die (kept or
    put back), as before, so the record replays; a game stopped at that question and
    resumed goes on as the game played straight."""
    straight = tmp_path / "straight"
    straight.mkdir()
    keeper = Keeper("1,3")
    solo = solo_game(straight, keeper)
    assert solo.play() == 0
    assert sum(p.startswith("Keep which?") for p in keeper.prompts) == 1
    game = solo.game
    text = said(solo.console)
    listed = re.findall(r" (\d+) ([^:]+?): Down", text.split("Turn 1 is over.")[1])
    assert len(listed) >= 3 and [n for n, _ in listed] == [str(i + 1) for i in range(len(listed))]
    decided = [e for e in game.events if e.kind == "retain" and e.data.get("turn") == 1]
    mine = [e for e in decided if game.units[e.data["unit"]].side == 0]
    assert [game.units[e.data["unit"]].name for e in mine] == [name for _, name in listed]
    assert [e.data["choice"] for e in mine][:3] == ["keep", "return", "keep"]
    assert all(e.data["choice"] == "return" for e in mine[3:])
    kept = {u.name for u in game.units if u.side == 0 and u.retained == "Down"}
    assert kept == {listed[0][1], listed[2][1]}
    assert replay(straight / "game.jsonl").reproduced

    parts = tmp_path / "parts"
    parts.mkdir()
    first = solo_game(parts, Keeper("1,3", quit_at=1))
    assert first.play() == 0
    again = Keeper("1,3")
    second = resumed(
        str(parts / "game.jsonl"), svg_path=str(parts / "game.svg"), console=console(), ask=again
    )
    again.game = second.game
    assert second.play() == 0
    assert (parts / "game.jsonl").read_text() == (straight / "game.jsonl").read_text()


def test_keep_which_takes_all_none_and_refuses_a_wrong_number_with_a_word() -> None:
    from kriegsspiel.rulesets.bolt_action.game.actions import Pending

    game = bolt_action()
    mine = [u for u in game.units if u.side == 0][:3]
    for unit in mine:
        unit.order = "Down"
    game.retaining = (mine[1].uid, mine[2].uid)
    held = Action("order", side=0, unit=mine[0].uid, order="Down")
    game.pending = Pending("retain", 0, held, mine[0].uid)
    for typed, keep in (("all", True), ("", False), ("none", False)):
        out = console()
        action = HumanPlayer(out, answers("9", "x", typed)).choose(game)
        assert (action.unit, action.choice) == (mine[0].uid, "keep" if keep else "return")
        text = said(out)
        assert text.count("'9': give the numbers of the dice to keep, from 1 to 3") == 1
    out = console()
    HumanPlayer(out, answers("hint", ""), adviser=lambda: new_player("tactical", 4)).choose(game)
    assert "The tactical AI would keep" in said(out)


# ------------------------------------------------------------ (10) small ones
def test_a_run_too_long_suggests_the_nearest_place_the_game_would_take() -> None:
    """A Run typed 13" away is refused; the place suggested is the nearest the game would
    take on the way there (12" off, by its own check), not a listed place far behind."""
    game = bolt_action()
    section = named(game, "2nd Section", 0)
    put(section, 45, 5)
    game.apply_action(Action("draw", side=0))
    number = game.eligible(0).index(section) + 1
    out = console()
    action = HumanPlayer(out, answers(str(number), "run", "45,18", "45,17")).choose(game)
    text = said(out)
    assert 'Not allowed: 2nd Section cannot move there: 13.0" is beyond the 12" allowed' in text
    assert 'The nearest place that would do: (45.0, 17.0), 12.0" away, open ground.' in text
    assert action.to == (45.0, 17.0) and game.is_legal(action)
    assert not game.is_legal(replace(action, to=(45.0, 17.1)))


def test_facing_is_for_a_vehicle_on_a_move_and_lays_out_ranks_at_the_set_up() -> None:
    """Troops have no facing to choose on a move (they see all round, and move as they
    stand): 'facing' is refused with that said, and the place asked again; a vehicle's
    is taken."""
    game = bolt_action()
    section = named(game, "2nd Section", 0)
    game.apply_action(Action("draw", side=0))
    number = game.eligible(0).index(section) + 1
    x, y = section.anchor.x, section.anchor.y + 4
    out = console()
    typed = f"{x:.1f},{y:.1f}"
    action = HumanPlayer(out, answers(str(number), "advance", f"{typed} facing 45", typed)).choose(
        game
    )
    text = said(out)
    assert "'facing' turns a vehicle: troops see and fire all round, and a move takes" in text
    assert action.facing is None and action.to == (round(x, 1), round(y, 1))


def test_a_choice_is_named_by_a_whole_word_of_it_where_none_starts_so() -> None:
    from kriegsspiel.solo.human import _matching

    options = [('M4 Sherman: 36.0"', 1), ("Panzer IV Ausf. H: no shot", 2), ("M4 Jumbo", 3)]
    assert _matching("sherman", options) == [1]
    assert _matching("m4", options) == [1, 3]  # (a start: two)
    assert _matching("iv ausf.", options) == [2]
    assert _matching("sher", options) == []  # (part of a word: not one)
    assert _matching("shot", options) == []  # (after the name: not the name)
    game = bolt_action()
    game.apply_action(Action("draw", side=0))
    out = console()
    action = HumanPlayer(out, answers("section", "observer", "down")).choose(game)
    text = said(out)
    assert "'section': more than one choice is so named" in text
    assert game.units[action.unit].name == "Forward Observer"


def test_a_pinned_units_state_wraps_in_the_units_table() -> None:
    """The state column no longer grows with a pinned unit's order test: on a wide screen
    the table stays narrow, the test wrapped in its column."""
    from kriegsspiel.solo.briefing import units_table

    game = bolt_action()
    game.apply_action(Action("draw", side=0))
    units = game.eligible(0)
    units[0].pins = 3
    out = console(250)
    out.print(units_table(game, units, "Units"))
    lines = out.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert max(len(line.rstrip()) for line in lines) <= 120  # (was 147)
    assert "order test" in said(out) and "a Down order needs no test" in said(out)


def test_no_shot_says_a_fired_panzerfaust_has_fired_its_one_shot() -> None:
    """A squad whose men carry only Panzerfausts, all fired, has no shot at a tank in
    reach: the reason says they are spent (kit.spent, as the game's shooting has it)."""
    from kriegsspiel.solo.reasons import no_shot_reason

    game = bolt_action()
    squad, sherman = named(game, "1st Grenadier Squad", 1), named(game, "M4 Sherman", 0)
    for model in squad.alive_models:
        model.weapons, model.used_one_shot = ("Panzerfaust",), True
    put(squad, 60, 30)
    put(sherman, 60, 38)
    assert not game.shot_groups(squad, sherman, moving=False)
    assert "its Panzerfaust has fired its one shot" in no_shot_reason(
        game, squad, sherman, moving=False
    )
