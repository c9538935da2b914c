"""Every refusal a user sees is a sentence: the command line's (every command's), the
environments' and the play aid's web API end their reasons with one full stop, told once
where they are made or printed (:func:`kriegsspiel.errors.sentence`), never ".." or ".).",
and never after a list one a line or a command to paste."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run_cli

from kriegsspiel.errors import KriegsspielError, UsageError, clause, sentence


def _one_full_stop(text: str) -> bool:
    """Ends with one full stop (not "..", not ".)."), and has no stop doubled inside."""
    return text.endswith(".") and not text.endswith(("..", ".).")) and ".." not in text


def test_a_sentence_gets_its_full_stop_once_and_only_where_one_belongs() -> None:
    assert sentence("no die in hand: draw one from the bag first") == (
        "no die in hand: draw one from the bag first."
    )
    assert sentence("pins are 0 to 99 (got -1)") == "pins are 0 to 99 (got -1)."
    for ended in ("the game is over.", "Did you mean 'rifle'?", "a note (see /api/docs.)"):
        assert sentence(ended) == ended  # (no "..", no ".).")
    listed = "2 problems in my.yaml:\n  - my.yaml:8: field a: bad\n  - my.yaml:9: field b: bad"
    assert sentence(listed) == listed and sentence("the options are:") == "the options are:"
    pasted = "Reproduce it with: kriegsspiel play --ruleset konflikt47 --seed 5"
    assert sentence(pasted) == pasted  # (a full stop would be pasted into --seed)
    assert sentence("see 'kriegsspiel results --list'") == "see 'kriegsspiel results --list'"
    assert sentence("not 'far'") == "not 'far'."  # (a quoted value is no command)
    # told inside another sentence, a refusal's own full stop is left off
    assert clause(UsageError("the game is over")) == "the game is over"


def test_an_error_made_anywhere_is_told_as_a_sentence() -> None:
    """Probe: the engine's refusals were mostly written without a full stop, so the Python
    API, the environments and the aid showed "... call reset()" and "... (got 11)"."""
    assert str(UsageError("call reset() first")) == "call reset() first."
    assert str(KriegsspielError("it is over.")) == "it is over."
    assert str(KriegsspielError("a", "b")) == "('a', 'b')"  # (not a message: as Python tells it)


# (arguments; a command's refusal is checked the same way from each)
REFUSED = [
    ("play", "--players", "tactical"),
    ("play", "--seed", "x"),
    ("play", "--resume", ""),
    ("play", "--ruleset", "iron-cross"),
    ("evaluate", "--players", "tactical,tactical:explore=x"),
    ("evaluate", "--workers", "0"),
    ("evaluate", "--games", "0"),
    ("replay", "none.jsonl"),
    ("replay", "broken.jsonl"),
    ("results", "--results", "none.db"),
    ("sweep", "none.yaml"),
    ("sweep", "sweep.yaml"),
    ("army", "nosuch"),
    ("army", "empty.yaml"),
    ("play", "--players", "tactical,tactical", "--army", "empty.yaml", "--army", "empty.yaml"),
    ("scenario", "nosuch"),
    ("rules", "nosuch"),
    ("odds", "shoot", "--weapon", "rifle", "--target", "x", "--range", "3"),
    ("odds",),
    ("aid", "--save", ""),
]


@pytest.mark.parametrize("args", REFUSED, ids=" ".join)
def test_every_command_refuses_in_a_sentence(args: tuple[str, ...], tmp_path: Path) -> None:
    """Probe: "/tmp/none.jsonl: cannot be read (No such file or directory)", with no full
    stop, beside the odds' refusals, which had one."""
    (tmp_path / "broken.jsonl").write_text("not a record\n")
    (tmp_path / "sweep.yaml").write_text("name: sweep\nruleset: konflikt47\n")
    (tmp_path / "empty.yaml").write_text(
        "name: No one\nruleset: konflikt47\nfaction: None\npoints: 0\nunits: []\n"
    )
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    told = done.stderr.strip().splitlines()[-1]
    assert told.startswith("kriegsspiel: error: ") and _one_full_stop(told), told


def test_a_list_of_problems_is_not_given_a_full_stop_after_its_last(tmp_path: Path) -> None:
    army = tmp_path / "two.yaml"
    army.write_text(
        "name: Two\nruleset: konflikt47\nunits:\n"
        "  - {name: A, type: infantry, quality: regulr, models: [{name: Man, count: 1}]}\n"
        "  - {name: B, type: infantry, quality: veterna, models: [{name: Man, count: 1}]}\n"
    )
    done = run_cli("army", str(army))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.rstrip("\n").splitlines()
    assert lines[0].endswith(":") and len(lines) > 2, done.stderr
    assert all(line.startswith("  - ") for line in lines[1:]) and ".." not in done.stderr


def _refusal(ask: Callable[[], object]) -> str:
    with pytest.raises(Exception) as refused:  # (what is raised varies; its words are checked)
        ask()
    return str(refused.value)


def test_the_environments_refuse_in_sentences() -> None:
    """Probe: "call reset() before using the environment", "index 9999 is out of range:
    the indices are 0 to ...", "no reset option 'x': the options are 'swap'"."""
    pytest.importorskip("pettingzoo")
    from kriegsspiel.env.aec import KriegsspielEnv
    from kriegsspiel.env.encoding import ActionEncoding
    from kriegsspiel.env.versus_ai import VersusAIEnv

    versus = VersusAIEnv()
    aec = KriegsspielEnv()
    told = [
        _refusal(lambda: versus.step(0)),
        _refusal(lambda: versus.reset(seed=-1)),
        _refusal(lambda: versus.reset(options={"x": 1})),
        _refusal(lambda: VersusAIEnv(opponent="random", explore=2)),
        _refusal(lambda: VersusAIEnv(opponent="nobody")),
        _refusal(lambda: aec.step(0)),
        _refusal(lambda: ActionEncoding(2, 48, 48, cell=0)),
    ]
    versus.reset(seed=1)
    told += [_refusal(lambda: versus.step(10**6)), _refusal(lambda: versus.step("x"))]
    encoding = versus.unwrapped.setup.encoding
    told += [_refusal(lambda: encoding.centre(-1)), _refusal(lambda: encoding.describe(-1))]
    versus.close()
    told.append(_refusal(lambda: versus.reset()))
    aec.reset(seed=1)
    told.append(_refusal(lambda: aec.step(10**6)))
    aec.close()
    told.append(_refusal(lambda: aec.render()))
    for text in told:
        assert _one_full_stop(text), text


def test_the_ai_players_refuse_in_sentences() -> None:
    from kriegsspiel.ai.players import check_explore, parse_spec

    told = [
        _refusal(lambda: check_explore(-1)),
        _refusal(lambda: parse_spec("random:explore=2", ("tactical", "random"))),
        _refusal(lambda: parse_spec("tactical:speed=2", ("tactical", "random"))),
    ]
    for text in told:
        assert _one_full_stop(text), text


def test_the_play_aids_api_refuses_in_sentences(tmp_path: Path) -> None:
    """Probe: a step the rules refuse ("no die in hand: draw one from the bag first"), a
    malformed request ("unit: Field required"), a page not there, the password's refusal
    and a step asked by GET were all told without a full stop."""
    from fastapi.testclient import TestClient

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.aid.server import create_app

    session, _ = set_up(
        GameAsked("bolt-action-1", turns=None, seed=2, save=str(tmp_path / "aid.jsonl"))
    )
    client = TestClient(create_app(session))
    answers = [
        (409, client.post("/api/order", json={"unit": 0, "order": "Ambush"})),
        (409, client.post("/api/draw", json={"side": 5})),
        (409, client.post("/api/order", json={"unit": 0, "order": "Fire", "roll": False})),
        (422, client.post("/api/order", json={"order": "Fire"})),
        (422, client.post("/api/draw", json={"side": "B"})),
        (404, client.get("/api/nothing")),
        (404, client.get("/static/secrets.txt")),
        (405, client.get("/api/draw")),
        (401, TestClient(create_app(session, password="word")).post("/api/draw")),
    ]
    for status, answer in answers:
        said = answer.json()["error"]
        assert answer.status_code == status and _one_full_stop(said), said
