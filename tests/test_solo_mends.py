"""A person playing against the AI at the terminal: what a probe of whole games found
unclear or wrong, each mended here (the fire preview after a vehicle's move, places typed
as printed, the account after an interruption, ``look``, objectives, the options)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from kriegsspiel.core.table import Point
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.sim.matchup import build_matchup, set_up_game
from kriegsspiel.solo.human import HumanPlayer


def wide_console() -> Console:
    return Console(file=io.StringIO(), width=250)


def said(console: Console) -> str:
    return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]


def answers(*lines: str) -> object:
    """A person who types ``lines`` in turn (then quits)."""
    typed = iter(lines)
    return lambda prompt: next(typed, "quit")


def bolt_action(seed: int = 3) -> BoltActionGame:
    """The Bolt Action sample armies on the meeting engagement (side A south, facing 0°,
    side B north), before the first die is drawn."""
    return set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), seed)


def unit_named(game: BoltActionGame, name: str, side: int = 0) -> object:
    return next(u for u in game.units if u.name == name and u.side == side)


# ------------------------------------------------------------ the fire after an Advance
def test_the_fire_shown_after_a_vehicles_advance_is_what_it_fires_facing_its_new_way() -> None:
    """The Cromwell (hull MMG to the front) advances half right: it ends facing the way
    it drove, so its hull MMG no longer bears on an enemy straight ahead of where it was.
    The shots shown after the move are those the game then fires (a probe was shown 8
    MMG shots, and 4 were fired)."""
    game = bolt_action()
    cromwell, mg = unit_named(game, "Cromwell"), unit_named(game, "MG 42 MMG Team", 1)
    mg.translate(62.2 - mg.anchor.x, 26 - mg.anchor.y)  # 20" ahead of the Cromwell
    game.apply_action(Action("draw", side=0))
    number = game.eligible(0).index(cromwell) + 1
    console = wide_console()
    player = HumanPlayer(console, answers(str(number), "advance", "67.5,8.5", "mg 42"))
    action = player.choose(game)
    assert (action.order, action.to, action.target) == ("Advance", (67.5, 8.5), mg.uid)
    out = said(console)
    shown = re.search(r"MG 42 MMG Team: about \d+\" from there: (.*?) on average", out)
    assert shown, out
    offered = {w: int(n) for n, w in re.findall(r"(\d+) shots? of (.+?) needing", shown[1])}
    twin = game.clone()
    twin.apply_action(action)
    while twin.pending is not None and twin.pending.kind == "shot-reaction":  # (takes the fire)
        twin.apply_action(next(a for a in twin.legal_actions() if a.choice == "none"))
    fired = next(e for e in twin.events if e.kind == "shoot").data["weapons"]
    assert offered == {w["weapon"]: w["shots"] for w in fired} == {"Medium AT gun": 1, "MMG": 4}
    turned = next(e for e in twin.events if e.kind == "move").data["heading"]
    assert 60 < turned < 80  # (it turned: its hull MMG's arc is off the target)


def test_no_shot_is_offered_after_a_move_that_turns_every_weapon_away() -> None:
    """The Universal Carrier's one LMG faces front: after a move aside (half left, 2.5"
    clear of the gun beside it) the enemy ahead is out of its arc. It is neither listed among those it "may then fire at" at that
    place, nor offered after the move (which would spend the fire on nothing); the person
    is told why, and the move is taken with no target."""
    game = bolt_action()
    carrier, mg = unit_named(game, "Universal Carrier"), unit_named(game, "MG 42 MMG Team", 1)
    mg.translate(49.1 - mg.anchor.x, 24 - mg.anchor.y)  # ahead of the carrier
    game.apply_action(Action("draw", side=0))
    aside, ahead = (45.0, 9.5), (carrier.anchor.x, carrier.anchor.y + 5)
    acts = [
        Action("order", unit=carrier.uid, order="Advance", to=to, target=target)
        for to in (aside, ahead)
        for target in (None, mg.uid)
    ]
    assert all(game.is_legal(a) for a in acts)  # (the game's own list checks no arc)
    console = wide_console()
    action = HumanPlayer(console, answers("1"))._move(game, carrier, "Advance", acts)
    out = said(console)
    assert '1 (45.0, 9.5), 5.4" away, open ground 2' in out  # (no "may then fire at")
    assert (
        f'2 ({ahead[0]:.1f}, {ahead[1]:.1f}), 5.0" away, open ground; may then fire at MG 42' in out
    )
    assert "Then fire at" not in out and "no one: only move" not in out
    assert (
        "From there Universal Carrier would have no shot at MG 42 MMG Team, as it has where "
        "it stands: no weapon of it that reaches bears on it facing 311°; one would, turned to 16°. "
        "Type the place with 'facing D' to turn toward it." in out
    )
    assert (action.to, action.target) == (aside, None)
    assert not game.shot_groups(carrier, mg, moving=True, origin=Point(*aside), heading=310.5)


# ------------------------------------------------------------ places typed as printed
def crossroads(seed: int = 11) -> BoltActionGame:
    """Bolt Action, Hold the Crossroads, side A's die drawn (a probe's game, seed 11)."""
    game = set_up_game(
        build_matchup("bolt-action-1", "hold-the-crossroads", [], "human,tactical", seats=True),
        seed,
    )
    game.apply_action(Action("draw", side=0))
    return game


def test_a_place_typed_as_the_list_prints_it_is_the_place_offered() -> None:
    """The list prints places to 0.1"; the game holds them to 0.01". The 2nd Section's
    first Run is listed as (16.9, 17.5), where its front rank would end in the hedge: typed
    as printed (with or without the brackets) it is the place offered, not refused."""
    game = crossroads()
    section = unit_named(game, "2nd Section")
    runs = [a for a in game.legal_actions() if a.unit == section.uid and a.order == "Run"]
    offered = runs[0].to
    assert offered is not None and offered != (16.9, 17.5)
    assert not game.is_legal(Action("order", unit=section.uid, order="Run", to=(16.9, 17.5)))
    number = game.eligible(0).index(section) + 1
    for typed in ("16.9,17.5", "(16.9, 17.5)", "16.9 17.5"):
        console = wide_console()
        action = HumanPlayer(console, answers(str(number), "run", typed)).choose(game)
        assert '1 (16.9, 17.5), 12.0" away, open ground' in said(console)
        assert (action.order, action.to) == ("Run", offered), typed
    # typed finer than the list prints, a place is taken as typed
    console = wide_console()
    action = HumanPlayer(console, answers(str(number), "run", "16.4,17.2")).choose(game)
    assert action.to == (16.4, 17.2)


def test_a_place_refused_for_a_rank_in_an_obstacle_says_so_and_offers_the_nearest() -> None:
    """A Run whose centre stops short of the hedge but whose front rank would end in it is
    refused: the person is told that the formation, not the centre, is the trouble (which
    rank, how far ahead of the centre, how deep the unit stands) and the nearest place
    listed."""
    game = crossroads()
    section = unit_named(game, "2nd Section")
    number = game.eligible(0).index(section) + 1
    console = wide_console()
    person = answers(str(number), "run", "16.9,17.6", "1")
    action = HumanPlayer(console, person).choose(game)
    out = said(console)
    assert "Not allowed: 2nd Section cannot move there: cannot Run through Hedgerow" in out
    assert (
        "Its centre's way is clear, but its models move with the centre as they stand "
        '(1.2" deep along this move): its front rank, 0.6" ahead of its centre, would end in '
        "Hedgerow at (" in out
    )
    assert (
        'The nearest place that would do is listed: 1 (16.9, 17.5), 12.0" away, open ground.' in out
    )
    assert action.order == "Run" and game.is_legal(action)


# ------------------------------------------------------------ the account
def test_a_shot_after_an_ambush_or_a_reaction_names_its_firer_again() -> None:
    """A probe's Bolt Action game: the German HQ advanced to fire at the 2nd Section, the
    1st Section sprang its ambush on it, then the HQ fired. The HQ's shot, told straight
    under "springs an ambush" without a name, read as side A firing at its own section;
    a shot told after an interruption names its firer. A shot straight after its own
    order is told as before."""
    from types import SimpleNamespace

    from kriegsspiel.core.game import Event
    from kriegsspiel.render.game_account import account

    units = [
        SimpleNamespace(name="1st Section", side=0),
        SimpleNamespace(name="2nd Section", side=0),
        SimpleNamespace(name="Platoon HQ", side=1),
    ]
    hit = {"casualties": 0, "hits": 1, "pins": 1, "turn": 2}
    events = [
        Event("order", {"order": "Advance", "target": 1, "to": [10.93, 33.45], "unit": 2}),
        Event("move", {"run": False, "to": [10.93, 33.45], "unit": 2}),
        Event("ambush", {"choice": "fire", "side": 0, "target": 2, "unit": 0}),
        Event("shoot", {**hit, "shots": 3, "target": 2, "unit": 0}),
        Event("morale check", {"needs": 8, "passed": True, "roll": 5, "unit": 2}),
        Event("shoot", {**hit, "shots": 2, "target": 1, "unit": 2}),
        Event("order", {"order": "Fire", "target": 2, "unit": 0}),
        Event("shoot", {**hit, "shots": 3, "target": 2, "unit": 0}),
        Event("react", {"choice": "down", "side": 1, "unit": 2}),
        Event("order", {"order": "Fire", "target": 2, "unit": 1}),
        Event("react", {"choice": "none", "side": 1, "unit": 2}),
        Event("shoot", {**hit, "shots": 4, "target": 2, "unit": 1}),
    ]
    told = account(events, units)
    assert told[1:4] == [
        "    1st Section [A] springs an ambush",
        "    3 shots: 1 hit, 0 casualties, 1 pin on Platoon HQ [B]",
        "    morale check for Platoon HQ [B]: needs 8 or less on 2D6, rolled 5 -> passed",
    ]
    assert (
        told[4]
        == "    Platoon HQ [B] fires: 2 shots: 1 hit, 0 casualties, 1 pin on 2nd Section [A]"
    )
    assert (
        told[6] == "    3 shots: 1 hit, 0 casualties, 1 pin on Platoon HQ [B]"
    )  # (its own order's)
    assert (
        told[-1]
        == "    2nd Section [A] fires: 4 shots: 1 hit, 0 casualties, 1 pin on Platoon HQ [B]"
    )


# ------------------------------------------------------------ look
def test_look_n_is_the_unit_numbered_n_in_the_table_on_the_screen() -> None:
    """A probe read "3 Vickers MMG Team" in the table of units to order, typed 'look 3'
    and was shown the 2nd Section (the 3rd in 'units'). 'look N' takes the number from
    the last table of units shown: the units to order, or 'units' once typed."""
    game = crossroads()
    game.units[0].order = "Down"  # (given already: the units to order start at the 2nd)
    to_order = game.eligible(0)
    every = [u for u in game.units if not u.destroyed]
    assert to_order[4] is not every[4]  # (the two tables number the units apart)
    console = wide_console()
    HumanPlayer(console, answers("look 5", "units", "look 5", "1", "down")).choose(game)
    cards = re.findall(r"^(.+?) \(side ([AB]),", console.file.getvalue(), re.M)  # type: ignore[attr-defined]
    assert cards == [
        (to_order[4].name, "AB"[to_order[4].side]),
        (every[4].name, "AB"[every[4].side]),
    ]


def test_look_at_a_destroyed_unit_says_it_was_destroyed_and_when() -> None:
    game = crossroads()
    panzer = unit_named(game, "Panzer IV Ausf. H", 1)
    game.destroy(panzer, "knocked out")
    console = wide_console()
    HumanPlayer(console, answers("look panzer iv (b)", "1", "down")).choose(game)
    out = said(console)
    assert "Panzer IV Ausf. H (B) was destroyed in turn 1 (knocked out)." in out
    assert "Which unit?" not in out


# ------------------------------------------------------------ objectives
def test_who_holds_each_objective_is_told_at_terrain_and_at_the_end(tmp_path: Path) -> None:
    """A probe lost an objectives game 1 - 3 with more units left, and had to work out
    from the units' places who held what. 'terrain' and the game's end list each objective
    with its holder (and its units), contested, or nobody's, adding up to the score; the
    running score says it counts the objective points held now."""
    from kriegsspiel.solo.session import SoloGame

    game = crossroads()
    by_name = {(u.name, u.side): u for u in game.units}
    spots = {
        ("1st Section", 0): (35.5, 21.5),  # the Crossroads (2 points), alone
        ("2nd Section", 0): (43.0, 33.0),  # the Church (1), with an enemy
        ("Platoon HQ", 1): (43.0, 29.0),
    }
    for key, (x, y) in spots.items():
        unit = by_name[key]
        unit.translate(x - unit.anchor.x, y - unit.anchor.y)
    assert game.score() == (2, 0)
    console = wide_console()
    HumanPlayer(console, answers("terrain", "1", "down")).choose(game)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    held = [
        "  Crossroads (2 points, at 35.5, 24): held by side A (1st Section)",
        "  Church (1 point, at 43, 31): contested, so nobody's (side A: 2nd Section; "
        "side B: Platoon HQ)",
        "  Smithy (1 point, at 43, 17.5): nobody's (no unit on foot within 3\")",
    ]
    assert "The objectives now (objective points held now: 2 – 0):\n" + "\n".join(held) in out
    assert "score 2 – 0 (objective points held now): side A drew an order die" in said(console)

    head = {"players": ["human", "tactical"]}
    solo = SoloGame(
        game,
        ("human", "tactical"),
        head,
        str(tmp_path / "g.jsonl"),
        str(tmp_path / "g.svg"),
        wide_console(),
        answers(),  # type: ignore[arg-type]
    )
    solo.finished()
    end = solo.console.file.getvalue()  # type: ignore[attr-defined]
    assert "score 2 - 0 (objective points held)" in end
    assert "The objectives at the end:\n" + "\n".join(held) in end


def test_an_aircrafts_hits_and_a_missed_shot_at_a_vehicle_are_told() -> None:
    """A probe's game: the ground attack aircraft's 10 hits on the Panzer IV were in the
    record but not the account (only its 2 damage rolls, the 2nd of which knocked it
    out); a Panzerschreck that missed the Cromwell read "no damage, 0 pins" where a
    shot at troops reads "0 hits". Both tell their hits."""
    from types import SimpleNamespace

    from kriegsspiel.core.game import Event
    from kriegsspiel.render.game_account import describe

    units = [SimpleNamespace(name="Cromwell", side=0), SimpleNamespace(name="Panzer IV", side=1)]
    untouched = {"immobilised": False, "knocked_out": False, "on_fire": False, "stunned": False}
    roll = {"damage": "superficial", "damage_value": 9, "pen": 5, "roll": 4}
    strike = Event(
        "support damage",
        {
            **untouched,
            "knocked_out": True,
            "on_fire": True,
            "stunned": True,
            "pins": 2,
            "shots": 1,
            "target": 1,
            "unit": None,
            "weapons": [{"hits": 10, "shots": 1, "weapon": "Ground attack aircraft"}],
            "damage_rolls": [
                {**roll, "results": [{"result": "crew stunned", "roll": 3, "score": 0}]},
                {**roll, "results": [{"result": "on fire", "roll": 6, "score": 3}]},
            ],
        },
    )
    assert describe(strike, units) == (
        "    Panzer IV [B]: 10 hits -> knocked out, stunned, on fire (its other 8 hits not "
        "rolled: it was out)\n      damage rolls v 9: 4+5=9 superficial (result 3-3: crew "
        "stunned), 4+5=9 superficial (result 6-3: on fire)"
    )
    missed = Event(
        "shoot",
        {
            **untouched,
            "damage_rolls": [],
            "pins": 0,
            "shots": 1,
            "target": 0,
            "unit": 1,
            "weapons": [{"hits": 0, "shots": 1, "weapon": "Panzerschreck"}],
        },
    )
    assert describe(missed, units) == (
        "    1 shot (Panzerschreck) at Cromwell [A]: 0 hits -> no damage, 0 pins"
    )


# ------------------------------------------------------------ the options
def test_resume_of_a_file_that_is_no_record_says_so_not_that_it_would_be_written_over(
    tmp_path: Path,
) -> None:
    """A probe gave --resume a transcript: the refusal spoke of writing there destroying
    it. It says the file is not a game record, and the file is kept."""
    from conftest import run_cli

    out = tmp_path / "out.txt"
    out.write_text("Hold the Crossroads — Bolt Action (1st edition), seed 11\n")
    got = run_cli("play", "--resume", str(out), cwd=tmp_path)
    told = " ".join(got.stderr.split())
    assert got.returncode == 2 and "Traceback" not in got.stderr
    assert (
        f"--resume '{out}' is not a kriegsspiel game record (its line 1 is no record header)"
        in told
    )
    assert "destroy" not in told
    assert out.read_text().startswith("Hold the Crossroads")


def test_quiet_with_a_person_playing_is_refused(tmp_path: Path) -> None:
    """--quiet leaves the account out; with a person at a seat a probe got every prompt
    and nothing of the game between them. It is refused (exit 2, nothing written), for a
    new game and a resumed one; an AI game is quiet as before."""
    from conftest import run_cli

    for args in (
        ["--players", "human,tactical", "--record", "g.jsonl"],
        ["--players", "tactical,human", "--record", "g.jsonl"],
        ["--resume", "g.jsonl"],
    ):
        got = run_cli("play", "--quiet", *args, cwd=tmp_path)
        assert got.returncode == 2, got.stderr
        assert "--quiet prints only the result of a game the AI plays on both sides" in " ".join(
            got.stderr.split()
        )
        assert not list(tmp_path.iterdir())
    quiet = run_cli("play", "--quiet", "--record", "ai.jsonl", cwd=tmp_path)
    assert quiet.returncode == 0 and "Result:" in quiet.stdout and "Turn 1" not in quiet.stdout


# ------------------------------------------------------------ small confusions
def test_a_reverse_offered_is_marked_and_the_account_says_in_reverse() -> None:
    """A probe's Universal Carrier was offered a place straight behind it, with nothing
    to say it would back there, and the account then said "Advance to (49", 0")" though
    the record's move has ``reverse: true``. The place is marked, the way is named
    "in reverse" where more than one is asked, and the account says it."""
    from kriegsspiel.render.game_account import account_from

    game = bolt_action()
    game.apply_action(Action("draw", side=0))
    carrier = unit_named(game, "Universal Carrier")
    # (straight back to 1.5" from the table's edge: its hull stays on the table)
    behind, ahead = (carrier.anchor.x, 1.5), (carrier.anchor.x, carrier.anchor.y + 6)
    acts = [Action("order", unit=carrier.uid, order="Advance", to=to) for to in (behind, ahead)]
    assert all(game.is_legal(a) for a in acts)
    console = wide_console()
    action = HumanPlayer(console, answers("1"))._move(game, carrier, "Advance", acts)
    out = said(console)
    assert f'1 ({behind[0]:.1f}, 1.5), 4.5" away, open ground, in reverse 2' in out
    assert '2 (49.1, 12.0), 6.0" away, open ground' in out and out.count("in reverse") == 1
    start = len(game.events)
    game.apply_action(action)
    moved = next(e for e in game.events[start:] if e.kind == "move")
    assert moved.data["reverse"] is True and action.choice == ""  # (not asked for: unbidden)
    told, _ = account_from(game.events[start:], game.units, game.turn)
    assert told == ['  Universal Carrier [A]: Advance to (49.1", 1.5") in reverse']


def test_the_words_a_probe_found_cryptic_are_plain() -> None:
    """The state column's "Down: none" (a Down order needs no test), "none cover", a
    rally that did not say its D6, the facing convention missing from 'help', and the
    in-game terrain table without the sight each feature blocks."""
    from kriegsspiel.core.game import Event
    from kriegsspiel.render.game_account import describe
    from kriegsspiel.solo.briefing import ground, order_test_text
    from kriegsspiel.solo.human import HELP

    game = crossroads()
    section = unit_named(game, "2nd Section")
    section.pins = 2
    assert order_test_text(game, section).endswith("; a Down order needs no test")
    assert ground(game, Point(20, 24)) == "Main road (road, no cover)"
    rally = Event("rally", {"unit": section.uid, "pins_lost": 1})
    assert (
        describe(rally, game.units) == "    rallies: loses 1 pin (D6 pins off, at most all it has)"
    )
    assert "'facing D': D in degrees, 0 facing +y (north), 90 facing +x (east)" in " ".join(
        HELP.split()
    )
    console = wide_console()
    HumanPlayer(console, answers("terrain", "1", "down")).choose(game)
    rows = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert any("blocks sight" in row for row in rows)
    church = next(row for row in rows if row.startswith("Church ") and "building" in row)
    hedge = next(row for row in rows if row.startswith("Hedgerow "))
    assert " yes " in church and " no " in hedge


def test_look_at_a_vehicle_says_its_kind_damage_value_and_traits_and_a_tesla_its_pen() -> None:
    """Solo probe: ``look`` left out what decides a vehicle's fight (kind, damage value,
    open-topped, recce) and gave the Tesla cannon's pen as +1 only; its title wrapped
    mid-phrase on a narrow terminal. The card says them, in the weapons chart's words."""
    from kriegsspiel.solo.briefing import unit_card

    game = bolt_action()
    console = Console(file=io.StringIO(), width=60)
    console.print(unit_card(game, unit_named(game, "Universal Carrier")))  # type: ignore[arg-type]
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert lines[:2] == ["Universal Carrier (side A, regular, 65 points)", "1 of 1 left, 0 pins"]
    assert "tracked, hit as armoured car (damage value 7+), open-topped, recce" in said(console)
    k47 = set_up_game(
        build_matchup(
            "konflikt47", None, ["us-tesla-company", "german-schwerefeld-battlegroup"],
            "human,tactical", seats=True,
        ),
        1,
    )  # fmt: skip
    wide = wide_console()
    wide.print(unit_card(k47, unit_named(k47, "M17 Tesla Cannon")))  # type: ignore[arg-type]
    assert "│ +1  │    │ Team, Fixed, Tesla (+7 pen vs armour) │" in wide.file.getvalue()  # type: ignore[attr-defined]
