"""kriegsspiel used as a Python library: wrong-typed values are refused by name at the
public entry points, players refuse the wrong kind of node, and a game made with
new_game() writes a record that replays (found by probing the API as an engineer would)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli

import kriegsspiel
from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import RandomPlayer, chance_outcome, play
from kriegsspiel.core.game import CHANCE
from kriegsspiel.errors import DataFileError, GameDidNotEnd, UsageError
from kriegsspiel.rulesets.bolt_action.army import load_army
from kriegsspiel.rulesets.bolt_action.odds import (
    assault_odds,
    morale_check_odds,
    order_test_odds,
    shoot_odds,
    vehicle_assault_odds,
)
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.house_clearing import odds as house_clearing
from kriegsspiel.rulesets.iron_cross import data as iron_cross_data
from kriegsspiel.rulesets.iron_cross import odds as iron_cross

RIFLES = {"weapons": ["rifle:8"], "target": "regular infantry"}


def shoot(**situation: object):
    return shoot_odds("konflikt47", **RIFLES, situation=Situation(**situation))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: shoot(range_inches=18, target_down="no"),
            "situation.target_down is True or False, not 'no'",
        ),
        (
            lambda: shoot(range_inches=18, firer_pins=1.5),
            "situation.firer_pins must be a whole number, not 1.5",
        ),
        (lambda: shoot(range_inches="18"), "situation.range_inches must be a number, not '18'"),
        (
            lambda: shoot(range_inches=float("nan")),
            "situation.range_inches must be a distance of 0 or more inches, not nan",
        ),
        (lambda: shoot(range_inches=18, target_officer=3), "situation.target_officer must be text"),
        (
            lambda: shoot_odds("konflikt47", **RIFLES, situation=None),
            "situation must be a Situation, not None",
        ),
        (
            lambda: shoot_odds("konflikt47", **RIFLES, situation={"range_inches": 18}),
            "situation must be a Situation",
        ),
        (
            lambda: shoot_odds(
                "konflikt47", weapons=["rifle"], target=None, situation=Situation(18)
            ),
            "target must be text",
        ),
        (
            lambda: shoot_odds(
                "konflikt47", weapons=[None], target="regular infantry", situation=Situation(18)
            ),
            "weapons is a list of names",
        ),
        (
            lambda: order_test_odds("bolt-action-1", quality="regular", pins=1.5),
            "pins must be a whole number, not 1.5",
        ),
        (
            lambda: order_test_odds("bolt-action-1", quality="regular", pins="2"),
            "pins must be a whole number, not '2'",
        ),
        (lambda: morale_check_odds("konflikt47", quality=None), "quality must be text"),
        (
            lambda: assault_odds(
                "konflikt47",
                attackers=2.5,
                attacker_quality="regular",
                defenders=3,
                defender_quality="regular",
            ),
            "attackers must be a whole number, not 2.5",
        ),
        (
            lambda: vehicle_assault_odds(
                "konflikt47",
                models=5,
                quality="regular",
                target="medium tank",
                vehicle_order="advanced",
                anti_tank="yes",
            ),
            "anti_tank is True or False, not 'yes'",
        ),
        (lambda: house_clearing.figure("no"), "officer is True or False, not 'no'"),
        (
            lambda: house_clearing.shoot(
                weapon="rifle", range_inches=10, weapon_skill=40, visible=5, automatic="no"
            ),
            "automatic is True or False",
        ),
        (
            lambda: iron_cross.shoot(target="infantry", range_inches=10, smoke="no"),
            "smoke is True or False",
        ),
        (
            lambda: iron_cross.activation(1, first_activation="yes"),
            "first_activation is True or False",
        ),
        (lambda: iron_cross.terrain_test(3, "very rough"), "unit must be text (a str), not 3"),
        (lambda: iron_cross.smoke(data="x"), "data is Iron Cross rules data (IronCrossData;"),
        (lambda: iron_cross.activation("1", 0), "morale_markers must be a whole number, not '1'"),
        (lambda: iron_cross.reaction(0, "x"), "command_tokens must be a whole number, not 'x'"),
        (lambda: house_clearing.figure(False, data=3), "data is House Clearing rules data"),
        (lambda: iron_cross_data.load_data(3), "path is a file's path"),
        (lambda: load_army(None), "path is a file's path"),
        (lambda: kriegsspiel.new_game(rules_file=3), "rules_file is a file's path"),
        (lambda: load_army("x.yaml", rules_file=3), "rules_file is a file's path"),
        (lambda: kriegsspiel.replay(None), "path is a file's path"),
    ],
)
def test_a_wrong_typed_value_from_python_is_refused_by_name(call, message):
    with pytest.raises(
        UsageError, match=message.replace("(", r"\(").replace(")", r"\)")
    ) as refused:
        call()
    assert "\n" not in str(refused.value)


# each Bolt Action family odds function, asked under a rules file (its path as given)
UNDER_RULES: list = [
    lambda rules: shoot_odds("konflikt47", **RIFLES, situation=Situation(18), rules_file=rules),
    lambda rules: order_test_odds("konflikt47", quality="regular", pins=1, rules_file=rules),
    lambda rules: morale_check_odds("konflikt47", quality="regular", rules_file=rules),
    lambda rules: assault_odds(
        "konflikt47",
        attackers=5,
        attacker_quality="regular",
        defenders=5,
        defender_quality="regular",
        rules_file=rules,
    ),
    lambda rules: vehicle_assault_odds(
        "konflikt47",
        models=5,
        quality="regular",
        target="medium tank",
        vehicle_order="advanced",
        rules_file=rules,
    ),
]


@pytest.mark.parametrize("ask", UNDER_RULES, ids=["shoot", "order", "morale", "assault", "vehicle"])
def test_a_rules_file_is_a_str_or_a_path_and_anything_else_is_refused_by_name(tmp_path, ask):
    """The odds functions take a rules file as new_game does, a str or a pathlib.Path (a
    Path crashed in the rules' loader: 'PosixPath' object has no attribute 'strip')."""
    house = tmp_path / "house.yaml"
    assert run_cli("rules", "--ruleset", "konflikt47", "--copy", str(house)).returncode == 0
    text = house.read_text().replace(
        "{quality: regular, morale: 9}", "{quality: regular, morale: 8}"
    )
    assert text != house.read_text()  # (a house rule the odds show: a Regular's morale)
    house.write_text(text)
    by_path, by_name, shipped = ask(house), ask(str(house)), ask(None)
    assert by_path.probabilities == by_name.probabilities
    if ask in UNDER_RULES[1:3]:  # (a Regular's order test and morale check: 8, not 9)
        assert by_path.probabilities != shipped.probabilities
    for wrong in (3, b"house.yaml", ["house.yaml"]):
        with pytest.raises(UsageError, match=r"^rules_file is a file's path") as refused:
            ask(wrong)
        assert isinstance(refused.value, TypeError) and repr(wrong) in str(refused.value)


def test_a_list_is_checked_against_a_rules_file_given_as_a_path(tmp_path):
    from kriegsspiel.rulesets.bolt_action.army import sample_armies

    house = tmp_path / "house.yaml"
    assert run_cli("rules", "--ruleset", "konflikt47", "--copy", str(house)).returncode == 0
    sample = sample_armies("konflikt47")[0]
    assert load_army(sample, rules_file=house) == load_army(sample, rules_file=str(house))


def test_a_numpy_bool_and_integer_are_taken_as_pythons():
    plain = shoot(range_inches=18, target_down=True, firer_pins=1)
    numpy = shoot(range_inches=np.float64(18), target_down=np.bool_(True), firer_pins=np.int64(1))
    assert numpy.probabilities == plain.probabilities


def test_evaluate_refuses_wrong_types_by_name():
    from kriegsspiel.sim.matchup import build_matchup
    from kriegsspiel.sim.runner import evaluate

    matchup = build_matchup("bolt-action-1", None, [])
    with pytest.raises(UsageError, match=r"games must be a whole number, not 1\.5"):
        evaluate(matchup, 1.5, 1)  # type: ignore[arg-type]
    with pytest.raises(
        UsageError, match="run_seed must be a whole number 0 to 9223372036854775807, not '2'"
    ):
        evaluate(matchup, 1, "2")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="matchup must be a Matchup"):
        evaluate("konflikt47", 1, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^store is a results Store, opened as `with Store"):
        evaluate(matchup, 1, 1, store="results.sqlite")  # type: ignore[arg-type]


def test_workers_are_refused_from_python_as_the_command_line_refuses_them(tmp_path):
    """One check for evaluate, Workers and --workers: at least 1, at most 4 a core (a
    Python caller's Workers(0) or evaluate(workers=100) went through); each caller is told
    its own name for it."""
    from kriegsspiel.sim.matchup import build_matchup
    from kriegsspiel.sim.runner import Workers, evaluate, most_workers

    most = most_workers()
    matchup = build_matchup("bolt-action-1", None, [])
    for make in (lambda n: Workers(n), lambda n: evaluate(matchup, 2, 1, workers=n)):
        for few in (0, -3):
            with pytest.raises(UsageError, match=rf"^workers must be at least 1 \(got {few}\)"):
                make(few)
        with pytest.raises(UsageError, match=rf"^workers={most + 1} is too many .* at most {most}"):
            make(most + 1)
        with pytest.raises(TypeError, match=r"^workers must be a whole number, not 2\.0"):
            make(2.0)
    assert Workers(most).workers == most
    done = run_cli("evaluate", "--games", "2", "--workers", "0", cwd=tmp_path)
    assert done.returncode == 2 and "error: --workers must be at least 1 (got 0)." in done.stderr


def test_a_matchups_players_and_deployment_are_named_as_each_caller_gives_them(tmp_path):
    from kriegsspiel.sim.matchup import build_matchup

    with pytest.raises(UsageError, match=r"^players takes two of tactical/random"):
        build_matchup("bolt-action-1", None, [], "tactical,smart")
    with pytest.raises(UsageError, match=r"^deployment takes list-order or shuffled"):
        build_matchup("bolt-action-1", None, [], deployment="random")
    for option, value in (("--players", "tactical,smart"), ("--deployment", "random")):
        done = run_cli("evaluate", "--games", "2", option, value, "--no-store", cwd=tmp_path)
        assert done.returncode == 2 and f"error: {option} takes" in done.stderr, done.stderr


def at_chance():
    game = kriegsspiel.new_game("bolt-action-1", seed=2)
    assert game.current_player() == CHANCE
    return game


def finished():
    return play(
        kriegsspiel.new_game("bolt-action-1", seed=2), [RandomPlayer(1), RandomPlayer(2)], seed=2
    )


@pytest.mark.parametrize("player", [RandomPlayer(1), TacticalPlayer(1)], ids=["random", "tactical"])
def test_a_player_asked_at_a_chance_node_or_a_finished_game_refuses(player):
    with pytest.raises(UsageError, match=r"chance node .*chance_outcome\(state, rng\)"):
        player.choose(at_chance())
    with pytest.raises(UsageError, match="the game is over"):
        player.choose(finished())


def test_chance_outcome_refuses_a_decision_a_finished_game_and_no_generator():
    game = at_chance()
    with pytest.raises(UsageError, match=r"rng must be a random\.Random"):
        chance_outcome(game, None)  # type: ignore[arg-type]
    game.apply_action(chance_outcome(game, random.Random(1)))
    with pytest.raises(UsageError, match=r"here side \d decides: ask its player's choose\(state\)"):
        chance_outcome(game, random.Random(1))
    with pytest.raises(UsageError, match="the game is over"):
        chance_outcome(finished(), random.Random(1))


@pytest.mark.parametrize(
    "players", [[RandomPlayer(1)], None, "random,random", [RandomPlayer(1), "tactical"]]
)
def test_play_checks_its_players_before_any_action(players):
    game = kriegsspiel.new_game("bolt-action-1", seed=2)
    before = len(game.events)
    with pytest.raises(UsageError, match="players is a list of two players"):
        play(game, players)
    assert len(game.events) == before


def test_a_limit_the_caller_set_is_not_called_a_bug():
    with pytest.raises(GameDidNotEnd, match="within the 10 actions max_actions allowed") as stopped:
        play(
            kriegsspiel.new_game("bolt-action-1", seed=2),
            [RandomPlayer(1), RandomPlayer(2)],
            max_actions=10,
        )
    assert "bug" not in str(stopped.value)


def test_a_game_made_with_new_game_writes_a_record_that_replays(tmp_path):
    game = kriegsspiel.new_game("bolt-action-1", scenario="hold-the-crossroads", seed=4)
    twin = game.clone()
    twin.reseed(9)  # (a look-ahead's clone records its own dice too)
    play(twin, [RandomPlayer(1), TacticalPlayer(2)], seed=4)
    path = tmp_path / "game.jsonl"
    text = twin.write_record(path, players=("random", "tactical"))
    assert path.read_text(encoding="utf-8") == text == twin.record_text(("random", "tactical"))
    replayed = kriegsspiel.replay(path)
    assert replayed.reproduced and replayed.finished
    assert replayed.game is not None and replayed.game.returns() == twin.returns()
    cli = run_cli("replay", str(path))
    assert cli.returncode == 0, cli.stderr
    # the original, not played on since it was cloned, records its start alone
    game.write_record(str(tmp_path / "start.jsonl"))
    assert kriegsspiel.replay(Path(tmp_path, "start.jsonl")).reproduced


def test_a_record_is_refused_for_an_unwritable_place_or_unknown_players(tmp_path):
    game = kriegsspiel.new_game("bolt-action-1", seed=4)
    with pytest.raises(UsageError, match=r"cannot be written to .*no-such-folder"):
        game.write_record(tmp_path / "no-such-folder" / "game.jsonl")
    with pytest.raises(UsageError, match="players is two of tactical, random, human, agent"):
        game.write_record(tmp_path / "game.jsonl", players=("bot", "agent"))


@pytest.mark.parametrize("seed", [2**63, 2**64])
def test_new_game_takes_the_seeds_evaluate_takes(seed):
    with pytest.raises(
        UsageError, match=f"seed must be a whole number 0 to {2**63 - 1}, not {seed}"
    ):
        kriegsspiel.new_game("bolt-action-1", seed=seed)
    assert kriegsspiel.new_game("bolt-action-1", seed=2**63 - 1).seed == 2**63 - 1


def test_new_game_names_its_parameters_not_the_command_lines_options():
    with pytest.raises(UsageError) as refused:
        kriegsspiel.new_game(armies=["us-tesla-company"])
    assert "give two armies" in str(refused.value) and "--army" not in str(refused.value)


def a_rules_copy(folder: Path) -> Path:
    path = folder / "k47.yaml"
    assert run_cli("rules", "--ruleset", "konflikt47", "--copy", str(path)).returncode == 0
    return path


def a_k47_list(folder: Path, change: tuple[str, str] = ("", "")) -> Path:
    from kriegsspiel.rulesets.bolt_action.army import sample_armies

    path = folder / "k47-list.yaml"
    path.write_text(sample_armies("konflikt47")[0].read_text().replace(*change, 1))
    return path


# build_matchup's refusals (as docs/simulation.md calls it from Python), each in a Python
# caller's words and as the command line tells them
SET_UP_REFUSALS = [
    (
        "one army",
        lambda folder: {"armies": ["us-tesla-company"]},
        "give two armies (army A, then army B: names or files), or none for the samples.",
        "give two --army options (army A, then army B; from Python, two names or files), or "
        "none for the samples.",
    ),
    (
        "another edition's shipped list",
        lambda folder: {"ruleset": "bolt-action-1", "armies": ["us-tesla-company"] * 2},
        "german-grenadier-platoon); to play it, give ruleset='konflikt47'.",
        "german-grenadier-platoon); to play it, give --ruleset konflikt47 (in a sweep file, "
        "ruleset: konflikt47).",
    ),
    (
        "an empty rules file's name",
        lambda folder: {"rules_file": ""},
        "rules_file was given an empty name ('')",
        "--rules-file was given an empty name ('')",
    ),
    (
        "another edition's rules file",
        lambda folder: {"ruleset": "bolt-action-1", "rules_file": a_rules_copy(folder)},
        "not of bolt-action-1, the edition ruleset='bolt-action-1' asks for; give a copy of the "
        "bolt-action-1 data file, or lists of konflikt47 (ruleset='konflikt47').",
        "not of bolt-action-1, the edition --ruleset asks for; give a copy of the "
        "bolt-action-1 data file, or lists of konflikt47 (--ruleset konflikt47).",
    ),
    (
        "another edition's list",
        lambda folder: {"ruleset": "bolt-action-1", "armies": [a_k47_list(folder)] * 2},
        "to play it, ask for konflikt47 (ruleset='konflikt47') with lists of that edition",
        "to play it, ask for konflikt47 (--ruleset konflikt47, or a sweep file's 'ruleset:') "
        "with lists of that edition",
    ),
    (
        "a weapon not on the shipped chart",
        lambda folder: {
            "armies": [a_k47_list(folder, ("weapon: Heavy automatic cannon", "weapon: Ray"))] * 2
        },
        "('kriegsspiel army --weapons -r konflikt47' lists it); if the name is on your own "
        "rules file's, give that file (rules_file=FILE).",
        "('kriegsspiel army --weapons -r konflikt47' lists it); if the name is on your own "
        "rules file's, give that file (--rules-file FILE).",
    ),
]


@pytest.mark.parametrize(
    ("given", "python", "command_line"),
    [case[1:] for case in SET_UP_REFUSALS],
    ids=[case[0] for case in SET_UP_REFUSALS],
)
def test_build_matchup_names_its_parameters_and_the_command_line_its_options(
    tmp_path, given, python, command_line
):
    """build_matchup (the loaders of new_game, the environments and the commands) names
    ruleset, rules_file and the armies as a Python caller gives them; the command line
    tells the same refusal with its options. new_game says what build_matchup says."""
    from kriegsspiel.cli import _told
    from kriegsspiel.errors import KriegsspielError
    from kriegsspiel.sim.matchup import build_matchup

    asked = {"ruleset": "konflikt47", "scenario": None, "armies": []} | given(tmp_path)
    with pytest.raises(KriegsspielError) as refused:
        build_matchup(**asked)
    said = str(refused.value)
    assert python in said and "(--" not in said and " --r" not in said, said
    assert command_line in _told(refused.value)
    with pytest.raises(KriegsspielError) as again:
        kriegsspiel.new_game(**asked)
    assert str(again.value) == said


def test_a_command_to_run_in_a_refusal_keeps_its_options_for_a_python_caller(tmp_path):
    """A command a refusal says to run ("kriegsspiel rules --ruleset konflikt47 --copy
    FILE", "kriegsspiel army --weapons ... --rules-file k47.yaml") is run on the command
    line by a Python caller too: its options are not told as parameters (a rewriting of
    the message's options once made them "ruleset='konflikt47'", "rules_file k47.yaml")."""
    iron_cross = tmp_path / "ic.yaml"
    assert run_cli("rules", "--ruleset", "iron-cross", "--copy", str(iron_cross)).returncode == 0
    with pytest.raises(UsageError) as refused:
        kriegsspiel.new_game("konflikt47", rules_file=iron_cross)
    assert str(refused.value).endswith("(kriegsspiel rules --ruleset konflikt47 --copy FILE).")
    rules = a_rules_copy(tmp_path)
    army = a_k47_list(tmp_path, ("weapon: Heavy automatic cannon", "weapon: Ray"))
    with pytest.raises(DataFileError) as refused:
        kriegsspiel.new_game(armies=[army, army], rules_file=rules)
    assert f"'kriegsspiel army --weapons -r konflikt47 --rules-file {rules}' lists it" in str(
        refused.value
    )


def test_every_deliberate_error_is_a_kriegsspiel_error():
    from kriegsspiel.core.game import IllegalActionError
    from kriegsspiel.env.episode import NotAnIndexError
    from kriegsspiel.env.versus_ai import VersusAIEnv
    from kriegsspiel.errors import KriegsspielError

    assert issubclass(IllegalActionError, KriegsspielError) and issubclass(
        IllegalActionError, ValueError
    )
    assert issubclass(NotAnIndexError, KriegsspielError)
    with pytest.raises(KriegsspielError, match="opponent is tactical or random") as refused:
        VersusAIEnv(opponent="smart")
    assert isinstance(refused.value, ValueError)  # (as before: code catching ValueError still does)


@pytest.mark.parametrize(
    ("method", "says"),
    [
        ("current_player", "CHANCE"),
        ("legal_actions", "is_legal"),
        ("chance_outcomes", "probability"),
        ("is_terminal", "over"),
        ("returns", "+1"),
        ("clone", "copy.copy"),
        ("events", "live list"),
    ],
)
def test_help_on_the_game_explains_the_protocol(method, says):
    import inspect

    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

    assert says in (inspect.getdoc(getattr(BoltActionGame, method)) or "")


def test_an_environments_record_to_a_missing_folder_is_refused_by_name(tmp_path):
    from kriegsspiel.env.aec import KriegsspielEnv

    env = KriegsspielEnv("bolt-action-1")
    env.reset(seed=3)
    with pytest.raises(UsageError, match=r"cannot be written to .*no-such-folder"):
        env.record(str(tmp_path / "no-such-folder" / "x.jsonl"))


@pytest.mark.parametrize("field", [{"target": -1}, {"facing": -1.0}])
def test_an_actions_json_keeps_a_field_of_minus_one(field):
    from kriegsspiel.rulesets.bolt_action.game.actions import Action

    action = Action("order", unit=3, order="Advance", to=(30.0, 12.0), **field)
    assert Action.from_json(action.to_json()) == action
    assert "side" not in action.to_json()  # (a field at its default is left out, as before)


def test_an_order_built_as_legal_actions_builds_it_is_the_offered_one():
    from kriegsspiel.rulesets.bolt_action.game.actions import Action

    game = kriegsspiel.new_game("bolt-action-1", seed=2)
    game.apply_action(chance_outcome(game, random.Random(2)))
    offered = game.legal_actions()[0]
    built = Action(
        "order", unit=offered.unit, order=offered.order, to=offered.to, target=offered.target
    )
    assert built == offered and built in set(game.legal_actions())


def test_smaller_wording_of_the_python_api():
    with pytest.raises(UsageError, match="give an army file"):
        kriegsspiel.new_game(armies=["", ""])
    with pytest.raises(kriegsspiel.errors.DataFileError, match="the name of a shipped list"):
        load_army("us-tesla-company")
    by_order = vehicle_assault_odds(
        "konflikt47", models=5, quality="regular", target="medium tank", vehicle_order="Advance"
    )
    as_moved = vehicle_assault_odds(
        "konflikt47", models=5, quality="regular", target="medium tank", vehicle_order="advanced"
    )
    assert by_order.probabilities == as_moved.probabilities


def test_the_python_api_types_check_as_used(tmp_path):
    """mypy --strict takes a Path for new_game's files, and play() gives back the game's type."""
    import os
    import shutil
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    script = tmp_path / "typed.py"
    script.write_text(
        "from pathlib import Path\n"
        "import kriegsspiel\n"
        "from kriegsspiel.ai.players import RandomPlayer, play\n"
        "game = kriegsspiel.new_game('bolt-action-1', scenario=Path('crossroads.yaml'), rules_file=Path('h.yaml'))\n"
        "played = play(game, [RandomPlayer(1), RandomPlayer(2)])\n"
        "reveal_type(played)\n"
    )
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or "mypy"
    done = subprocess.run(
        [mypy, "--strict", "--no-incremental", "--config-file", os.devnull, str(script)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "MYPYPATH": str(root / "src")},
    )
    assert (
        'Revealed type is "kriegsspiel.rulesets.bolt_action.game.recorded.RecordedGame"'
        in done.stdout
    )
    assert "error" not in done.stdout.replace("Revealed", ""), done.stdout


def test_copy_copy_of_a_game_is_a_clone():
    """A probe played ``copy.copy(game)`` and saw the original's units and events change;
    a game's copy is now its clone (python-chess's boards copy so too)."""
    import copy

    game = kriegsspiel.new_game("bolt-action-1", seed=4)
    twin = copy.copy(game)
    assert type(twin) is type(game) and twin.scenario_text == game.scenario_text
    rng = random.Random(4)
    for _ in range(12):
        twin.apply_action(
            chance_outcome(twin, rng)
            if twin.current_player() == CHANCE
            else RandomPlayer(4).choose(twin)
        )
    assert len(game.events) < len(twin.events)
    assert [u.pins for u in game.units] == [0] * len(game.units)
    assert all(u.order is None for u in game.units)


@pytest.mark.parametrize("seed", [2**63, 2**70])
def test_reseed_takes_the_seeds_new_game_takes(seed):
    game = kriegsspiel.new_game("bolt-action-1", seed=1)
    with pytest.raises(
        UsageError, match=f"seed must be a whole number 0 to {2**63 - 1}, not {seed}"
    ):
        game.reseed(seed)
    game.reseed(2**63 - 1)
    assert game.events[-1].data["seed"] == 2**63 - 1
