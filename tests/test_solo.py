"""A person playing a side at the terminal (kriegsspiel.solo): menus, typed places, the
odds shown, saving, and resuming a game exactly where it stopped."""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import SIM_DATA, run_cli, within_se
from rich.console import Console

from kriegsspiel.core.game import CHANCE
from kriegsspiel.core.procedure import RandomDice
from kriegsspiel.rulesets.bolt_action.game.actions import Action
from kriegsspiel.rulesets.bolt_action.game.record import header, replay
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
from kriegsspiel.sim.matchup import build_matchup, new_player, set_up_game
from kriegsspiel.solo.briefing import shot_line
from kriegsspiel.solo.human import HumanPlayer, QuitGame, _typed_place
from kriegsspiel.solo.session import SoloGame, resumed

PATROLS = {
    "ruleset": "konflikt47",
    "scenario": str(SIM_DATA / "skirmish.yaml"),
    "armies": [str(SIM_DATA / "patrol-a.yaml"), str(SIM_DATA / "patrol-b.yaml")],
}


class Person:
    """Answers as a person typing: the first unit listed, ``order`` for it, the first of
    any other choice; "quit" at the ``quit_at``-th order asked for (counting from 1)."""

    def __init__(self, order: str = "rally", quit_at: int | None = None) -> None:
        self.order, self.quit_at = order, quit_at
        self.prompts: list[str] = []
        self.orders = 0

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("Unit to order"):
            self.orders += 1
            if self.orders == self.quit_at:
                return "quit"
            return "1"
        if prompt.startswith("Order"):
            return self.order
        return "1"


def quiet_console() -> Console:
    return Console(file=io.StringIO(), width=120)


def new_solo(tmp_path: Path, seats: str, ask: Person, seed: int = 4) -> SoloGame:
    matchup = build_matchup(players=seats, seats=True, **PATROLS)  # type: ignore[arg-type]
    game = set_up_game(matchup, seed)
    texts = (matchup.armies[0].text, matchup.armies[1].text)
    kinds = matchup.players
    head = header(game, matchup.scenario.text, texts, kinds)
    record, svg = tmp_path / "game.jsonl", tmp_path / "game.svg"
    return SoloGame(
        game,
        (kinds[0], kinds[1]),
        head,
        str(record),
        str(svg),
        quiet_console(),
        ask,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("seats", ["human,tactical", "random,human"])
def test_a_game_stopped_and_resumed_is_the_game_played_without_a_stop(
    tmp_path: Path, seats: str
) -> None:
    whole = tmp_path / "whole"
    whole.mkdir()
    person = Person()
    solo = new_solo(whole, seats, person)
    assert solo.play() == 0
    assert person.orders >= 3  # (stopped before the 2nd, and before the 3rd, below)
    assert solo.game.is_terminal()
    straight = (whole / "game.jsonl").read_text()
    verdict = replay(whole / "game.jsonl")
    assert verdict.reproduced and verdict.finished

    parts = tmp_path / "parts"
    parts.mkdir()
    first = new_solo(parts, seats, Person(quit_at=2))
    assert first.play() == 0
    assert not first.game.is_terminal()
    cut = (parts / "game.jsonl").read_text()
    assert straight.startswith(cut) and len(cut) < len(straight)
    # resumed twice over: stopped again after one order of the resumed game
    second = resumed(
        str(parts / "game.jsonl"),
        svg_path=str(parts / "game.svg"),
        console=quiet_console(),
        ask=Person(quit_at=2),
    )
    assert second.play() == 0 and not second.game.is_terminal()
    third = resumed(
        str(parts / "game.jsonl"),
        svg_path=str(parts / "game.svg"),
        console=quiet_console(),
        ask=Person(),
    )
    assert third.play() == 0
    assert (parts / "game.jsonl").read_text() == straight
    assert "<svg" in (parts / "game.svg").read_text()


def test_the_record_names_the_person_and_the_game_is_asked_of_them_only(tmp_path: Path) -> None:
    person = Person()
    solo = new_solo(tmp_path, "human,tactical", person)
    solo.play()
    assert '"players":["human","tactical"]' in (tmp_path / "game.jsonl").read_text()
    asked = len([p for p in person.prompts if p.startswith("Unit to order")])
    orders = [e for e in solo.game.events if e.kind == "order"]
    mine = [e for e in orders if solo.game.units[e.data["unit"]].side == 0]
    # every order of side A was the person's (FUBAR ones are the dice's), and no other
    fubar = sum(1 for e in solo.game.events if e.kind == "fubar")
    assert asked == len(mine) and mine and len(orders) > len(mine)
    assert all(e.data["order"] == "Rally" for e in mine) or fubar


def test_the_end_of_the_input_stops_and_saves_the_game(tmp_path: Path) -> None:
    def no_more(prompt: str) -> str:
        raise EOFError

    solo = new_solo(tmp_path, "human,tactical", Person())
    solo.ask = no_more
    solo.players[0] = HumanPlayer(solo.console, no_more)
    assert solo.play() == 0
    # (the console wraps the message at the record's path, whose length is tmp_path's)
    out = " ".join(solo.console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "Stopped in turn 1" in out and "kriegsspiel play --resume" in out
    assert replay(tmp_path / "game.jsonl").reproduced


def first_decision(tmp_path: Path, seats: str = "human,tactical") -> SoloGame:
    """A patrols game at the person's first order (side A's die drawn)."""
    solo = new_solo(tmp_path, seats, Person())
    game = solo.game
    while game.current_player() == CHANCE or solo.seats[game.current_player()] != "human":
        if game.current_player() == CHANCE:
            from kriegsspiel.ai.players import chance_outcome

            game.apply_action(chance_outcome(game, solo.chance))
        else:
            game.apply_action(solo.players[game.current_player()].choose(game))
    return solo


def answers(*lines: str) -> Person:
    """A person who types ``lines`` in turn (then quits)."""
    typed = iter(lines)
    person = Person()

    def ask(prompt: str) -> str:
        person.prompts.append(prompt)
        return next(typed, "quit")

    person.__call__ = ask  # type: ignore[method-assign]
    return ask  # type: ignore[return-value]


def test_a_place_typed_in_inches_is_taken_where_the_rules_allow_it(tmp_path: Path) -> None:
    solo = first_decision(tmp_path)
    game = solo.game
    unit = game.eligible(0)[0]
    x, y = unit.anchor.x, unit.anchor.y
    console = quiet_console()
    # off the table first (refused, and said why, and the place asked again), then 2"
    # straight on
    person = answers("1", "advance", f"{x:.2f},-30", f"{x:.2f} {y + 2:.2f}", "1")
    player = HumanPlayer(console, person)
    action = player.choose(game)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Not allowed:" in out and "cannot move there" in out
    assert "Another place, or 'back' for the orders." in out
    assert out.count("which order?") == 1  # (the order was not asked again)
    assert action.order == "Advance" and action.unit == unit.uid
    assert action.to == (round(x, 2), round(y + 2, 2))
    assert game.is_legal(action)


def test_a_unit_name_or_its_start_picks_it_and_a_wrong_word_asks_again(tmp_path: Path) -> None:
    solo = first_decision(tmp_path)
    game = solo.game
    second = game.eligible(0)[1]
    console = quiet_console()
    player = HumanPlayer(console, answers("zzz", "99", second.name[:12].lower(), "down"))
    action = player.choose(game)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert out.count("not one of the choices") == 2
    assert (action.unit, action.order) == (second.uid, "Down")


def test_back_steps_to_the_units_and_hint_changes_nothing(tmp_path: Path) -> None:
    solo = first_decision(tmp_path)
    game = solo.game
    before = len(game.events)
    console = quiet_console()
    advice = new_player("tactical", 4).choose(game.clone())
    player = HumanPlayer(
        console,
        answers("hint", "1", "back", "2", "ambush"),
        adviser=lambda: new_player("tactical", 4),
    )
    action = player.choose(game)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert f"The tactical AI would: {advice.describe(game)}" in " ".join(out.split())
    assert (action.unit, action.order) == (game.eligible(0)[1].uid, "Ambush")
    assert len(game.events) == before  # (choosing changes nothing; the session applies it)


def test_hint_after_picking_a_unit_is_for_that_unit_and_back_first_says_why(
    tmp_path: Path,
) -> None:
    """Once a unit is picked, 'hint' tells the order the AI would give it (valued as its
    own choices are); 'back' at the first question says there is nothing to go back to."""
    solo = first_decision(tmp_path)
    game = solo.game
    overall = new_player("tactical", 4).choose(game.clone())
    number, picked = next(
        (n, u) for n, u in enumerate(game.eligible(0), 1) if u.uid != overall.unit
    )
    for_it = new_player("tactical", 4).choose_for(game.clone(), picked.uid)  # type: ignore[attr-defined]
    assert for_it.unit == picked.uid
    console = quiet_console()
    player = HumanPlayer(
        console,
        answers("back", str(number), "hint", "down"),
        adviser=lambda: new_player("tactical", 4),
    )
    action = player.choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "Nothing to go back to: this is the decision's first question." in out
    assert f"The tactical AI would: {for_it.describe(game)}" in out
    assert (action.unit, action.order) == (picked.uid, "Down")


def test_quit_at_any_prompt_stops(tmp_path: Path) -> None:
    solo = first_decision(tmp_path)
    player = HumanPlayer(quiet_console(), answers("1", "advance", "quit"))
    with pytest.raises(QuitGame):
        player.choose(solo.game)


@pytest.mark.parametrize(
    ("line", "place"),
    [
        ("12,30", ((12.0, 30.0), ("", None))),
        (" 12.5 30 ", ((12.5, 30.0), ("", None))),
        ("12,30 reverse", ((12.0, 30.0), ("reverse", None))),
        ("12, 30 facing 450", ((12.0, 30.0), ("", 90.0))),
        ("12,30 reverse facing -90", ((12.0, 30.0), ("reverse", 270.0))),
        ("(12, 30)", ((12.0, 30.0), ("", None))),  # (as the lists print a place)
        ("(12.5,30) reverse", ((12.5, 30.0), ("reverse", None))),
        ("(12,30", None),
        ("12,30)", None),
        ("1", None),
        ("12,30 sideways", None),
        ("north", None),
    ],
)
def test_a_typed_place_reads_as_a_player_writes_it(line: str, place: object) -> None:
    assert _typed_place(line) == place


def shown_means(text: str) -> tuple[float, float]:
    found = re.search(r"on average ([\d.]+) casualties, ([\d.]+) pins", text)
    assert found, text
    return float(found[1]), float(found[2])


def test_the_odds_shown_for_a_shot_are_what_the_game_rolls(tmp_path: Path) -> None:
    """The mean casualties and pins a person is shown for a shot match the game's own
    shooting, rolled 3,000 times from that position (within 4 standard errors)."""
    matchup = build_matchup(players="tactical,tactical", **PATROLS)  # type: ignore[arg-type]
    game = set_up_game(matchup, 2)
    unit, target = _a_shot(game)
    shown = shown_means(shot_line(game, unit, target, moving=False))
    casualties, pins = [], []
    for seed in range(3000):
        twin = game.clone()
        twin.dice = RandomDice(seed)
        start = len(twin.events)
        twin.shoot(twin.units[unit.uid], twin.units[target.uid], moving=False)
        shot = next(e for e in twin.events[start:] if e.kind == "shoot")
        casualties.append(shot.data["casualties"])
        pins.append(shot.data["pins"])
    for seen, mean in zip((casualties, pins), shown, strict=True):
        n = len(seen)
        avg = sum(seen) / n
        var = sum((v - avg) ** 2 for v in seen) / (n - 1)
        assert within_se(avg, mean, var, n, k=4), (avg, mean)
    assert shown[0] > 0


def _a_shot(game: BoltActionGame) -> tuple[object, object]:
    """Bring the patrols within reach of each other, then the first unit with a shot at
    enemy troops, and that target."""
    for unit in game.units:
        if unit.side == 1:
            unit.translate(0.0, -(unit.anchor.y - 24.0) * 0.8)
    for unit in game.units:
        if unit.side != 0:
            continue
        for target in game.units:
            if (
                target.side == 1
                and target.vehicle is None
                and game.shot_groups(unit, target, moving=False)
            ):
                return unit, target
    raise AssertionError("no shot in the position")


def test_play_with_a_person_from_the_command_line_saves_and_resumes(tmp_path: Path) -> None:
    patrols = [
        "--ruleset", "konflikt47", "--scenario", PATROLS["scenario"],
        "--army", PATROLS["armies"][0], "--army", PATROLS["armies"][1],
    ]  # fmt: skip
    from typer.testing import CliRunner

    from kriegsspiel.cli import app

    runner = CliRunner()
    record = tmp_path / "mine.jsonl"
    got = runner.invoke(
        app,
        ["play", *patrols, "--players", "human,tactical", "--record", str(record)],
        input="auto\n1\nrally\nquit\n",  # (auto: the set-up, every unit at its place)
    )
    assert got.exit_code == 0, got.output
    assert "go on with: kriegsspiel play --resume" in " ".join(got.output.split())
    drawn = (tmp_path / "mine.svg").read_text()  # the person's units to order, outlined
    assert 'id="grid"' in drawn and "outlined: side A's units to " in drawn
    assert drawn.count('class="marked"') >= 1
    assert replay(record).reproduced
    again = runner.invoke(app, ["play", "--resume", str(record)], input="quit\n")
    assert again.exit_code == 0 and "Resuming" in again.output

    # the same command again would start a new game over the one in progress: refused,
    # and the record kept (an AI game by that name too)
    saved = record.read_bytes()
    for seats in ("human,tactical", "tactical,tactical"):
        over = run_cli("play", *patrols, "--players", seats, "--record", str(record))
        assert over.returncode == 2, over.stderr
        told = " ".join(over.stderr.split())
        assert "holds a game a person is playing that has not ended" in told
        assert f"kriegsspiel play --resume {record}" in told
        assert record.read_bytes() == saved
    refused = run_cli("play", "--resume", str(record), "--seed", "3", cwd=tmp_path)
    assert refused.returncode == 2
    assert "leave out --seed" in refused.stderr and "Traceback" not in refused.stderr
    many = run_cli("evaluate", *patrols, "--players", "human,tactical", "-n", "2", cwd=tmp_path)
    assert many.returncode == 2 and "'human' is for kriegsspiel play" in many.stderr


def test_resume_refuses_a_finished_game_and_one_changed_by_hand(tmp_path: Path) -> None:
    solo = new_solo(tmp_path, "human,tactical", Person())
    solo.play()
    record = tmp_path / "game.jsonl"
    over = run_cli("play", "--resume", str(record), cwd=tmp_path)
    assert over.returncode == 2 and "that game is over" in over.stderr

    lines = record.read_text().splitlines()
    cut = lines[:40]
    changed = [line.replace('"order":"Rally"', '"order":"Down"', 1) for line in cut]
    assert changed != cut
    record.write_text("\n".join(changed) + "\n")
    bad = run_cli("play", "--resume", str(record), cwd=tmp_path)
    assert bad.returncode == 2 and "does not replay" in bad.stderr
    assert "Traceback" not in bad.stderr

    head = json.loads(changed[0])
    del head["seed"]  # a record broken in its header is told at its line and field
    record.write_text("\n".join([json.dumps(head), *changed[1:]]) + "\n")
    headless = run_cli("play", "--resume", str(record), cwd=tmp_path)
    assert headless.returncode == 2 and "line 1, field seed: missing" in headless.stderr
    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"shopping": "eggs"}\n')  # (not a record at all: refused as such)
    other = run_cli("play", "--resume", str(notes), cwd=tmp_path)
    assert other.returncode == 2 and "is not a kriegsspiel game record" in other.stderr


def close_quarters_game(ruleset: str, side: int) -> BoltActionGame:
    """The sample armies of ``ruleset`` with side B brought within a Run of side A's
    line, ``side``'s die drawn."""
    game = set_up_game(build_matchup(ruleset, None, [], "human,tactical", seats=True), 3)
    for unit in game.units:
        if unit.side == 1:
            unit.translate(0.0, -(unit.anchor.y - 14.0))
    game.apply_action(Action("draw", side=side))
    return game


def assaults(game: BoltActionGame) -> Iterator[Action]:
    """The assaults on troops the side to move may make."""
    for a in game.legal_actions():
        if a.order == "Run" and a.target is not None and game.units[a.target].vehicle is None:
            yield a


def test_the_chance_shown_for_an_assault_is_how_often_the_game_wins_it() -> None:
    """Bolt Action 1st edition (its only defence is hand-to-hand): the chance a person is
    shown to win an assault is the share of 2,000 such assaults the game's attackers win
    (within 4 standard errors)."""
    from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
    from kriegsspiel.solo.briefing import assault_line

    game = close_quarters_game("bolt-action-1", 0)
    assault = next(assaults(game))
    unit, target = game.units[assault.unit], game.units[assault.target]  # type: ignore[index]
    chance = TacticalPlayer().assault_chance(game, unit, target, assault.choice)
    assert chance is not None and 0 < chance < 1
    assert f"{chance:.0%} to win" in assault_line(game, unit, target, assault.choice)
    wins, n = 0, 2000
    for seed in range(n):
        twin = game.clone()
        twin.dice = RandomDice(seed)
        start = len(twin.events)
        twin.apply_action(assault)
        fight = next(e for e in twin.events[start:] if e.kind == "close quarters")
        wins += bool(fight.data["attacker_wins"])
    assert within_se(wins / n, chance, chance * (1 - chance), n, k=4), (wins / n, chance)


class Monkey:
    """Answers anything at all, seeded: a number from the menu just shown (or past it), an
    order by name, a place typed anywhere on or off the table, a command, nonsense."""

    def __init__(self, console: Console, seed: int) -> None:
        import random

        self.console, self.rng, self.seen, self.asked = console, random.Random(seed), 0, 0

    def __call__(self, prompt: str) -> str:
        self.asked += 1
        out = self.console.file.getvalue()  # type: ignore[attr-defined]
        shown, self.seen = out[self.seen :], len(out)
        numbers = [int(n) for n in re.findall(r"^\s*│?\s*(\d+)\s", shown, re.M)] or [1]
        rng = self.rng
        roll = rng.random()
        if roll < 0.05:
            return rng.choice(["back", "hint", "units", "terrain", "help", "zz", "99", ""])
        if prompt.startswith("Place") and roll < 0.3:
            x, y = rng.uniform(-5, 80), rng.uniform(-5, 55)
            return f"{x:.1f},{y:.1f}" + rng.choice(["", " reverse", " facing 90"])
        if prompt.startswith("Order"):
            return rng.choice(["fire", "advance", "run", "assault", "ambush", "rally", "down"])
        return str(rng.randint(1, max(numbers) + 1))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_whatever_a_person_answers_the_game_goes_on_legally_to_its_end(
    tmp_path: Path, seed: int
) -> None:
    """Both sides played by people answering at random: every answer is taken or refused
    with a word, never a traceback, and the game ends with a record that replays."""
    console = quiet_console()
    monkey = Monkey(console, seed)
    solo = new_solo(tmp_path, "human,human", Person(), seed=seed)
    solo.console = console
    solo.players = [HumanPlayer(console, monkey), HumanPlayer(console, monkey)]
    assert solo.play() == 0
    assert solo.game.is_terminal()
    verdict = replay(tmp_path / "game.jsonl")
    assert verdict.reproduced and verdict.finished
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "not one of the choices" in out or "Not allowed:" in out  # (some were refused)
    orders = [e for e in solo.game.events if e.kind == "order"]
    assert len({e.data["order"] for e in orders}) >= 3


def test_a_person_assaulted_chooses_how_to_meet_it_by_name(tmp_path: Path) -> None:
    """Konflikt '47: the AI's assault stops for the person's reaction, each shown with what
    it means; "esc" picks escape."""

    game = close_quarters_game("konflikt47", 1)
    assault = next(
        a for a in assaults(game) if "escape" in [c.choice for c in _reactions_after(game, a)]
    )
    game.apply_action(assault)
    assert game.pending is not None and game.pending.kind == "assault-reaction"
    console = quiet_console()
    action = HumanPlayer(console, answers("esc")).choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert f"assaults your {game.units[assault.target].name}" in out  # type: ignore[index]
    assert (
        "escape: escape the assault: a Run straight away" in out
        and "hand-to-hand: fight hand-to-hand" in out
    )
    assert (action.kind, action.choice) == ("react", "escape") and game.is_legal(action)


def _reactions_after(game: BoltActionGame, order: object) -> list[object]:
    twin = game.clone()
    twin.apply_action(order)
    return twin.pending_choices() if twin.pending is not None else []


def test_a_person_picks_the_friend_a_fubar_enemy_fires_at() -> None:
    from kriegsspiel.rulesets.bolt_action.game.actions import Pending

    game = set_up_game(build_matchup("konflikt47", None, [], "human,tactical", seats=True), 3)
    enemy = next(u for u in game.units if u.side == 1)
    friends = tuple(u.uid for u in game.units if u.side == 1 and u.uid != enemy.uid)[:2]
    order = Action("order", unit=enemy.uid, order="Fire")
    game.pending = Pending("friendly-fire", 0, order, enemy.uid, friends=friends)
    console = quiet_console()
    action = HumanPlayer(console, answers("2")).choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert f"The enemy's {enemy.name} is FUBAR" in out
    assert action == Action("friendly fire", side=0, target=friends[1])
    assert game.is_legal(action)


def shot_at() -> BoltActionGame:
    """A Konflikt '47 game whose troops are shot at and asked how they react."""
    game = close_quarters_game("konflikt47", 1)
    fire = next(
        a
        for a in game.legal_actions()
        if a.order == "Fire" and not a.choice and game.units[a.target].vehicle is None  # type: ignore[index]
    )
    game.apply_action(fire)
    assert game.pending is not None and game.pending.kind == "shot-reaction"
    return game


def test_the_fire_a_person_would_take_is_shown_for_each_reaction_as_the_game_rolls_it() -> None:
    """Konflikt '47, shot at: going Down shows the shooting with its harder rolls, and the
    mean casualties shown for each choice are those of 2,000 of the game's own shootings
    after that choice (within 4 standard errors)."""
    game = shot_at()
    console = quiet_console()
    player = HumanPlayer(console, answers("2"))
    down = player.choose(game)
    assert down.choice == "down"
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    shown = re.findall(r"on average ([\d.]+) casualties, ([\d.]+) pins", out)
    assert len(shown) == 2 and float(shown[1][0]) < float(shown[0][0])
    for (casualties, _), choice in zip(shown, ("none", "down"), strict=True):
        react = next(a for a in game.pending_choices() if a.choice == choice)
        seen = []
        for seed in range(2000):
            twin = game.clone()
            twin.dice = RandomDice(seed)
            start = len(twin.events)
            twin.apply_action(react)
            shot = next(e for e in twin.events[start:] if e.kind == "shoot")
            seen.append(shot.data["casualties"])
        n, avg = len(seen), sum(seen) / len(seen)
        var = sum((v - avg) ** 2 for v in seen) / (n - 1)
        assert within_se(avg, float(casualties), var, n, k=4), (choice, avg, casualties)


def test_a_hint_at_a_reaction_says_the_choice_as_the_menu_words_it() -> None:
    """Shot at, 'hint' names the reaction as the menu offers it ("none: take the fire"),
    not as the action describes itself ("react none")."""
    from kriegsspiel.solo.human import REACTIONS

    game = shot_at()
    advice = new_player("tactical", 4).choose(game.clone())
    assert advice.kind == "react" and advice.choice in REACTIONS
    console = quiet_console()
    HumanPlayer(console, answers("hint", "1"), adviser=lambda: new_player("tactical", 4)).choose(
        game
    )
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert f"The tactical AI would: {advice.choice}: {REACTIONS[advice.choice]}" in out
    assert "react " not in out


def test_an_order_not_open_to_the_unit_is_told_why() -> None:
    game = set_up_game(build_matchup("konflikt47", None, [], "human,tactical", seats=True), 3)
    game.apply_action(Action("draw", side=0))  # turn 1: the armies 36" apart
    console = quiet_console()
    action = HumanPlayer(console, answers("1", "fire", "assault", "down")).choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    first = game.eligible(0)[0].name
    nearest = min(
        (u for u in game.units if u.side == 1), key=lambda u: game.gap(game.eligible(0)[0], u)
    )
    assert (
        f"'fire': not open to {first} now: no enemy is in its sight and range (the nearest, "
        f"{nearest.name}: out of sight: Bois de la Croix in the way)" in out
    )
    assert (
        f"'assault': not open to {first} now: no enemy is within its Run (the nearest: "
        f'{nearest.name} is 36.0" away, beyond a 12" Run)' in out
    )
    assert (action.unit, action.order) == (game.eligible(0)[0].uid, "Down")


def test_a_pinned_units_order_test_is_shown_as_the_odds_command_gives_it() -> None:
    from kriegsspiel.rulesets.bolt_action.odds import order_test_odds
    from kriegsspiel.solo.briefing import order_test_text, units_table

    game = set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), 3)
    game.apply_action(Action("draw", side=0))
    unit = next(u for u in game.eligible(0) if u.vehicle is None and game.officer_near(u))
    assert order_test_text(game, unit) == ""  # (no pins, no test)
    unit.pins = 2
    odds = order_test_odds(
        "bolt-action-1", quality=unit.quality, pins=2, officer=game.officer_near(unit)
    ).probabilities
    value = game.rules.morale(unit.quality) + game.rules.officer_bonus(game.officer_near(unit)) - 2
    said = (
        f"{value} or less: {float(odds['p_pass']):.0%} (FUBAR {float(odds['p_fubar']):.0%}); "
        "a Down order needs no test"
    )
    assert order_test_text(game, unit) == said
    out = io.StringIO()
    Console(file=out, width=200).print(units_table(game, game.eligible(0), "units"))
    assert state_of(out.getvalue(), unit.name) == f"order test {said}"


def state_of(table: str, name: str) -> str:
    """The state a units table printed (``table``) gives the unit ``name``: its column of
    the unit's row and the lines the state wraps onto below it, joined."""
    from kriegsspiel.solo.briefing import STATE_WIDTH

    lines = table.splitlines()
    head = next(i for i, line in enumerate(lines) if " state " in line)
    at = lines[head].index(" state ") + 1
    row = next(i for i, line in enumerate(lines) if i > head and f" {name} " in line)
    said = [lines[row][at : at + STATE_WIDTH]]
    for line in lines[row + 1 :]:
        if line[:at].strip():  # (the next unit's row)
            break
        said.append(line[at : at + STATE_WIDTH])
    return " ".join(" ".join(said).split())


def test_look_shows_a_units_weapons_by_the_chart_and_asks_which_of_two() -> None:
    game = set_up_game(build_matchup("konflikt47", None, [], "human,tactical", seats=True), 3)
    game.apply_action(Action("draw", side=0))
    console = Console(file=io.StringIO(), width=200)
    answers_ = answers("look walker", "look walker b", "look nobody", "1", "down")
    HumanPlayer(console, answers_).choose(game)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "More than one unit is so named" in out and "Which unit?" in out
    walker = next(u for u in game.units if u.side == 1 and u.name == "Grizzly Walker")
    assert f"Grizzly Walker (side B, {walker.quality}, {walker.points} points)" in out
    for name in walker.alive_models[0].weapons:
        weapon = game.rules.weapon(name)
        row = next(line for line in out.splitlines() if f"│ {weapon.name} " in line)
        assert f'{weapon.range:g}"' in row and f"│ {weapon.shots} " in row


def test_the_table_drawn_for_a_decision_outlines_the_units_it_is_about(tmp_path: Path) -> None:
    solo = first_decision(tmp_path)
    solo.save()
    drawn = (tmp_path / "game.svg").read_text()
    eligible = solo.game.eligible(0)
    assert "outlined: side A's units to order" in drawn
    assert drawn.count('class="marked"') == len(eligible) > 0


def test_the_chance_shown_to_knock_out_an_assaulted_vehicle_is_the_games() -> None:
    """Bolt Action 1st edition: infantry assaulting a vehicle are shown the exact chances
    of what they do once in contact; of 2,000 such assaults by the game, those that reach
    it (the order test may stop them) knock it out, and pin it where it stays, as often
    (within 4 standard errors). An assault on an enclosed tank without anti-tank weapons
    shows its order test's -3, and what it may still do (a stun, pins)."""
    from kriegsspiel.solo.briefing import assault_line

    game = set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), 3)
    by_name = {u.name: u for u in game.units}
    section, mortars = by_name["1st Section"], by_name["3-inch Mortar Team"]
    halftrack, panzer = by_name["Sd.Kfz. 251/1 Half-track"], by_name["Panzer IV Ausf. H"]
    for vehicle, x, y in ((halftrack, 10.0, 12.0), (panzer, 36.0, 12.5)):
        vehicle.translate(x - vehicle.anchor.x, y - vehicle.anchor.y)
    game.apply_action(Action("draw", side=0))
    at_tank = assault_line(game, mortars, panzer, "")
    assert "its order test -3: 6 or less, 42%" in at_tank
    assert "% stunned or on fire, " in at_tank and "% a pin or more;" in at_tank
    line = assault_line(game, section, halftrack, "")
    found = re.search(r"once in contact: (\d+)% to knock it out, (\d+)% a pin or more$", line)
    assert found and "order test" not in line, line  # (open-topped: no -3)
    shown, pinned_shown = int(found[1]) / 100, int(found[2]) / 100
    assault = next(
        a
        for a in game.legal_actions()
        if a.order == "Run" and a.unit == section.uid and a.target == halftrack.uid
    )
    reached = knocked = pinned = 0
    for seed in range(2000):
        twin = game.clone()
        twin.dice = RandomDice(seed)
        start = len(twin.events)
        twin.apply_action(assault)
        attack = [e for e in twin.events[start:] if e.kind == "assault vehicle"]
        reached += bool(attack)
        knocked += bool(attack and attack[0].data["knocked_out"])
        pinned += bool(attack and not attack[0].data["knocked_out"] and attack[0].data["pins"])
    assert reached == 2000  # (no pins: no order test)
    for seen, chance in ((knocked, shown), (pinned, pinned_shown)):
        # (the chance shown is rounded to a whole per cent: half a point more slack)
        slack = 4 * math.sqrt(chance * (1 - chance) / reached) + 0.005
        assert 0.05 < chance < 0.95 and abs(seen / reached - chance) <= slack, (seen, chance)


def test_a_shot_at_a_vehicle_shows_what_it_may_do_besides_knocking_it_out() -> None:
    """A Shockwave never knocks a vehicle out, but stuns it and pins it: the Fire menu
    shows so, not only "0% to knock it out" (a solo probe saw that alone). On a hit (4+,
    1/2) the Panzer IV's crew are stunned and take D3 pins and the stun's own; with 6 pins
    already on its regular crew (morale 9) 2/3 of hits bring the 3 or more that make them
    abandon it. An AT gun's shot may immobilise it too; once immobilised, that is not
    shown again (a second immobilisation knocks it out)."""
    from test_ai_shots_at_vehicles import _battery_and_tank

    game, projector, tank = _battery_and_tank()
    line = shot_line(game, projector, tank, moving=False)
    assert line.endswith("; 0% to knock it out, 50% stunned or on fire, 50% a pin or more")
    tank.pins = 6
    line = shot_line(game, projector, tank, moving=False)
    assert line.endswith(
        "; 0% to knock it out, 33% abandoned, 17% stunned or on fire, 17% a pin or more"
    )
    tank.pins = 0
    projector.models[0].weapons = ("Medium AT gun",)
    line = shot_line(game, projector, tank, moving=False)
    found = re.search(r"; (\d+)% to knock it out, (\d+)% immobilised, ", line)
    assert found and 0 < int(found[1]) < 50 and 0 < int(found[2]) < 50, line
    tank.immobilised = True
    line = shot_line(game, projector, tank, moving=False)
    assert "immobilised" not in line and "% stunned or on fire, " in line


def test_an_interrupt_while_an_action_is_carried_out_keeps_the_game_as_last_saved(
    tmp_path: Path,
) -> None:
    """Ctrl-C while the AI's order is carried out leaves the record as saved at the
    person's last decision (not a half-done action): it replays, and resumed, that
    decision is asked again."""
    person = Person()
    solo = new_solo(tmp_path, "human,tactical", person)
    game = solo.game
    carry_out = game.apply_action

    def interrupted(action: Action) -> None:
        if action.kind == "order" and game.units[action.unit].side == 1 and person.orders >= 2:
            raise KeyboardInterrupt
        carry_out(action)

    game.apply_action = interrupted  # type: ignore[method-assign]
    assert solo.play() == 130
    out = " ".join(solo.console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "Interrupted in turn" in out and "The game as at your last decision is in" in out
    record = tmp_path / "game.jsonl"
    verdict = replay(record)
    assert verdict.reproduced and not verdict.finished
    again = resumed(
        str(record), svg_path=str(tmp_path / "game.svg"), console=quiet_console(), ask=Person()
    )
    assert again.game.current_player() == 0 and again.game.pending is None
    assert len([e for e in again.game.events if e.kind == "order" and e.data["unit"] < 2]) == 1


def test_the_table_for_a_fubar_friends_choice_outlines_those_friends(tmp_path: Path) -> None:
    from kriegsspiel.rulesets.bolt_action.game.actions import Pending

    solo = first_decision(tmp_path)
    game = solo.game
    enemy = next(u for u in game.units if u.side == 1)
    friends = tuple(u.uid for u in game.units if u.side == 1 and u.uid != enemy.uid)
    order = Action("order", unit=enemy.uid, order="Fire")
    game.pending = Pending("friendly-fire", 0, order, enemy.uid, friends=friends)
    solo.save()
    drawn = (tmp_path / "game.svg").read_text()
    assert "outlined: the units a FUBAR enemy may fire at" in drawn
    assert drawn.count('class="marked"') == len(friends) > 0


def test_a_support_call_lists_its_targets_by_distance_not_the_callers_weapons() -> None:
    game = set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), 3)
    game.apply_action(Action("draw", side=0))
    observer = next(u for u in game.eligible(0) if u.name == "Forward Observer")
    calls = [a for a in game.legal_actions() if a.unit == observer.uid and a.choice == "barrage"]
    assert calls
    console = Console(file=io.StringIO(), width=200)
    action = HumanPlayer(console, answers("forward", "call", "1")).choose(game)
    assert action == calls[0]
    out = console.file.getvalue()  # type: ignore[attr-defined]
    first = game.units[calls[0].target]  # type: ignore[index]
    assert f'{first.name}, {game.gap(observer, first):.1f}" away' in out
    assert "needing" not in out.split("Call barrage")[-1]


def test_a_target_with_no_shot_is_asked_about_before_the_order_is_spent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Fire order at a target none of the unit's weapons can reach from here would spend
    the die for nothing: the person is asked first, and 'no' asks for the target again."""
    import kriegsspiel.solo.human as human
    from kriegsspiel.ai.players import chance_outcome

    solo = first_decision(tmp_path)
    game, ai = solo.game, new_player("tactical", 4)

    def fires() -> tuple[int, list[Action]]:
        """The number of the first unit listed that may fire, and its Fire orders."""
        if game.current_player() != 0 or game.pending is not None:
            return 0, []
        acts = game.legal_actions()
        for number, unit in enumerate(game.eligible(0), 1):
            found = [a for a in acts if a.unit == unit.uid and a.order == "Fire" and not a.choice]
            if found:
                return number, found
        return 0, []

    while not fires()[1]:  # play on, both sides by the AI, until a unit may fire
        assert not game.is_terminal()
        side = game.current_player()
        game.apply_action(chance_outcome(game, solo.chance) if side == CHANCE else ai.choose(game))
    number, found = fires()
    real = human.shot_line
    blind = found[0].target

    def shot_line(g: BoltActionGame, u: object, t: object, **kw: object) -> str:
        return "no shot" if t.uid == blind else real(g, u, t, **kw)  # type: ignore[attr-defined,arg-type]

    monkeypatch.setattr(human, "shot_line", shot_line)
    console = quiet_console()
    last = str(len(found))  # (a target with no shot is listed after those with one)
    person = answers(str(number), "fire", last, "no", last, "yes")
    action = HumanPlayer(console, person).choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert out.count("has no shot at") == 2 and "spend its order on it anyway?" in out
    listed = f" {last} {game.units[blind].name}: no shot "  # type: ignore[index]
    assert f"{out} ".count(listed) == 2  # (listed last, both times)
    assert (action.order, action.target) == ("Fire", blind)


def test_the_die_drawn_is_in_the_players_hand_not_counted_in_the_bag(tmp_path: Path) -> None:
    """Konflikt '47's game counts a die drawn in the bag until it is given (its
    observation always has); the person is told the bag as it is, the die in their hand."""
    solo = first_decision(tmp_path)
    game = solo.game
    cup = game.dice_in_cup()
    console = quiet_console()
    HumanPlayer(console, answers("1", "down")).choose(game)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert f"left in the bag: A {cup[0] - 1}, B {cup[1]})" in out


@pytest.mark.parametrize(
    ("p", "said"),
    [
        *[(0, "0%"), (1, "100%"), (0.998, ">99%"), (0.004, "<1%"), (0.5, "50%"), (0.994, "99%")],
        # (a half rounded up, as by hand: f"{0.005:.0%}" said a chance was "0%")
        *[(0.005, "1%"), (0.125, "13%"), (Fraction(3, 8), "38%")],
    ],
)
def test_a_chance_is_never_rounded_to_a_certainty(p: float, said: str) -> None:
    from kriegsspiel.core.per_cent import chance_shown_whole

    assert chance_shown_whole(p) == said


def test_a_finished_game_of_a_person_may_be_written_over(tmp_path: Path) -> None:
    """Only a game still in progress is kept from being written over: once it has ended
    (its record's last line says the game is over), a new game may take the name."""
    from kriegsspiel.errors import UsageError
    from kriegsspiel.play import _keep_a_game_in_progress

    path = tmp_path / "game.jsonl"
    head = json.dumps({"kriegsspiel": "0", "seed": 1, "players": ["human", "tactical"]})
    path.write_text(head + '\n{"event": "start"}\n', encoding="utf-8")
    with pytest.raises(UsageError, match="has not ended"):
        _keep_a_game_in_progress(str(path), True)
    path.write_text(head + '\n{"event": "game over", "turn": 6}\n\n', encoding="utf-8")
    _keep_a_game_in_progress(str(path), True)  # (ended: no refusal)
    ai = json.dumps({"kriegsspiel": "0", "seed": 1, "players": ["tactical", "random"]})
    path.write_text(ai + '\n{"event": "start"}\n', encoding="utf-8")
    _keep_a_game_in_progress(str(path), False)  # (an AI game's record: replaced as any)


def test_a_unit_that_can_run_nowhere_is_not_offered_run_and_is_told_why() -> None:
    """A unit standing at an obstacle (a wall, a wreck) cannot Run anywhere: every Run's
    path starts across it. Run is left off its menu, with the reason, as the game's own
    check refuses every Run around it; its Advance is still offered."""
    import math

    from kriegsspiel.core.table import Point
    from kriegsspiel.rulesets.bolt_action.game.table_rules import check_move

    game = set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), 3)
    game.apply_action(Action("draw", side=0))
    wall = next(f for f in game.table.features if f.name == "Farmyard wall")
    unit = next(u for u in game.eligible(0) if u.vehicle is None and len(u.alive_models) > 1)
    model = unit.alive_models[0]
    unit.translate(27.5 - model.x, 18.25 - model.y)  # that model onto the wall
    assert wall in game.table.features_at(Point(27.5, 18.25))
    acts = [a for a in game.legal_actions() if a.unit == unit.uid]
    assert not [a for a in acts if a.order == "Run" and a.target is None]
    run = 12.0
    for step in range(24):  # (every way round, near and far: all refused by the game)
        angle = math.radians(step * 15)
        for far in (1.0, run / 2, run):
            to = Point(unit.anchor.x + far * math.sin(angle), unit.anchor.y + far * math.cos(angle))
            assert not check_move(game.rules, game.table, unit, to, run=True).allowed
    number = game.eligible(0).index(unit) + 1
    console = quiet_console()
    action = HumanPlayer(console, answers(str(number), "run", "down")).choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    why = (
        "it stands at Farmyard wall (obstacle), which a Run may not cross, so it cannot Run "
        "from here; Advance out of it instead"
    )
    assert f"(Run is not open to it now: {why}.)" in out
    assert f"'run': not open to {unit.name} now: {why}" in out
    menu = re.findall(r" \d (\w+)", out.split("which order?")[1].split("Order:")[0])
    assert "Advance" in menu and "Run" not in menu
    assert (action.unit, action.order) == (unit.uid, "Down")


def test_a_move_with_no_place_to_offer_says_why_none_is_listed(tmp_path: Path) -> None:
    from kriegsspiel.solo.human import _Back

    solo = first_decision(tmp_path)
    unit = solo.game.eligible(0)[0]
    console = quiet_console()
    with pytest.raises(_Back):
        HumanPlayer(console, answers("back"))._move(solo.game, unit, "Run", [])
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "Run where? None of the places looked at" in out
    assert "type x,y in inches, or 'back' for the orders." in out


@pytest.mark.parametrize(
    "typed",
    ["Platoon HQ (B)", "platoon hq (b)", "B Platoon HQ", "Platoon HQ B", "plat hq b", "NUMBER"],
)
def test_look_takes_a_name_as_the_lists_write_it_with_its_side_or_its_number(typed: str) -> None:
    """'look' takes the name as every list prints it ("Platoon HQ (B)"), with the side's
    letter before or after, and the number 'units' gives the unit."""
    game = set_up_game(build_matchup("konflikt47", None, [], "human,tactical", seats=True), 3)
    game.apply_action(Action("draw", side=0))
    live = [u for u in game.units if not u.destroyed]
    hq = next(u for u in live if u.side == 1 and u.name == "Platoon HQ")
    assert any(u.side == 0 and u.name == "Platoon HQ" for u in live)  # (so the side matters)
    if typed == "NUMBER":
        typed = str(live.index(hq) + 1)
        units = Console(file=io.StringIO(), width=200)
        HumanPlayer(units, answers("units", "1", "down")).choose(game)
        rows = units.file.getvalue().splitlines()  # type: ignore[attr-defined]
        assert any(re.match(rf"\s*{typed}\s+Platoon HQ \(B\)\s", line) for line in rows)
    if typed == "plat hq b":  # (no such part of a name: asked which)
        console = Console(file=io.StringIO(), width=200)
        HumanPlayer(console, answers(f"look {typed}", "1", "down")).choose(game)
        assert "Which unit?" in console.file.getvalue()  # type: ignore[attr-defined]
        return
    console = Console(file=io.StringIO(), width=200)
    shown = ("units",) if typed.isdigit() else ()  # (look N: as the last table numbers them)
    HumanPlayer(console, answers(*shown, f"look {typed}", "1", "down")).choose(game)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert f"Platoon HQ (side B, {hq.quality}, {hq.points} points)" in out
    assert "Which unit?" not in out and "More than one" not in out


def test_look_by_a_number_units_does_not_give_says_which_it_gives() -> None:
    game = set_up_game(build_matchup("konflikt47", None, [], "human,tactical", seats=True), 3)
    game.apply_action(Action("draw", side=0))
    console = quiet_console()
    HumanPlayer(console, answers("look 99", "units", "look 99", "1", "down")).choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert f"look 99: the table above numbers its units 1 to {len(game.eligible(0))}" in out
    assert f"look 99: the table above numbers its units 1 to {len(game.units)}" in out


def test_hint_after_picking_an_order_is_for_that_order_or_says_the_ai_would_give_another(
    tmp_path: Path,
) -> None:
    """At a place or target prompt, 'hint' tells how the AI would carry out the order
    picked (its best of that order's choices), and first that it would give another
    order, where it would."""
    from kriegsspiel.solo.human import _menu_name

    solo = first_decision(tmp_path)
    game = solo.game
    unit = game.eligible(0)[0]
    for_it = new_player("tactical", 4).choose_for(game.clone(), unit.uid)  # type: ignore[attr-defined]
    picked = _menu_name(for_it)
    other = "Advance" if picked != "Advance" else "Run"
    acts = [a for a in game.legal_actions() if a.unit == unit.uid and _menu_name(a) == other]
    assert acts
    best = new_player("tactical", 4).choose_among(game.clone(), acts)  # type: ignore[attr-defined]
    assert best in acts and best != for_it
    console = quiet_console()
    player = HumanPlayer(
        console,
        answers("1", other.lower(), "hint", "back", picked.lower(), "hint", "back", "down"),
        adviser=lambda: new_player("tactical", 4),
    )
    action = player.choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert (
        f"The tactical AI would give {unit.name} another order: {for_it.describe(game)}. "
        f"With {other}, it would: {best.describe(game)}"
    ) in out
    # the order it would give: told as before, once
    assert out.count(f"The tactical AI would: {for_it.describe(game)}") == 1
    assert (action.unit, action.order) == (unit.uid, "Down")


def test_back_after_a_place_is_picked_asks_the_place_again(tmp_path: Path) -> None:
    """'back' at "Then fire at" (after an Advance's place) steps back one question, to the
    place, not to the orders; the targets with a shot are listed before any without."""
    from kriegsspiel.ai.players import chance_outcome

    solo = first_decision(tmp_path)
    game, ai = solo.game, new_player("tactical", 4)

    def advance_and_fire() -> tuple[int, Action | None]:
        if game.current_player() != 0 or game.pending is not None:
            return 0, None
        acts = game.legal_actions()
        for number, unit in enumerate(game.eligible(0), 1):
            for a in acts:
                if a.unit == unit.uid and a.order == "Advance" and a.target is not None:
                    return number, a
        return 0, None

    while advance_and_fire()[1] is None:  # play on, both sides by the AI
        assert not game.is_terminal()
        side = game.current_player()
        game.apply_action(chance_outcome(game, solo.chance) if side == CHANCE else ai.choose(game))
    number, act = advance_and_fire()
    assert act is not None and act.to is not None
    place = f"{act.to[0]},{act.to[1]}"
    console = quiet_console()
    person = answers(str(number), "advance", place, "back", place, "1")
    action = HumanPlayer(console, person).choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert out.count("which order?") == 1  # (the order was not asked again)
    # (the prompts are not in the console's output: the targets, then the place again)
    where = f"{game.units[act.unit].name} at ("
    assert out.count("Advance where?") == 2 and out.count("1 no one: only move") == 2
    assert out.index("1 no one: only move") < out.rindex(where) < out.rindex("1 no one")
    assert (action.order, action.to, action.target) == ("Advance", act.to, None)


def test_targets_with_a_shot_are_listed_before_those_with_none() -> None:
    from kriegsspiel.solo.human import _with_shots_first

    lines = [("a", "no shot"), ("b", '10.0": 4 shots'), ("c", "no shot"), ("d", '12.0": 1')]
    assert [t for t, _ in _with_shots_first(lines)] == ["b", "d", "a", "c"]


@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_the_units_table_reads_in_80_columns_and_tests_only_the_units_to_order(
    ruleset: str,
) -> None:
    """Piped (80 columns), no name is cut short and no line is wider; a pinned unit's
    order test is shown only while it is still to order, not once it has its order."""
    from kriegsspiel.solo.briefing import order_test_text, units_table

    game = set_up_game(build_matchup(ruleset, None, [], "human,tactical", seats=True), 3)
    game.apply_action(Action("draw", side=0))
    live = [u for u in game.units if not u.destroyed]
    waiting, ordered = [u for u in game.eligible(0) if u.vehicle is None][:2]
    waiting.pins = ordered.pins = 2
    ordered.order = "Fire"
    assert order_test_text(game, ordered)  # (pinned: a test, had it been still to order)
    out = io.StringIO()
    Console(file=out, width=80).print(units_table(game, live, "Every unit", sides=True))
    text = out.getvalue()
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80
    flat = " ".join(text.split())
    for unit in live:  # (each name whole, though wrapped between its words)
        for word in f"{unit.name} ({'AB'[unit.side]})".split():
            assert word in flat
    assert flat.count("order test") == 1
    wide = io.StringIO()  # (wide: the state wraps in its own column only)
    Console(file=wide, width=200).print(units_table(game, live, "Every unit", sides=True))
    table = wide.getvalue()
    mine = state_of(table, f"{waiting.name} (A)")
    assert mine.endswith(f"order test {order_test_text(game, waiting)}")
    done = state_of(table, f"{ordered.name} (A)")
    assert "order: Fire" in done and "order test" not in done


def test_a_support_call_says_whom_each_target_s_blast_reaches_by_the_games_own_reach() -> None:
    """Solo probe: the call showed distances only. Each target now names the units, both
    sides' (the caller's own marked), within the barrage's least reach (D6+6": 7") and,
    maybe, its most (12"), as the game's fire for effect tests them (support.in_blast)."""
    from kriegsspiel.rulesets.bolt_action.game.support import caught, in_blast

    game = set_up_game(build_matchup("bolt-action-1", None, [], "human,tactical", seats=True), 3)
    game.apply_action(Action("draw", side=0))
    observer = next(u for u in game.eligible(0) if u.name == "Forward Observer")
    calls = [a for a in game.legal_actions() if a.unit == observer.uid and a.choice == "barrage"]
    target = game.units[calls[0].target]  # type: ignore[index]
    near = next(u for u in game.units if u is not target and u.side == 1)
    theirs = {u.name for u in game.units if u.side == 1}
    mine = next(u for u in game.units if u.side == 0 and u.name not in theirs | {observer.name})
    for unit, dx in ((near, 5.0), (mine, 10.0)):  # within 7"; within 12" only
        unit.translate(target.anchor.x + dx - unit.anchor.x, target.anchor.y - unit.anchor.y)
    sure, maybe = caught(game, target, "barrage")
    assert target in sure and near in sure and mine in maybe and mine not in sure
    assert all(in_blast(u, target.anchor, 12) for u in sure + maybe)
    console = Console(file=io.StringIO(), width=400)
    HumanPlayer(console, answers("forward", "call", "1")).choose(game)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    line = out.split(f" 1 {target.name}, ")[1].split(" 2 ")[0]
    sure_said, maybe_said = line.split('blast D6+6": within 7" ')[1].split('; within 12" maybe ')
    assert target.name in sure_said and near.name in sure_said and mine.name not in sure_said
    assert f"{mine.name} (yours)" in maybe_said
