"""A player as ``--players`` names it: the tactical AI with its explore ("tactical:explore=2"),
written so into a game's record and a matchup's key, so a game of an exploring AI is played
again from its record and its evaluations are stored apart (docs/simulation.md, "players")."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import PATROLS_RANDOM, SIM_DATA, run_cli

from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import PlayerSpec, parse_players, parse_seats
from kriegsspiel.errors import UsageError
from kriegsspiel.sim.matchup import build_matchup, new_player, play_game

PATROLS = [*PATROLS_RANDOM[:-2]]  # the small patrols matchup, without its players
EXPLORING = "tactical:explore=2,tactical"


def recorded(path: Path) -> tuple[list[str], str]:
    """A record's players and the hash of its events (every line after the header)."""
    head, *events = path.read_text(encoding="utf-8").splitlines()
    return json.loads(head)["players"], hashlib.sha256("\n".join(events).encode()).hexdigest()


def test_a_game_of_an_exploring_ai_is_played_again_from_its_records_players(
    tmp_path: Path,
) -> None:
    """The record names the exploring AI as --players takes it; play --seed with the
    recorded players plays the same game (the same events), replay reproduces it, and
    the AI without explore plays another game from the same seed."""
    play = ["play", *PATROLS, "--seed", "4", "--quiet"]
    first = run_cli(*play, "--players", EXPLORING, "--record", "a.jsonl", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    players, events = recorded(tmp_path / "a.jsonl")
    assert players == ["tactical:explore=2", "tactical"]
    again = run_cli(*play, "--players", ",".join(players), "--record", "b.jsonl", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert recorded(tmp_path / "b.jsonl") == (players, events)
    replayed = run_cli("replay", "a.jsonl", cwd=tmp_path)
    assert replayed.returncode == 0 and "reproduced" in replayed.stdout, replayed.stdout
    plain = run_cli(*play, "--players", "tactical,tactical", "--record", "c.jsonl", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    plain_players, plain_events = recorded(tmp_path / "c.jsonl")
    assert plain_players == ["tactical", "tactical"] and plain_events != events


def test_a_spec_is_written_one_way_whatever_way_it_was_given() -> None:
    """Case, spaces and the number's form change nothing; explore 0 is the AI itself,
    written "tactical" as every record before explore; a number comes back exactly."""
    assert parse_players("Tactical : Explore = 2.0 , random") == ("tactical:explore=2", "random")
    assert parse_players("tactical:explore=0,tactical") == ("tactical", "tactical")
    assert parse_seats("human,tactical:explore=0.5") == ("human", "tactical:explore=0.5")
    assert parse_players("human,tactical:explore=1") is None  # (a person plays at play only)
    points = 0.1 + 0.2
    spec = str(PlayerSpec("tactical", points))
    player = new_player(spec, 3)
    assert isinstance(player, TacticalPlayer) and player.explore == points and player.seed == 3
    assert parse_players(f"{spec},random") == (spec, "random")


@pytest.mark.parametrize(
    ("players", "says"),
    [
        ("random:explore=1,tactical", "the random player takes no options"),
        ("human:explore=1,tactical", "the human player takes no options"),
        ("tactical:depth=2,tactical", "takes one option, explore=N"),
        ("tactical:explore,tactical", "takes one option, explore=N"),
        ("tactical:explore=1:explore=2,tactical", "takes one option, explore=N"),
        ("tactical:explore=-1,tactical", "explore is 0 or more points"),
        ("tactical:explore=inf,tactical", "explore is 0 or more points"),
        ("tactical:explore=lots,tactical", "explore is 0 or more points"),
    ],
)
def test_a_bad_option_is_refused_in_one_paragraph(players: str, says: str) -> None:
    with pytest.raises(UsageError, match=f"^players: .*{says}"):
        build_matchup("konflikt47", None, [], players, seats=True)


def test_play_refuses_a_bad_option_by_its_option_and_exit_status_2(tmp_path: Path) -> None:
    done = run_cli("play", "--players", "random:explore=1,tactical", cwd=tmp_path)
    assert done.returncode == 2
    assert "--players: 'random:explore=1': the random player takes no options" in done.stderr
    assert "Traceback" not in done.stderr and not list(tmp_path.iterdir())


def test_an_exploring_ai_is_a_matchup_of_its_own() -> None:
    """Its key adds the explore (the AI's key without it is as it was, and explore 0 is
    the AI itself); its games are played by the exploring AI; the printed play command
    names it and plays the same game."""
    plain = build_matchup("konflikt47", None, [], "tactical,tactical")
    exploring = build_matchup("konflikt47", None, [], EXPLORING)
    assert plain.key == build_matchup("konflikt47", None, [], "tactical:explore=0,tactical").key
    parts = [plain.ruleset, plain.scenario.digest, *(a.digest for a in plain.armies)]
    before = hashlib.sha256("|".join([*parts, "tactical", "tactical"]).encode())
    assert plain.key == before.hexdigest()[:20]  # (as it was before explore)
    other = build_matchup("konflikt47", None, [], "tactical:explore=1,tactical")
    assert len({plain.key, exploring.key, other.key, exploring.mirrored().key}) == 4
    assert "--players tactical:explore=2,tactical --seed 7" in exploring.play_command(7, False)
    assert "--players tactical,tactical:explore=2 --seed 7" in exploring.play_command(7, True)
    assert [e.to_json() for e in play_game(exploring, 7).events] != [
        e.to_json() for e in play_game(plain, 7).events
    ]


def test_evaluate_stores_an_exploring_ais_games_apart(tmp_path: Path) -> None:
    """Evaluations with and without explore are stored and reused apart, never mixed;
    the JSON names each army's player as --players took it."""
    args = [*PATROLS, "--games", "2", "--workers", "1", "--results", "r.sqlite", "--json"]
    runs = []
    for players in ("tactical,tactical", EXPLORING, "tactical,tactical", EXPLORING):
        done = run_cli("evaluate", *args, "--players", players, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert [r["games_played"] for r in runs] == [2, 2, 0, 0]
    assert runs[0]["matchup"] == runs[2]["matchup"] != runs[1]["matchup"] == runs[3]["matchup"]
    assert [runs[1]["army_a"]["player"], runs[1]["army_b"]["player"]] == [
        "tactical:explore=2",
        "tactical",
    ]
    listed = run_cli("results", "--results", "r.sqlite", cwd=tmp_path)
    assert "tactical:explore=2,tactical" in listed.stdout and "tactical,tactical" in listed.stdout


def test_a_sweep_file_takes_an_exploring_ai_and_refuses_a_bad_one(tmp_path: Path) -> None:
    text = (SIM_DATA / "sweep.yaml").read_text(encoding="utf-8")
    assert "players: random,random" in text
    for name in ("skirmish.yaml", "patrol-a.yaml", "patrol-b.yaml"):
        text = text.replace(name, str(SIM_DATA / name))
    (tmp_path / "bad.yaml").write_text(
        text.replace("players: random,random", "players: tactical:explore=-1,tactical")
    )
    done = run_cli("sweep", "bad.yaml", "--games", "2", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "field players: 'tactical:explore=-1': explore is 0 or more points" in done.stderr
