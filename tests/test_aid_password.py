"""``kriegsspiel aid --password``: a game served to the network takes steps only from
those who give the password; anyone may watch it and ask odds."""

from __future__ import annotations

import socket

import pytest
from conftest import run_cli
from fastapi.testclient import TestClient

from kriegsspiel.aid import server
from kriegsspiel.aid.command import GameAsked, run_aid, set_up


@pytest.fixture
def locked(tmp_path):
    session, _ = set_up(GameAsked("konflikt47", seed=2, save=str(tmp_path / "aid.jsonl")))
    client = TestClient(server.create_app(session, "tiger"))
    client.session = session  # type: ignore[attr-defined]
    return client


def test_a_step_without_the_password_is_refused_and_changes_nothing(locked):
    before = locked.get("/api/state").json()  # watching needs no password
    for path, body in [
        ("/api/draw", None),
        ("/api/pins", {"unit": 1, "pins": 2}),
        ("/api/undo", None),
        ("/api/new-game", None),
    ]:
        bare = locked.post(path, json=body)
        assert bare.status_code == 401, path
        assert "only with its password (no password was given)" in bare.json()["error"]
        wrong = locked.post(path, json=body, headers={"X-Aid-Password": "lion"})
        assert wrong.status_code == 401 and "a wrong password" in wrong.json()["error"]
    assert locked.get("/api/state").json() == before and len(locked.session.steps) == 1
    odds = locked.post("/api/odds/shoot", json={"firer": 1, "target": 11, "range": 18})
    assert odds.status_code == 200  # asking odds changes nothing


def test_the_password_takes_the_step(locked):
    right = {"X-Aid-Password": "tiger"}
    drawn = locked.post("/api/draw", headers=right)
    assert drawn.status_code == 200 and len(locked.session.steps) == 2
    assert locked.post("/api/undo", headers=right).json()["can_undo"] is False


def test_the_api_page_knows_which_requests_need_the_password(locked, tmp_path):
    """/api/docs offers "Authorize" with the header, asked of every step and nothing else
    (so a route that changes the game cannot be left open by mistake)."""
    spec = locked.get("/api/openapi.json").json()
    scheme = spec["components"]["securitySchemes"]["APIKeyHeader"]
    assert (scheme["type"], scheme["in"], scheme["name"]) == ("apiKey", "header", "X-Aid-Password")
    posts = {path: ops["post"] for path, ops in spec["paths"].items() if "post" in ops}
    # 16 steps (the officer near, our own dice and one-shot weapons fired too), 2 questions
    assert len(posts) == 18
    for path, op in posts.items():
        asks = path.startswith("/api/odds/")
        assert ("security" in op) is not asks, path
    assert all(
        "security" not in op
        for ops in spec["paths"].values()
        if "get" in ops
        for op in [ops["get"]]
    )
    session, _ = set_up(GameAsked("konflikt47", seed=2, save=str(tmp_path / "open.jsonl")))
    open_spec = TestClient(server.create_app(session)).get("/api/openapi.json").json()
    assert "securitySchemes" not in open_spec.get("components", {})


def test_an_unlocked_aid_takes_steps_from_anyone(tmp_path):
    session, _ = set_up(GameAsked("konflikt47", seed=2, save=str(tmp_path / "aid.jsonl")))
    client = TestClient(server.create_app(session))
    assert client.post("/api/draw").status_code == 200


def test_an_empty_password_is_a_usage_error(tmp_path):
    run = run_cli("aid", "--password", " ", "--no-open", "--save", str(tmp_path / "a.jsonl"))
    assert run.returncode == 2
    assert "--password needs a word" in run.stderr + run.stdout
    assert "Traceback" not in run.stderr and not (tmp_path / "a.jsonl").exists()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    ("host", "password", "said"),
    [
        ("0.0.0.0", None, "without --password: anyone who can reach it can change the game"),
        ("0.0.0.0", "tiger", "asks for the password before the first step"),
        ("127.0.0.1", None, None),
    ],
)
def test_serving_to_the_network_says_whether_the_steps_are_locked(
    tmp_path, monkeypatch, capsys, host, password, said
):
    served = {}
    monkeypatch.setattr(server, "serve", lambda app, h, p: served.update(app=app, host=h))
    asked = GameAsked("konflikt47", save=str(tmp_path / "aid.jsonl"))
    assert run_aid(asked, host=host, port=_free_port(), open_browser=False, password=password) == 0
    out = " ".join(capsys.readouterr().out.split())  # (rich wraps the lines)
    if said is None:
        assert "password" not in out
    else:
        assert said in out
    locked_out = TestClient(served["app"]).post("/api/draw").status_code
    assert locked_out == (401 if password else 200) and served["host"] == host
