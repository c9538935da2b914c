"""The play aid asks the game's own rules of what a unit may do at the table: an immobilised
vehicle does not move, a unit fires only under an order that fires, a unit assaults only
the enemy, an officer near a target is a live one of its side; and its API answers every
mistake in its own words (``error``)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from conftest import run_cli
from test_aid import new_tracker, with_die_in_hand
from test_aid_odds import uid

from kriegsspiel.aid.questions import (
    AssaultAsked,
    ShotAsked,
    assault,
    in_the_pages_words,
    shoot,
)
from kriegsspiel.aid.tracker import AidError, Tracker
from kriegsspiel.aid.view import view
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.reactions import REACTION_WORDS, vehicle_move_shown
from kriegsspiel.solo.human import REACTIONS


def ordered(tracker: Tracker, unit: int, order: str, outcome: str = "pass", **kw) -> Tracker:
    side = tracker.units[unit].side
    return with_die_in_hand(tracker, side).give_order(unit, order, outcome=outcome, **kw)


def shows(tracker: Tracker, unit: int, **changes) -> Tracker:
    units = list(tracker.units)
    units[unit] = replace(units[unit], **changes)
    return replace(tracker, units=tuple(units))


# ------------------------------------------------------------- an immobilised vehicle
def test_an_immobilised_vehicle_is_assaulted_as_a_halted_one_whatever_its_die():
    """Probe finding 1: the damage chart's "cannot move for the rest of the game"; the
    assault's default ("as its die shows") read an Advance die as a move, which the
    calculator refuses for an immobilised vehicle."""
    t = new_tracker("konflikt47")
    panzer, squad = uid(t, 0, "Panzer IV Ausf. H"), uid(t, 1, "2nd Rifle Squad")
    stuck = ordered(t.shot_at(panzer, 0, 1, immobilised=True), panzer, "Advance")
    assert stuck.units[panzer].order == "Advance" and stuck.units[panzer].immobilised
    asked = assault(stuck, AssaultAsked(squad, panzer))
    assert asked["read"]["vehicle_move"] == "stationary"
    said = assault(stuck, AssaultAsked(squad, panzer, vehicle_move="stationary"))
    assert asked["report"] == said["report"]
    # a vehicle that is not immobilised is still read from its die
    moving = ordered(t, panzer, "Advance")
    assert assault(moving, AssaultAsked(squad, panzer))["read"]["vehicle_move"] == "advanced"
    # one rule for the game's recce escape and the aid
    assert vehicle_move_shown("Run", immobilised=True) is None
    assert vehicle_move_shown("Run") == "run"


def test_an_immobilised_vehicle_takes_no_run_and_panics_into_down():
    t = new_tracker("bolt-action-1")
    sherman = uid(t, 0, "M4 Sherman")
    stuck = t.shot_at(sherman, 0, 1, immobilised=True)  # (its pin: it takes a test)
    with pytest.raises(AidError, match=r"M4 Sherman is immobilised: .* cannot Run; give it Fire"):
        ordered(stuck, sherman, "Run")
    assert ordered(stuck, sherman, "Advance").units[sherman].order == "Advance"
    # a FUBAR panic with no way to move goes Down, as the game's panic
    panicked = ordered(stuck, sherman, "Fire", outcome="panic")
    assert panicked.units[sherman].order == "Down"
    with pytest.raises(AidError, match=r"immobilised and cannot run away: .* shows Down"):
        ordered(stuck, sherman, "Fire", outcome="panic", face="Run")
    pinned = t.set_pins(sherman, 1)
    assert ordered(pinned, sherman, "Fire", outcome="panic").units[sherman].order == "Run"


# ------------------------------------------------------------------ a unit's friends
@pytest.mark.parametrize("ruleset", ["bolt-action-1", "konflikt47"])
def test_the_odds_of_an_assault_on_a_friend_are_refused_as_its_end_is(ruleset):
    """Probe finding 2: no sheet lets a unit assault its own side."""
    t = new_tracker(ruleset)
    first, second = [u.uid for u in t.units if u.side == 0 and u.kind == "infantry"][:2]
    vehicle = next(u.uid for u in t.units if u.side == 0 and u.kind == "vehicle")
    for defender in (second, vehicle):
        with pytest.raises(AidError, match="are on the same side: they do not fight"):
            assault(t, AssaultAsked(first, defender))
    with pytest.raises(AidError, match="are on the same side: they do not fight"):
        ordered(t, first, "Run").fought(first, second, "attacker", 1)
    foe = next(u.uid for u in t.units if u.side == 1 and u.kind == "infantry")
    assert assault(t, AssaultAsked(first, foe))["report"]["p_attacker_wins"] > 0


# ------------------------------------------------------------------ a firer's die
@pytest.mark.parametrize("face", ["Run", "Rally", "Down"])
def test_a_unit_whose_die_shows_an_order_without_fire_is_refused_a_shot(face):
    """Probe finding 3: sheet 002 "Run: Double speed no firing", "Rally", "Down: No
    move/fire". The shot is refused (not answered as a standing shot), saying why."""
    t = new_tracker("bolt-action-1")
    section, squad = uid(t, 0, "1st Section"), uid(t, 1, "1st Grenadier Squad")
    asked = ShotAsked(section, squad, 10)
    with pytest.raises(AidError) as refused:
        shoot(shows(t, section, order=face), asked)
    assert str(refused.value).startswith(
        f"1st Section cannot fire this turn: its die shows {face} (no move or fire"
        if face != "Run"
        else "1st Section cannot fire this turn: its die shows Run (move at double speed "
        "without firing"
    )
    assert refused.value.field == "firer"
    with pytest.raises(AidError, match="it kept its Down die from the last turn"):
        shoot(shows(t, section, retained="Down"), asked)


def test_a_unit_fires_on_fire_advance_or_ambush_and_may_be_asked_before_its_order():
    t = new_tracker("bolt-action-1")
    section, squad = uid(t, 0, "1st Section"), uid(t, 1, "1st Grenadier Squad")
    asked = ShotAsked(section, squad, 10)
    before = shoot(t, asked)["report"]
    for face in ("Fire", "Ambush"):
        assert shoot(shows(t, section, order=face), asked)["report"] == before
    assert shoot(shows(t, section, retained="Ambush"), asked)["report"] == before
    assert shoot(shows(t, section, order="Advance"), asked)["read"]["moving"] is True
    # a FUBAR's friendly fire shows Fire: it fires (at a friend)
    friend = uid(t, 0, "2nd Section")
    panicked = ordered(t.set_pins(section, 1), section, "Fire", outcome="friendly fire")
    assert shoot(panicked, ShotAsked(section, friend, 10))["weapons"]


# --------------------------------------------------------- an officer near the target
def test_an_officer_near_troops_shot_at_is_checked_and_said_as_the_cli_says_it():
    """Probe finding 4: the name was let pass unchecked at troops; now it is the live
    officer of the target's side (a vehicle's check), and the reasons are the CLI's."""
    t = new_tracker("bolt-action-1")
    section, squad = uid(t, 0, "1st Section"), uid(t, 1, "1st Grenadier Squad")
    for bad in ("Generalissimo", "captain"):
        with pytest.raises(AidError, match=f"has no live officer '{bad}'"):
            shoot(t, ShotAsked(section, squad, 10, target_officer=bad))
    rank = t.officers(1)[0]
    answer = shoot(t, ShotAsked(section, squad, 10, target_officer=rank))
    weapons = [f"{w['name']}:{w['count']}" for w in answer["weapons"]]
    cli = run_cli(
        *("odds", "shoot", "-r", "bolt-action-1", *(a for w in weapons for a in ("-w", w))),
        *("--range", "10", "--target-models", "10", "--target-officer", rank, "--json"),
    )
    assert cli.returncode == 0, cli.stderr
    expected = [  # (in the page's words: no command-line option)
        {k: in_the_pages_words(v) for k, v in r.items()}
        for r in json.loads(cli.stdout)["reasoning"]
    ]
    officer = [r for r in answer["report"]["reasoning"] if r["topic"] == "target officer"]
    assert officer and officer == [r for r in expected if r["topic"] == "target officer"]
    assert officer[0]["result"] == "no effect" and "--" not in officer[0]["because"]


# --------------------------------------------------------------- the reactions' words
def test_each_reaction_is_offered_with_what_it_does_in_the_solo_games_words():
    """Probe finding 5: "Reacts: Run" read alone may be pressed when shot at; each face
    now says what it does, in the words the solo game's prompts use (REACTION_WORDS)."""
    k47 = view(new_tracker("konflikt47"), can_undo=False)
    squad = next(u for u in k47["units"] if u["name"] == "1st Grenadier Squad")
    assert squad["reactions"] == ["Down", "Run", "Fire"]
    words = squad["reaction_words"]
    assert words["Down"] == list(REACTION_WORDS["down"])
    assert words["Run"][0] == "escape the assault"
    assert words["Fire"][0] == "stand and fire at the assaulters"
    for reaction, (what, then) in REACTION_WORDS.items():
        assert REACTIONS[reaction] == f"{what}: {then}"
    ba1 = view(new_tracker("bolt-action-1"), can_undo=False)
    carrier = next(u for u in ba1["units"] if u["name"] == "Universal Carrier")
    assert carrier["reactions"] == ["Down"]
    assert carrier["reaction_words"]["Down"] == [
        "escape the shot or assault",
        "it drives straight away, and its die then shows Down, halted",
    ]
    tank = next(u for u in ba1["units"] if u["name"] == "M4 Sherman")
    assert tank["reactions"] == [] and tank["reaction_words"] == {}
    assert rules_for("konflikt47").recce_escape  # (K47's recce escape shows Run: said so)


# ------------------------------------------------------------------------- the API
@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.aid.server import create_app

    session, _ = set_up(GameAsked("konflikt47", turns=None, seed=2, save=str(tmp_path / "a.jsonl")))
    return TestClient(create_app(session))


def test_the_api_answers_a_wrong_path_or_method_with_its_own_error(client):
    missing = client.get("/api/nonexistent")
    assert missing.status_code == 404
    assert missing.json() == {
        "error": "no /api/nonexistent here: the play aid's requests are listed at /api/docs."
    }
    wrong = client.get("/api/draw")
    assert wrong.status_code == 405
    assert wrong.json() == {
        "error": "GET /api/draw is not taken: /api/draw takes POST (see /api/docs)."
    }


def test_the_api_takes_a_unit_only_by_its_integer_uid_and_a_range_only_as_a_number(client):
    before = client.get("/api/state").json()
    for given, said in ((True, "true"), (2.0, "2.0"), ("2", '"2"')):
        body = {"firer": given, "target": 11, "range": 10}
        answer = client.post("/api/odds/shoot", json=body)
        assert answer.status_code == 422
        assert answer.json()["error"] == (
            f"firer: a unit is named by its uid, an integer (GET /api/state), not {said}."
        )
    pins = client.post("/api/pins", json={"unit": False, "pins": 1})
    assert pins.status_code == 422 and pins.json()["error"].startswith("unit: a unit is named")
    keep = client.post("/api/end-turn", json={"keep": [True]})
    assert keep.status_code == 422 and keep.json()["error"].startswith("keep.0: a unit is")
    for nan in ("NaN", "Infinity"):
        answer = client.post(
            "/api/odds/shoot",
            content=f'{{"firer": 1, "target": 11, "range": {nan}}}',
            headers={"content-type": "application/json"},
        )
        assert answer.status_code == 422
        assert answer.json()["error"] == (
            f"range: not a number ({nan}): give the inches measured, 0 to 1000."
        )
    far = client.post("/api/odds/shoot", json={"firer": 1, "target": 11, "range": 1001})
    assert far.json()["error"] == "range: Input should be less than or equal to 1000."
    assert client.get("/api/state").json() == before


# ------------------------------------------------ what the page offers greyed out, and why
def test_the_state_gives_each_refusal_in_the_words_the_step_or_question_is_refused_in(tmp_path):
    """The page greys out what the server refuses and says why: the state gives each
    unit's refused orders and roles, and each side's refused draw, in the words of the
    refusal itself (the same checks make both)."""
    from fastapi.testclient import TestClient

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.aid.server import create_app
    from kriegsspiel.core.procedure import ScriptedDice

    session, _ = set_up(GameAsked("konflikt47", turns=None, seed=2, save=str(tmp_path / "a.jsonl")))
    client = TestClient(create_app(session))
    units = client.get("/api/state").json()["units"]
    squad, tank, foe = 1, 8, 11
    assert units[squad]["orders_refused"] == {} and units[squad]["fire_refused"] is None
    assert units[squad]["attack_refused"] is None  # (its die in the bag: its odds are asked)
    assert client.post("/api/odds/assault", json={"attacker": squad, "defender": foe}).is_success
    assert client.get("/api/state").json()["draw_refused"] == [None, None]

    def refused(path: str, body: dict) -> str:
        answer = client.post(path, json=body)
        assert answer.status_code == 409, answer.json()
        return str(answer.json()["error"])

    # a vehicle never assaults; a model more than it started with is refused
    assert units[tank]["attack_refused"] == refused(
        "/api/odds/assault", {"attacker": tank, "defender": foe}
    )
    assert (
        units[tank]["attack_refused"]
        == "Panzer IV Ausf. H is a vehicle: only infantry and teams assault."
    )
    assert units[squad]["more_models_refused"] == refused(
        "/api/models", {"unit": squad, "models": 11}
    )
    assert units[squad]["more_models_refused"] == "1st Grenadier Squad has 0 to 10 models (got 11)."
    gun = next(u["uid"] for u in units if u["kind"] == "artillery" and u["side"] == 0)
    assert "is artillery, a gun and its crew, and does not assault" in units[gun]["attack_refused"]
    assert units[gun]["attack_refused"] == refused(
        "/api/odds/assault", {"attacker": gun, "defender": foe}
    )
    assert units[squad]["models"] == 10
    # an immobilised vehicle's Run
    client.post("/api/shot-at", json={"unit": tank, "immobilised": True})
    client.post("/api/draw", json={"side": 0})
    units = client.get("/api/state").json()["units"]
    assert list(units[tank]["orders_refused"]) == ["Run"]
    assert units[tank]["orders_refused"]["Run"] == refused(
        "/api/order", {"unit": tank, "order": "Run"}
    )
    assert units[tank]["orders_refused"]["Run"].startswith("Panzer IV Ausf. H is immobilised")
    # a firer and an attacker whose die shows Down (a reaction)
    session.step(lambda t: t.take_die(squad, "Down", "reaction"))
    units = client.get("/api/state").json()["units"]
    assert units[squad]["fire_refused"] == refused(
        "/api/odds/shoot", {"firer": squad, "target": foe, "range": 10}
    )
    assert units[squad]["fire_refused"].startswith("1st Grenadier Squad cannot fire this turn")
    assert units[squad]["attack_refused"] == refused(
        "/api/odds/assault", {"attacker": squad, "defender": foe}
    )
    assert "has no Run order this turn (its die shows Down)" in units[squad]["attack_refused"]
    # a unit that has fought its assault does not assault again that turn (its odds too)
    session.step(lambda t: t.give_order(tank, "Fire", outcome="pass"))
    session.step(lambda t: t.draw(ScriptedDice([]), 0))
    session.step(lambda t: t.give_order(2, "Run", outcome="pass"))
    assert client.get("/api/state").json()["units"][2]["attack_refused"] is None
    session.step(lambda t: t.fought(2, foe, "attacker", 4))
    spent = client.get("/api/state").json()["units"][2]["attack_refused"]
    assert spent == refused("/api/odds/assault", {"attacker": 2, "defender": 10})
    assert "has fought its assault this turn" in spent

    # a side with no die left in the bag: the die drawn at the table is the other's
    def side_a_ordered(t: Tracker) -> Tracker:
        for unit in t.waiting(0):
            t = t.take_die(unit.uid, "Down", "damage" if unit.kind == "vehicle" else "reaction")
        return t

    session.step(side_a_ordered)
    draw_refused = client.get("/api/state").json()["draw_refused"]
    assert draw_refused[1] is None
    assert draw_refused[0] == refused("/api/draw", {"side": 0})
    assert draw_refused[0].startswith("no die of Schwerefeld Battlegroup is left in the bag")


def test_the_state_gives_a_shot_at_itself_and_a_pin_too_many_as_refused(tmp_path):
    """The Target list greys the firer and "+" the pin past the most a unit holds (99),
    each with the server's refusal in its own words (by rules in which pins never remove
    a unit, so that it may hold them)."""
    from fastapi.testclient import TestClient
    from test_bolt_action_rules import house_rules

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.aid.server import create_app

    path = house_rules(
        tmp_path, "pins_destroy_at_base_morale: true", "pins_destroy_at_base_morale: false"
    )
    save = str(tmp_path / "a.jsonl")
    session, _ = set_up(GameAsked("konflikt47", save=save, rules_file=path))
    client = TestClient(create_app(session))
    squad, foe = 1, 11

    def state(uid: int) -> dict:
        return client.get("/api/state").json()["units"][uid]

    def refused(path: str, body: dict) -> str:
        answer = client.post(path, json=body)
        assert answer.status_code == 409, answer.json()
        return str(answer.json()["error"])

    itself = state(squad)["own_target_refused"]
    assert itself == refused("/api/odds/shoot", {"firer": squad, "target": squad, "range": 6})
    assert itself == "1st Grenadier Squad cannot shoot at itself."
    assert client.post(
        "/api/odds/shoot", json={"firer": squad, "target": foe, "range": 6}
    ).is_success
    assert state(squad)["more_pins_refused"] is None
    assert client.post("/api/pins", json={"unit": squad, "pins": 98}).is_success
    assert state(squad)["more_pins_refused"] is None
    assert client.post("/api/pins", json={"unit": squad, "pins": 99}).is_success
    assert not state(squad)["destroyed"]  # (these rules remove no unit for its pins)
    too_many = state(squad)["more_pins_refused"]
    assert too_many == refused("/api/pins", {"unit": squad, "pins": 100})
    assert too_many == "1st Grenadier Squad's pins are 0 to 99 (got 100)."
    assert state(squad)["pins"] == 99


def test_the_state_says_why_undo_draw_and_a_minus_are_greyed_in_their_refusals_words(tmp_path):
    """Undo at the game's start, Draw with every unit ordered (the turn's end), and "−" on
    a unit's pins at none: the state gives each reason as the step is refused with it (and
    null where the step may be taken)."""
    from fastapi.testclient import TestClient

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.aid.server import create_app

    session, _ = set_up(GameAsked("bolt-action-1", turns=2, seed=2, save=str(tmp_path / "a.jsonl")))
    client = TestClient(create_app(session))
    squad = 1

    def refused(path: str, body: dict | None = None) -> str:
        answer = client.post(path, json=body) if body is not None else client.post(path)
        assert answer.status_code == 409, answer.json()
        return str(answer.json()["error"])

    state = client.get("/api/state").json()
    assert state["undo_refused"] == refused("/api/undo")
    assert state["undo_refused"] == "nothing to undo: this is the game's start."
    assert state["bag_draw_refused"] is None
    unit = state["units"][squad]
    assert unit["pins"] == 0
    assert unit["fewer_pins_refused"] == refused("/api/pins", {"unit": squad, "pins": -1})
    assert unit["fewer_pins_refused"] == (
        "1st Section has no pins to take off: pins are 0 to 99 (got -1)."
    )
    # a pin on: "−" may take it off, and Undo take the step back
    state = client.post("/api/pins", json={"unit": squad, "pins": 1}).json()
    assert state["undo_refused"] is None and state["units"][squad]["fewer_pins_refused"] is None
    # every unit ordered: no die is drawn until the turn is ended
    session.step(lambda t: _all_down(t))
    state = client.get("/api/state").json()
    assert state["phase"] == "turn end"
    assert state["bag_draw_refused"] == refused("/api/draw", {})
    assert state["bag_draw_refused"] == (
        "cannot draw a die now: every unit has its order: end the turn."
    )
    # a die in hand: none drawn until it is given
    client.post("/api/undo")
    state = client.post("/api/draw", json={}).json()
    assert state["in_hand"] is not None
    assert state["bag_draw_refused"] == refused("/api/draw", {})
    assert state["bag_draw_refused"].endswith("has a die in hand: give it to a unit first.")


def _all_down(t: Tracker) -> Tracker:
    for side in (0, 1):
        for unit in t.waiting(side):
            t = t.take_die(unit.uid, "Down", "damage" if unit.kind == "vehicle" else "reaction")
    return t
