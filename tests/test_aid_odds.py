"""The play aid's odds of a shot or an assault between tracked units: the calculator's own
answers, with the men, weapons, pins and dice read from the game as the simulated game
reads them."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from test_aid import new_tracker, with_die_in_hand
from test_game_bolt_action import small_game

from kriegsspiel.aid.questions import (
    AssaultAsked,
    ShotAsked,
    assault,
    in_the_pages_words,
    shoot,
)
from kriegsspiel.aid.tracker import AidError, Tracker
from kriegsspiel.errors import UsageError
from kriegsspiel.rulesets.bolt_action.edition import rules_for
from kriegsspiel.rulesets.bolt_action.kit import keep_rank
from kriegsspiel.rulesets.bolt_action.odds import assault_odds, shoot_odds
from kriegsspiel.rulesets.bolt_action.shooting import shots_per_model
from kriegsspiel.rulesets.bolt_action.shot import Situation
from kriegsspiel.rulesets.bolt_action.to_hit import describe_needs
from kriegsspiel.sim.matchup import build_matchup, parsed

RULESETS = ("konflikt47", "bolt-action-1")
LMG, RIFLE = "Light machine gun (LMG)", "Rifle"


def uid(tracker: Tracker, side: int, name: str) -> int:
    return next(u.uid for u in tracker.units if u.side == side and u.name == name)


def running(tracker: Tracker, unit: int) -> Tracker:
    """The tracker with ``unit`` given a Run order (an assault is one)."""
    side = tracker.units[unit].side
    return with_die_in_hand(tracker, side).give_order(unit, "Run", outcome="pass")


def fired(answer: dict) -> dict[str, int]:
    return {w["name"]: w["count"] for w in answer["weapons"]}


# ----------------------------------------------------------------------------- shots
def test_a_shot_gets_the_answer_kriegsspiel_odds_shoot_gives():
    t = new_tracker("konflikt47")
    squad, rifles = uid(t, 0, "1st Grenadier Squad"), uid(t, 1, "2nd Rifle Squad")
    answer = shoot(t, ShotAsked(squad, rifles, 18, cover="soft"))
    assert fired(answer) == {RIFLE: 8, LMG: 1}  # the Unteroffizier's SMG reaches 12" only
    cli = run_cli(
        *("odds", "shoot", "-r", "konflikt47", "-w", "Rifle:8", "-w", f"{LMG}:1"),
        *("--range", "18", "--cover", "soft", "--target-models", "10", "--json"),
    )
    assert cli.returncode == 0, cli.stderr
    expected = json.loads(cli.stdout)
    report = answer["report"]
    assert report["title"] == "1st Grenadier Squad shoots at 2nd Rifle Squad"
    for key in ("p_hit", "hits", "casualties", "pins", "to_hit_by_weapon", "reasoning"):
        assert report[key] == expected[key], key


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_aid_fires_what_the_simulated_game_fires(ruleset):
    """Every unit of one sample army at every unit of the other, at ranges across the
    weapons' bands: the aid's weapons, shots and scores to hit are the game's own (each
    game's models stood at one point, so every man has the range the aid is given)."""
    t = new_tracker(ruleset)
    rules = rules_for(ruleset)
    compared = refused = 0
    for firer in [u for u in t.units if u.side == 0]:
        for target in [u for u in t.units if u.side == 1]:
            game = small_game(ruleset, [firer.name], [target.name])
            ours, theirs = game.units
            for rng in (3.0, 11.0, 20.0, 34.0):
                for model in ours.models:
                    model.x, model.y = 36.0, 4.0
                for model in theirs.models:
                    model.x, model.y = 36.0, 4.0 + rng
                ours.heading, theirs.heading = 0.0, 180.0  # face to face
                groups = game.shooting_groups(ours, theirs, moving=False)
                try:
                    answer = shoot(t, ShotAsked(firer.uid, target.uid, rng))
                except AidError as exc:
                    assert not groups, f"{firer.name} at {target.name} {rng}: {exc}"
                    refused += 1
                    continue
                shots: dict[str, int] = {}
                for g in groups:
                    shots[g.shot.weapon] = shots.get(g.shot.weapon, 0) + g.shots
                assert {
                    name: n * shots_per_model(rules.weapon(name))
                    for name, n in fired(answer).items()
                } == shots, f"{firer.name} at {target.name} {rng}"
                needs = {g.shot.weapon: describe_needs(rules, g.shot.hit_on) for g in groups}
                assert answer["report"]["to_hit_by_weapon"] == needs
                compared += 1
    assert compared > 100 and refused > 5  # (the mortar within its minimum range, ...)


def test_losses_take_the_riflemen_first_then_special_weapons_and_leaders():
    t = new_tracker("konflikt47")
    squad, rifles = uid(t, 0, "1st Grenadier Squad"), uid(t, 1, "2nd Rifle Squad")
    t = t.set_models(squad, 7)
    assert fired(shoot(t, ShotAsked(squad, rifles, 18))) == {RIFLE: 5, LMG: 1}
    assert fired(shoot(t, ShotAsked(squad, rifles, 10))) == {
        RIFLE: 5,
        LMG: 1,
        "Submachine gun (SMG)": 1,
    }
    t = t.set_models(squad, 1)  # the Unteroffizier is the last man standing
    assert fired(shoot(t, ShotAsked(squad, rifles, 10))) == {"Submachine gun (SMG)": 1}
    with pytest.raises(AidError, match=r"none of 1st Grenadier Squad's weapons can fire .* 18\""):
        shoot(t, ShotAsked(squad, rifles, 18))


@settings(max_examples=60)
@given(data=st.data())
def test_survivors_are_the_models_left_losses_taken_lowest_rank_first(data):
    ruleset = data.draw(st.sampled_from(RULESETS))
    t = new_tracker(ruleset)
    armies = parsed(build_matchup(ruleset, None, []))[1:]
    unit = data.draw(st.sampled_from([u for u in t.units if u.kind != "vehicle"]))
    left = data.draw(st.integers(1, unit.start_models))
    after = t.set_models(unit.uid, left).units[unit.uid]
    survivors = after.survivors()
    assert sum(k.count for k in survivors) == left
    spec = next(s for s in armies[unit.side].units if s.name == unit.name)
    rules = rules_for(ruleset)
    rank = {
        m.name: keep_rank(rules, m.weapons, officer=m.officer is not None, nco=m.nco)
        for m in spec.models
    }
    whole = {k.name: k.count for k in after.kit}
    kept = {k.name: k.count for k in survivors}
    lost = [name for name, n in whole.items() if kept.get(name, 0) < n]
    # no man is lost while one the owner would rather lose is still standing
    assert all(rank[gone] <= rank[k.name] for gone in lost for k in survivors)


def test_an_advance_die_means_firing_on_the_move_and_a_fixed_weapon_cannot():
    t = new_tracker("konflikt47")
    squad, rifles, mmg = (
        uid(t, 0, "1st Grenadier Squad"),
        uid(t, 1, "2nd Rifle Squad"),
        uid(t, 0, "MG 42 MMG Team"),
    )
    units = list(t.units)  # (their dice show Advance, as after their orders)
    units[squad] = replace(units[squad], order="Advance")
    units[mmg] = replace(units[mmg], order="Advance")
    t = replace(t, units=tuple(units))
    moving = shoot(t, ShotAsked(squad, rifles, 18))
    standing = shoot(t, ShotAsked(squad, rifles, 18, moving=False))
    assert moving["read"]["moving"] and not standing["read"]["moving"]
    # the page tells a move read from the die from one the players set
    assert moving["read"]["moving_by"] == "game" and standing["read"]["moving_by"] == "players"
    said = shoot(t, ShotAsked(rifles, squad, 18, moving=True))["read"]
    assert said["moving"] and said["moving_by"] == "players"  # (its die: none yet)
    assert moving["report"]["to_hit_by_weapon"][RIFLE] == "5+"  # long range -1, moving -1
    assert standing["report"]["to_hit_by_weapon"][RIFLE] == "4+"
    with pytest.raises(AidError, match=r"MG 42 MMG Team's weapons can fire .* on the move"):
        shoot(t, ShotAsked(mmg, rifles, 18))
    assert shoot(t, ShotAsked(mmg, rifles, 18, moving=False))["weapons"]


def test_a_target_down_pinned_or_small_is_read_from_the_game():
    t = new_tracker("bolt-action-1")
    section, squad = uid(t, 0, "1st Section"), uid(t, 1, "1st Grenadier Squad")
    hq = uid(t, 1, "Platoon HQ")
    units = list(t.set_pins(section, 2).units)
    units[squad] = replace(units[squad], order="Down")
    t = replace(t, units=tuple(units))
    answer = shoot(t, ShotAsked(section, squad, 18))
    assert answer["read"]["target_down"] and answer["read"]["firer_pins"] == 2
    assert answer["read"]["target_down_by"] == "game"  # (its die: the page says so)
    exact = shoot_odds(
        "bolt-action-1",
        weapons=[f"{RIFLE}:8", f"{LMG}:1"],
        target="regular infantry",
        situation=Situation(range_inches=18, firer_pins=2, target_down=True, target_models=10),
    )
    assert answer["report"]["casualties"] == exact.to_json()["casualties"]
    small = shoot(t, ShotAsked(section, hq, 10))
    assert small["read"]["small_unit"] is False  # three models: not small
    t = t.set_models(hq, 2)
    assert shoot(t, ShotAsked(section, hq, 10))["read"]["small_unit"] is False  # started 3


def test_the_players_may_ask_the_odds_as_if_the_target_went_down_before_taking_its_die():
    """Playing solo, a unit shot at sees the shot's odds both ways before it goes Down;
    at the table the players ask the same with ``target_down`` (None: as its die shows),
    and nothing changes: its die is still in the bag. A vehicle goes Down to no shot."""
    t = new_tracker("bolt-action-1")
    section, squad = uid(t, 0, "1st Section"), uid(t, 1, "1st Grenadier Squad")

    def casualties(down: bool) -> dict:
        exact = shoot_odds(
            "bolt-action-1",
            weapons=[f"{RIFLE}:8", f"{LMG}:1"],
            target="regular infantry",
            situation=Situation(range_inches=18, target_down=down, target_models=10),
        )
        return exact.to_json()["casualties"]

    standing, down = casualties(False), casualties(True)
    assert down["mean"] < standing["mean"]
    asked = shoot(t, ShotAsked(section, squad, 18, target_down=True))
    assert asked["read"]["target_down"] and asked["report"]["casualties"] == down
    assert asked["read"]["target_down_by"] == "players"  # ticked, not read from its die
    assert shoot(t, ShotAsked(section, squad, 18))["report"]["casualties"] == standing
    assert t.units[squad].order is None  # (asking took no die)
    units = list(t.units)
    units[squad] = replace(units[squad], order="Down")
    gone_down = replace(t, units=tuple(units))
    up = shoot(gone_down, ShotAsked(section, squad, 18, target_down=False))
    assert up["report"]["casualties"] == standing and not up["read"]["target_down"]
    sherman = uid(t, 0, "M4 Sherman")
    panzer = uid(t, 1, "Panzer IV Ausf. H")
    with pytest.raises(AidError, match="target Down: M4 Sherman is a vehicle") as refused:
        shoot(t, ShotAsked(panzer, sherman, 18, target_down=True))
    assert refused.value.field == "target_down"


def test_a_team_weapon_with_one_crew_left_fires_at_minus_one():
    t = new_tracker("konflikt47")
    mmg, rifles = uid(t, 0, "MG 42 MMG Team"), uid(t, 1, "2nd Rifle Squad")
    full = shoot(t, ShotAsked(mmg, rifles, 20))
    alone = shoot(t.set_models(mmg, 1), ShotAsked(mmg, rifles, 20))
    assert fired(alone) == fired(full) == {"Medium machine gun (MMG)": 1}
    assert alone["report"]["reasoning"][0]["topic"] == "one crew left"
    as_a_pin = shoot_odds(
        "konflikt47",
        weapons=["Medium machine gun (MMG):1"],
        target="regular infantry",
        situation=Situation(range_inches=20, firer_pins=1, target_models=10),
    )
    assert alone["report"]["casualties"] == as_a_pin.to_json()["casualties"]
    assert alone["report"]["casualties"]["mean"] < full["report"]["casualties"]["mean"]


def test_a_vehicle_fires_every_mount_and_the_players_may_set_one_aside():
    t = new_tracker("bolt-action-1")
    sherman, panzer = uid(t, 0, "M4 Sherman"), uid(t, 1, "Panzer IV Ausf. H")
    front = shoot(t, ShotAsked(sherman, panzer, 20))
    assert fired(front) == {"Medium AT gun": 1, "MMG": 2}
    side = shoot(t, ShotAsked(sherman, panzer, 20, facing="side"))
    assert side["report"]["p_knocked_out"] > front["report"]["p_knocked_out"] > 0
    # an officer near the target tank: its crew's tests (on fire) take his bonus
    near = shoot(t, ShotAsked(sherman, panzer, 20, target_officer="First Lieutenant"))
    crew = {r["topic"]: r["because"] for r in near["report"]["reasoning"]}["crew's tests"]
    assert "First Lieutenant +2" in crew
    gun_only = shoot(t, ShotAsked(sherman, panzer, 20, weapons=(("Medium AT gun", 1), ("MMG", 0))))
    assert fired(gun_only) == {"Medium AT gun": 1}
    assert gun_only["report"]["p_knocked_out"] == front["report"]["p_knocked_out"]  # MMGs: no pen
    assert gun_only["report"]["hits"]["mean"] < front["report"]["hits"]["mean"]
    # the grenadiers with Panzerfausts fire them at the tank, and rifles at troops
    squad, section = uid(t, 1, "1st Grenadier Squad"), uid(t, 0, "1st Section")
    assert fired(shoot(t, ShotAsked(squad, sherman, 10)))["Panzerfaust"] == 2
    assert "Panzerfaust" not in fired(shoot(t, ShotAsked(squad, section, 10)))


def test_weapons_given_by_hand_and_questions_refused_with_a_reason():
    t = new_tracker("bolt-action-1")
    section, squad = uid(t, 0, "1st Section"), uid(t, 1, "1st Grenadier Squad")
    by_hand = shoot(t, ShotAsked(section, squad, 12, weapons=((RIFLE, 3),)))
    assert fired(by_hand) == {RIFLE: 3}
    with pytest.raises(AidError, match="Musket"):
        shoot(t, ShotAsked(section, squad, 12, weapons=(("Musket", 3),)))
    with pytest.raises(AidError, match="at least one weapon"):
        shoot(t, ShotAsked(section, squad, 12, weapons=((RIFLE, 0),)))
    with pytest.raises(AidError, match="cannot shoot at itself"):
        shoot(t, ShotAsked(section, section, 12))
    with pytest.raises(AidError, match="is destroyed"):
        shoot(t.destroy(squad), ShotAsked(section, squad, 12))
    mmg = uid(t, 0, "Vickers MMG Team")
    with pytest.raises(AidError, match="Musket"):  # (its lone crew asks the weapon's rules)
        shoot(t.set_models(mmg, 1), ShotAsked(mmg, squad, 12, weapons=(("Musket", 1),)))
    with pytest.raises(AidError, match="no unit 99"):
        shoot(t, ShotAsked(section, 99, 12))
    # a save from before the aid kept units' weapons: weapons by hand still work
    old = replace(t, units=tuple(replace(u, kit=()) for u in t.units))
    with pytest.raises(AidError, match="does not hold 1st Section's models and weapons"):
        shoot(old, ShotAsked(section, squad, 12))
    assert fired(shoot(old, ShotAsked(section, squad, 12, weapons=((RIFLE, 8),)))) == {RIFLE: 8}


# ----------------------------------------------------------------------------- assaults
def test_an_assault_counts_the_assault_weapons_pins_and_officers():
    t = new_tracker("konflikt47")
    vets, rifles = uid(t, 0, "2nd Grenadier Squad"), uid(t, 1, "1st Rifle Squad")
    t = t.set_pins(vets, 1).set_models(rifles, 6)
    answer = assault(t, AssaultAsked(vets, rifles, attacker_officer="Second Lieutenant"))
    read = answer["read"]
    # 2 Stormtroopers and the Unteroffizier carry assault rifles; of the US squad the
    # Sergeant's SMG (its BAR gunner fires no assault weapon) is left after four riflemen
    assert read["attacker_assault_weapons"] == 3 and read["defender_assault_weapons"] == 1
    exact = assault_odds(
        "konflikt47",
        attackers=8,
        attacker_quality="veteran",
        defenders=6,
        defender_quality="regular",
        attacker_assault_weapons=3,
        defender_assault_weapons=1,
        attacker_pins=1,
        attacker_officer="Second Lieutenant",
    )
    assert answer["report"]["p_attacker_wins"] == pytest.approx(
        float(exact.probabilities["p_attacker_wins"])
    )
    assert read["defender_modes"] == ["hand-to-hand", "point-blank", "stand-and-fire"]


def test_only_a_unit_without_an_order_stands_and_fires():
    t = new_tracker("konflikt47")
    vets, rifles = uid(t, 0, "2nd Grenadier Squad"), uid(t, 1, "1st Rifle Squad")
    stand = assault(t, AssaultAsked(vets, rifles, defender_mode="stand-and-fire"))
    first = [r["topic"] for r in stand["report"]["reasoning"]]
    assert "defenders' fire" in first
    hand = assault(t, AssaultAsked(vets, rifles))
    assert stand["report"]["p_attacker_wins"] < hand["report"]["p_attacker_wins"]
    t = t.take_die(rifles, "Down", "reaction")
    with pytest.raises(AidError, match="cannot fight stand-and-fire: it has had an order"):
        assault(t, AssaultAsked(vets, rifles, defender_mode="stand-and-fire"))
    b = new_tracker("bolt-action-1")
    with pytest.raises(AidError, match="has no assault reactions"):
        assault(b, AssaultAsked(1, 12, defender_mode="point-blank"))


def state_of(tracker: Tracker) -> dict:
    from kriegsspiel.aid.view import view

    return view(tracker, can_undo=False)


def test_a_unit_whose_die_was_taken_to_stand_and_fire_still_stands_and_fires():
    """The players may take the defenders' die (a Fire reaction) before asking the odds:
    the fight is then asked as the same stand and fire; a Fire by order, a Down reaction
    or last turn's reaction is not one."""
    t = new_tracker("konflikt47")
    vets, rifles = uid(t, 0, "2nd Grenadier Squad"), uid(t, 1, "1st Rifle Squad")
    asked = AssaultAsked(vets, rifles, defender_mode="stand-and-fire")
    before = assault(t, asked)
    reacted = t.take_die(rifles, "Fire", "reaction")
    assert reacted.units[rifles].reacted and reacted.units[rifles].order == "Fire"
    assert assault(reacted, asked)["report"] == before["report"]
    assert state_of(reacted)["units"][rifles]["defender_modes"][-1] == "stand-and-fire"
    down = t.take_die(rifles, "Down", "reaction")
    assert "stand-and-fire" not in state_of(down)["units"][rifles]["defender_modes"]
    by_order = replace(
        t, units=tuple(replace(u, order="Fire") if u.uid == rifles else u for u in t.units)
    )
    with pytest.raises(AidError, match="cannot fight stand-and-fire: it has had an order"):
        assault(by_order, asked)
    ordered = tuple(u if u.order else replace(u, order="Fire") for u in reacted.units)
    next_turn = replace(reacted, units=ordered).end_turn()
    assert not next_turn.units[rifles].reacted
    assert (
        assault(next_turn, asked)["report"]["p_attacker_wins"]
        == before["report"]["p_attacker_wins"]
    )


def test_bolt_action_close_quarters_takes_no_pins_or_officers():
    t = new_tracker("bolt-action-1")
    section, squad = uid(t, 0, "1st Section"), uid(t, 1, "1st Grenadier Squad")
    plain = assault(t, AssaultAsked(section, squad))
    pinned = assault(t.set_pins(section, 3), AssaultAsked(section, squad, "Second Lieutenant"))
    assert plain["report"]["p_attacker_wins"] == pinned["report"]["p_attacker_wins"]
    assert pinned["read"]["attacker_officer"] is None


def test_infantry_assault_a_vehicle_as_it_moved_this_turn():
    t = new_tracker("bolt-action-1")
    squad, sherman = uid(t, 1, "1st Grenadier Squad"), uid(t, 0, "M4 Sherman")
    still = assault(t, AssaultAsked(squad, sherman))
    assert still["read"]["vehicle_move"] == "stationary"
    units = list(t.units)
    units[sherman] = replace(units[sherman], order="Advance")
    moved = assault(replace(t, units=tuple(units)), AssaultAsked(squad, sherman))
    assert moved["read"]["vehicle_move"] == "advanced"
    assert moved["report"]["p_knocked_out"] < still["report"]["p_knocked_out"]
    # with Panzerfausts in the squad, no -3 on the order test for want of anti-tank weapons
    assert still["report"]["p_order_test"] == 1.0
    t = t.set_models(squad, 6)  # the Panzerfaust men (special weapons) are still there
    assert assault(t, AssaultAsked(squad, sherman))["report"]["p_order_test"] == 1.0
    section = uid(t, 0, "1st Section")
    panzer = uid(t, 1, "Panzer IV Ausf. H")
    assert assault(t, AssaultAsked(section, panzer))["report"]["p_order_test"] < 1.0
    with pytest.raises(AidError, match="is a vehicle: only infantry"):
        assault(t, AssaultAsked(sherman, squad))


def test_a_fired_panzerfaust_is_no_anti_tank_weapon_to_the_aid_as_to_the_game():
    """The game and the aid ask whether assaulters have an anti-tank weapon alike
    (kit.has_anti_tank): a squad whose only one is a Panzerfaust has it until it is
    fired. The game knows it fired; the aid is told so (the players' tick, or the
    question's one_shot_fired), and then takes the order test's penalty as the game does."""
    import kriegsspiel
    from kriegsspiel.aid.view import view

    game = kriegsspiel.new_game("bolt-action-1", seed=1)
    grenadiers = next(u for u in game.units if u.name == "1st Grenadier Squad")
    carriers = [m for m in grenadiers.alive_models if "Panzerfaust" in m.weapons]
    assert game.has_anti_tank(grenadiers)
    for model in carriers:
        model.used_one_shot = True
    assert not game.has_anti_tank(grenadiers)
    t = new_tracker("bolt-action-1")
    squad, sherman = uid(t, 1, "1st Grenadier Squad"), uid(t, 0, "M4 Sherman")
    before = assault(t, AssaultAsked(squad, sherman))["report"]
    fired = assault(t, AssaultAsked(squad, sherman, one_shot_fired=True))["report"]
    assert before["p_order_test"] == 1.0 > fired["p_order_test"]
    assert fired["p_knocked_out"] < before["p_knocked_out"]
    section = uid(t, 0, "1st Section")  # (no anti-tank weapon: fired or not, alike)
    panzer = uid(t, 1, "Panzer IV Ausf. H")
    assert (
        assault(t, AssaultAsked(section, panzer))["report"]
        == (assault(t, AssaultAsked(section, panzer, one_shot_fired=True))["report"])
    )
    # the page asks it only of a unit whose men left carry a one-shot anti-tank weapon
    asked = {u["name"]: u["one_shot_anti_tank"] for u in view(t, can_undo=False)["units"]}
    assert asked["1st Grenadier Squad"] and not asked["1st Section"]
    assert not asked["Panzerschreck Team"]  # (its Panzerschreck fires again)
    gone = {
        u["name"]: u["one_shot_anti_tank"]
        for u in view(t.set_models(squad, 1), can_undo=False)["units"]
    }
    assert not gone["1st Grenadier Squad"]  # (its NCO left: the Panzerfaust men fell)


def test_a_panzerfaust_said_fired_fires_no_more_in_the_squads_shots_or_assaults():
    """The shot's odds counted a Panzerfaust the squad had fired. The players now say it
    once (a step: the tracker keeps it, the log says it, undo takes it back), and its shots
    then fire the men's rifles, as the game's men with a spent one-shot weapon do, and
    its assault on a vehicle lacks the anti-tank weapon; both questions' one_shot_fired
    (None: as said) asks the same fact either way."""
    from kriegsspiel.aid.view import view

    t = new_tracker("bolt-action-1")
    squad, sherman = uid(t, 1, "1st Grenadier Squad"), uid(t, 0, "M4 Sherman")
    before = shoot(t, ShotAsked(squad, sherman, 10))
    assert fired(before)["Panzerfaust"] == 2 and not before["read"]["one_shot_fired"]
    said = t.set_one_shot_fired(squad, True)
    assert said.log[-1] == "1st Grenadier Squad: its Panzerfaust fired (it counts no more)"
    after = shoot(said, ShotAsked(squad, sherman, 10))
    assert "Panzerfaust" not in fired(after) and fired(after)["Rifle"] == 8
    assert after["read"]["one_shot_fired"]
    assert after["report"]["p_knocked_out"] < before["report"]["p_knocked_out"]
    # the question's field says the same, whatever the card says
    assert shoot(t, ShotAsked(squad, sherman, 10, one_shot_fired=True)) == after
    assert shoot(said, ShotAsked(squad, sherman, 10, one_shot_fired=False)) == before
    assert assault(said, AssaultAsked(squad, sherman)) == assault(
        t, AssaultAsked(squad, sherman, one_shot_fired=True)
    )
    assert assault(said, AssaultAsked(squad, sherman))["read"]["one_shot_fired"]
    # a fired Panzerfaust given by hand is refused, saying why
    with pytest.raises(AidError, match="Panzerfaust is fired \\(a one-shot weapon\\)") as e:
        shoot(said, ShotAsked(squad, sherman, 10, weapons=(("Panzerfaust", 1),)))
    assert e.value.field == "weapons.0.name"
    assert view(said, can_undo=True)["units"][squad]["one_shot_fired"]
    with pytest.raises(AidError, match="are fired already"):
        said.set_one_shot_fired(squad, True)
    section = uid(t, 0, "1st Section")
    with pytest.raises(AidError, match="carry no one-shot anti-tank weapon"):
        t.set_one_shot_fired(section, True)
    back = said.set_one_shot_fired(squad, False)  # (said in error)
    assert back.units[squad] == t.units[squad]
    assert back.log[-1] == "1st Grenadier Squad: its Panzerfaust not fired after all"


def test_a_shots_result_taken_with_a_panzerfaust_marks_it_fired_in_the_same_step():
    """A player taking the result of a shot the squad fired with its Panzerfausts expects
    them fired; the aid marked them only when told on the squad's card. The result, given
    its firer and the weapons fired (as the odds gave them), now marks a one-shot anti-tank
    weapon among them fired, in the one step (the log says it first, as the game spends
    it as it fires); a result without them, or a shot with rifles only, marks nothing;
    one naming a Panzerfaust fired already is refused, saying why."""
    t = new_tracker("bolt-action-1")
    squad, sherman = uid(t, 1, "1st Grenadier Squad"), uid(t, 0, "M4 Sherman")
    section = uid(t, 0, "1st Section")
    weapons = [(w["name"], w["count"]) for w in shoot(t, ShotAsked(squad, sherman, 10))["weapons"]]
    assert ("Panzerfaust", 2) in weapons
    hit = t.shot_at(sherman, 0, 1, firer=squad, weapons=weapons)
    assert hit.units[squad].one_shot_fired and hit.units[sherman].pins == 1
    assert hit.log[len(t.log) :] == (
        "1st Grenadier Squad: its Panzerfaust fired (it counts no more)",
        "M4 Sherman shot at: 1 pin",
        "M4 Sherman: 1 pin",
    )
    assert hit == t.set_one_shot_fired(squad, True).shot_at(sherman, 0, 1)
    assert not t.shot_at(sherman, 0, 1).units[squad].one_shot_fired  # (taken off the aid)
    unfired = t.shot_at(sherman, 0, 1, firer=squad, weapons=[("Panzerfaust", 0), ("Rifle", 8)])
    assert not unfired.units[squad].one_shot_fired  # (set to 0 by hand: not fired)
    rifles = t.shot_at(section, 1, 1, firer=squad, weapons=[("Rifle", 8)])
    assert not rifles.units[squad].one_shot_fired and rifles.units[section].models == 9
    # the enemy's last unit knocked out ends the game: the Panzerfaust was fired first
    last = t
    for unit in t.units:
        if unit.side == 0 and unit.uid != sherman:
            last = last.destroy(unit.uid)
    over = last.shot_at(sherman, 1, 0, firer=squad, weapons=[("Panzerfaust", 1)])
    assert over.over and over.units[squad].one_shot_fired and over.units[sherman].destroyed
    with pytest.raises(AidError, match="are fired already: the shot's weapons cannot") as e:
        hit.shot_at(sherman, 1, 0, firer=squad, weapons=[("Panzerfaust", 1)])
    assert e.value.field == "weapons" and "untick" in str(e.value)
    with pytest.raises(AidError, match="carry no one-shot anti-tank weapon") as e:
        t.shot_at(sherman, 0, 1, firer=uid(t, 1, "Platoon HQ"), weapons=[("Panzerfaust", 1)])
    with pytest.raises(AidError, match="without the firer") as e:
        t.shot_at(sherman, 0, 1, weapons=[("Panzerfaust", 1)])
    assert e.value.field == "firer"
    with pytest.raises(AidError, match="Unknown weapon 'Panzerfist'") as e:
        t.shot_at(sherman, 0, 1, firer=squad, weapons=[("Panzerfaust", 0), ("Panzerfist", 1)])
    assert e.value.field == "weapons.1.name"


def test_konflikt47_a_vehicle_fires_at_infantry_coming_to_assault_it():
    t = new_tracker("konflikt47")
    squad, sherman = uid(t, 0, "1st Grenadier Squad"), uid(t, 1, "M4 Sherman")
    plain = assault(t, AssaultAsked(squad, sherman))
    near = assault(t, AssaultAsked(squad, sherman, from_inches=6))  # within the sheet's 6"
    fired_on = assault(t, AssaultAsked(squad, sherman, from_inches=10))
    assert near["report"]["p_knocked_out"] == plain["report"]["p_knocked_out"]
    assert fired_on["report"]["p_knocked_out"] < plain["report"]["p_knocked_out"]
    why = {r["topic"]: r["result"] for r in fired_on["report"]["reasoning"]}
    assert why["vehicle's fire"] == 'at 10"' and why["  Medium AT gun"] == "1 shot"


def test_the_edition_says_how_its_assaults_are_asked_not_its_reactions():
    """The page's assault form is drawn from the edition's own close quarters (the state's
    ``attacker_modes``, ``assault_reactions``, ``vehicles_fire_at_assaulters``), never
    from whether it plays a reaction: Bolt Action 1st edition, which plays the Down
    reaction, has hand-to-hand only and no vehicle fire at assaulters, so "From" is
    said to change nothing there (over the API: the page does not ask it), not ignored."""
    from kriegsspiel.aid.view import view

    ba1, k47 = (
        view(new_tracker("bolt-action-1"), can_undo=False),
        view(new_tracker("konflikt47"), can_undo=False),
    )
    assert ba1["reactions"] and k47["reactions"]
    assert (ba1["attacker_modes"], ba1["assault_reactions"]) == (["hand-to-hand"], False)
    assert ba1["vehicles_fire_at_assaulters"] is False
    assert k47["attacker_modes"] == ["hand-to-hand", "point-blank"]
    assert k47["assault_reactions"] is True and k47["vehicles_fire_at_assaulters"] is True
    t = new_tracker("bolt-action-1")
    squad, carrier = uid(t, 1, "1st Grenadier Squad"), uid(t, 0, "Universal Carrier")
    far = assault(t, AssaultAsked(squad, carrier, from_inches=10))
    assert (
        far["report"]["p_knocked_out"]
        == assault(t, AssaultAsked(squad, carrier))["report"]["p_knocked_out"]
    )
    why = {r["topic"]: f"{r['result']}: {r['because']}" for r in far["report"]["reasoning"]}
    assert why["vehicle's fire"] == (
        "no effect: in Bolt Action (1st edition) a vehicle does not fire at its assaulters: "
        "From changes nothing"
    )
    assert assault(t, AssaultAsked(squad, carrier))["read"]["vehicle_move"] == "stationary"


def test_the_calculators_refusals_and_reasons_name_the_pages_fields_not_its_options():
    """The odds calculator speaks of ``kriegsspiel odds``'s options; the page has fields
    ("From", "Vehicle") and reads the vehicle's weapons from the game."""
    t = new_tracker("konflikt47")
    squad, panzer = uid(t, 1, "1st Rifle Squad"), uid(t, 0, "Panzer IV Ausf. H")
    with pytest.raises(AidError) as ran:
        assault(t, AssaultAsked(squad, panzer, vehicle_move="ran"))
    assert str(ran.value).startswith("Vehicle ran: infantry cannot assault a vehicle that ran")
    with pytest.raises(AidError) as far:
        assault(t, AssaultAsked(squad, panzer, from_inches=30))
    assert str(far.value) == (
        "From 30: an assault begins within the assaulters' Run (12\"); give From 12 or less."
    )
    unasked = assault(t, AssaultAsked(squad, panzer))["report"]["reasoning"]
    fire = next(r for r in unasked if r["topic"] == "vehicle's fire")
    assert fire["because"].endswith(
        "give From, the inches the assault begins at (the vehicle fires every mount)"
    )
    for said in (str(ran.value), str(far.value), *(str(r) for r in unasked)):
        assert "--" not in said
    assert in_the_pages_words("--target-pins 3 and --officer X") == "target pins 3 and Near X"


# ----------------------------------------------------------------------------- the API
@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.aid.server import create_app

    save = tmp_path / "aid.jsonl"
    session, _ = set_up(GameAsked("konflikt47", turns=None, seed=2, save=str(save)))
    test_client = TestClient(create_app(session))
    test_client.session = session  # type: ignore[attr-defined]
    test_client.save = save  # type: ignore[attr-defined]
    return test_client


def test_the_api_answers_odds_and_changes_nothing(client):
    before, saved = client.get("/api/state").json(), client.save.read_bytes()
    answer = client.post(
        "/api/odds/shoot", json={"firer": 1, "target": 11, "range": 18, "cover": "soft"}
    )
    assert answer.status_code == 200
    assert answer.json()["weapons"] == [{"name": RIFLE, "count": 8}, {"name": LMG, "count": 1}]
    hand = client.post(
        "/api/odds/shoot",
        json={"firer": 1, "target": 11, "range": 18, "weapons": [{"name": RIFLE, "count": 2}]},
    ).json()
    assert hand["weapons"] == [{"name": RIFLE, "count": 2}]
    fight = client.post("/api/odds/assault", json={"attacker": 2, "defender": 10}).json()
    assert 0 < fight["report"]["p_attacker_wins"] < 1
    assert client.get("/api/state").json() == before
    assert client.save.read_bytes() == saved and len(client.session.steps) == 1


def test_the_api_takes_target_down_for_a_shot(client):
    """``target_down`` was refused as an extra input; now it is asked (null: its die)."""
    body = {"firer": 1, "target": 11, "range": 18}
    plain = client.post("/api/odds/shoot", json=body).json()
    down = client.post("/api/odds/shoot", json={**body, "target_down": True})
    assert down.status_code == 200 and down.json()["read"]["target_down"] is True
    assert down.json()["report"]["casualties"]["mean"] < plain["report"]["casualties"]["mean"]
    same = client.post("/api/odds/shoot", json={**body, "target_down": None}).json()
    assert same["report"] == plain["report"]


def test_the_api_refuses_a_question_with_a_reason(client):
    far = client.post("/api/odds/shoot", json={"firer": 1, "target": 11, "range": 60})
    assert far.status_code == 409 and 'can fire at 2nd Rifle Squad 60"' in far.json()["error"]
    bad = client.post("/api/odds/shoot", json={"firer": 1, "target": 11, "range": -1})
    assert bad.status_code == 422 and bad.json()["error"].startswith("range:")
    cover = client.post(
        "/api/odds/shoot", json={"firer": 1, "target": 11, "range": 5, "cover": "x"}
    )
    assert cover.status_code == 422 and cover.json()["error"].startswith("cover:")
    mode = client.post(
        "/api/odds/assault", json={"attacker": 1, "defender": 10, "defender_mode": "run"}
    )
    assert mode.status_code == 422 and mode.json()["error"].startswith("defender_mode:")


# ----------------------------------------------------------------------------- the dice's result
def test_a_shots_result_takes_pins_first_then_losses_in_one_step():
    tracker = new_tracker("bolt-action-1")
    squad = next(u for u in tracker.units if u.kind == "infantry" and u.start_models >= 8)
    half = squad.start_models // 2
    after = tracker.shot_at(squad.uid, squad.start_models - half, 2)
    hit = after.units[squad.uid]
    assert (hit.models, hit.pins) == (half, 2)
    # the half-strength check is named with this shot's two pins on it
    check = after.log[-1]
    assert f"a morale check (needs {after.test_of(squad.uid).value} or less)" in check
    assert after.test_of(squad.uid).value == tracker.test_of(squad.uid).value - 2
    assert after.log[-3] == f"{squad.name} shot at: {squad.start_models - half} casualties, 2 pins"
    # the survivors are the ones the owner keeps, the last of the list's ranking
    assert sum(k.count for k in hit.survivors()) == half
    assert hit.survivors()[-1] == squad.kit[-1]
    assert tracker.shot_at(squad.uid, 1, 0).log[-2] == f"{squad.name} shot at: 1 casualty, 0 pins"


def test_a_shots_result_can_remove_the_unit_and_end_the_game():
    tracker = new_tracker("bolt-action-1")
    squad = next(u for u in tracker.units if u.kind == "infantry")
    morale = tracker.test_of(squad.uid).base
    pinned_out = tracker.shot_at(squad.uid, 1, morale)
    assert pinned_out.units[squad.uid].destroyed and "removed from play" in pinned_out.log[-1]
    assert pinned_out.units[squad.uid].models == 0  # (no loss taken after: it is gone)
    tank = next(u for u in tracker.units if u.kind == "vehicle")
    knocked_out = tracker.shot_at(tank.uid, 1, 1)
    assert knocked_out.units[tank.uid].destroyed
    assert knocked_out.log[-3] == f"{tank.name} shot at: knocked out, 1 pin"
    last = tracker
    for unit in (u for u in tracker.units if u.side == 1):
        last = last.shot_at(unit.uid, unit.models, 0)
    assert last.over and last.phase == "over"


def test_a_shots_result_that_cannot_be_is_refused_and_changes_nothing():
    tracker = new_tracker("konflikt47")
    unit = tracker.units[0]
    for casualties, pins, said in [
        (unit.models + 1, 0, f"has {unit.models} models left"),
        (-1, 1, "casualties and pins are 0 or more"),
        (0, -2, "casualties and pins are 0 or more"),
        (0, 0, "nothing befell"),
    ]:
        with pytest.raises(AidError, match=said):
            tracker.shot_at(unit.uid, casualties, pins)
    with pytest.raises(AidError, match=r"pins are 0 to 99 \(got 100\)"):
        tracker.set_pins(unit.uid, 100)
    gone = tracker.destroy(unit.uid)
    with pytest.raises(AidError, match="is destroyed"):
        gone.shot_at(unit.uid, 1, 1)


def test_a_vehicle_immobilised_is_kept_so_and_a_second_time_knocked_out():
    """As the game's vehicle damage: immobilised stays for the game, a second one knocks it
    out, and the odds read it (as the tick would have given it)."""
    tracker = new_tracker("konflikt47")
    sherman = uid(tracker, 1, "M4 Sherman")
    hit = tracker.shot_at(sherman, 0, 1, immobilised=True)
    assert hit.units[sherman].immobilised and hit.units[sherman].pins == 1
    assert hit.log[-2] == "M4 Sherman shot at: immobilised, 1 pin"
    assert hit.units[sherman] in hit.waiting(1)  # (its die stays in the bag: it had none)
    asked = ShotAsked(uid(tracker, 0, "Panzer IV Ausf. H"), sherman, 24)
    pinned = tracker.set_pins(sherman, 1)
    ticked = shoot(pinned, replace(asked, target_immobilised=True))["report"]
    assert shoot(hit, asked)["report"] == ticked != shoot(pinned, asked)["report"]
    again = hit.shot_at(sherman, 0, 1, immobilised=True)
    assert again.units[sherman].destroyed
    assert again.log[-3] == "M4 Sherman shot at: immobilised again, so knocked out, 1 pin"


def test_a_vehicle_halted_or_immobilised_after_its_order_has_its_die_turned_down():
    tracker = new_tracker("konflikt47")
    sherman = uid(tracker, 1, "M4 Sherman")
    waiting = tracker.in_bag()[1]
    stunned = tracker.shot_at(sherman, 0, 1, halted=True)
    assert stunned.units[sherman].order == "Down" and not stunned.units[sherman].immobilised
    assert stunned.in_bag()[1] == waiting - 1  # its die is out of the bag
    assert stunned.log[-1] == "M4 Sherman: its die turned to Down (halted)"
    moved = replace(
        tracker,
        units=tuple(replace(u, order="Advance") if u.uid == sherman else u for u in tracker.units),
    )
    stopped = moved.shot_at(sherman, 0, 1, immobilised=True)
    assert (stopped.units[sherman].order, stopped.units[sherman].immobilised) == ("Down", True)
    squad = uid(tracker, 1, "1st Rifle Squad")
    with pytest.raises(AidError, match="is not a vehicle: only a vehicle is immobilised"):
        tracker.shot_at(squad, 1, 1, immobilised=True)
    assert tracker.shot_at(sherman, 1, 1, immobilised=True).units[sherman].destroyed


def test_the_api_takes_a_shots_result_as_one_step_that_undo_takes_back(client):
    before = client.get("/api/state").json()
    state = client.post("/api/shot-at", json={"unit": 11, "casualties": 3, "pins": 1}).json()
    target = state["units"][11]
    assert (target["models"], target["pins"]) == (before["units"][11]["models"] - 3, 1)
    assert len(client.session.steps) == 2
    assert json.loads(client.save.read_text().splitlines()[-1])["step"]["units"][11]["pins"] == 1
    again = client.post("/api/odds/shoot", json={"firer": 1, "target": 11, "range": 18}).json()
    assert (again["read"]["target_models"], again["read"]["target_pins"]) == (target["models"], 1)
    refused = client.post("/api/shot-at", json={"unit": 11, "casualties": 99})
    assert refused.status_code == 409 and "models left" in refused.json()["error"]
    assert client.post("/api/shot-at", json={"unit": 11, "hits": 2}).status_code == 422
    tank = client.post("/api/shot-at", json={"unit": 17, "pins": 1, "immobilised": True})
    assert tank.json()["units"][17]["immobilised"] and tank.json()["units"][17]["pins"] == 1
    client.post("/api/undo")
    assert client.post("/api/undo").json()["units"][11] == before["units"][11]


# ----------------------------------------------------------------------------- a fight's end
@pytest.mark.parametrize("ruleset", ["konflikt47", "bolt-action-1"])
def test_a_fights_end_destroys_the_loser_and_leaves_the_winner_its_models(ruleset):
    """As the game ends a fight (close_quarters.fight_on): the loser is destroyed, the
    winner keeps the models left to it and takes no check for its losses, even at half
    strength; its pins and die are as they were."""
    tracker = new_tracker(ruleset)
    a = next(u for u in tracker.units if u.side == 0 and u.start_models == 10)
    d = next(u for u in tracker.units if u.side == 1 and u.start_models == 10)
    tracker = running(tracker.set_pins(a.uid, 1), a.uid)
    when = "at the turn end" if tracker.rules.destroyed_dice_stay_in_cup else "now"
    won = tracker.fought(a.uid, d.uid, "attacker", 3)
    assert (won.units[a.uid].models, won.units[a.uid].pins) == (3, 1)
    assert won.units[d.uid].destroyed and won.units[d.uid].models == 0
    assert won.log[-1].startswith(
        f"{a.name} won the close quarters fight against {d.name}, 3 of 10 models left "
        "(taken as lost, riflemen first"
    )
    assert won.log[-1].endswith(f"; {d.name} destroyed (its die leaves the bag {when})")
    assert won.destroyed_count(1) == 1 and not won.over
    held = tracker.fought(a.uid, d.uid, "defender", 10)
    assert held.units[a.uid].destroyed and held.units[d.uid] == tracker.units[d.uid]
    both = tracker.fought(a.uid, d.uid, "both")
    assert both.units[a.uid].destroyed and both.units[d.uid].destroyed
    assert both.log[-1].startswith(f"{a.name} and {d.name} wiped each other out")
    assert (both.destroyed_count(0), both.destroyed_count(1)) == (1, 1)


def test_a_fight_that_takes_a_sides_last_unit_ends_the_game():
    tracker = new_tracker("konflikt47")
    last = tracker
    for unit in (u for u in tracker.units if u.side == 1 and u.uid != 10):
        last = last.destroy(unit.uid)
    last = running(last, 1)
    ended = last.fought(1, 10, "attacker", 4)
    assert ended.over and ended.phase == "over"
    assert ended.log[-1].startswith("Game over (")
    assert not last.fought(1, 10, "defender", 10).over  # (the other way, both sides remain)


def test_a_fights_end_that_cannot_be_is_refused_and_changes_nothing():
    tracker = running(new_tracker("konflikt47"), 1)
    squad, hq, enemy, tank = (
        tracker.units[1],
        tracker.units[0],
        tracker.units[10],
        tracker.units[17],
    )
    for args, said in [
        ((squad.uid, hq.uid, "attacker", 2), "are on the same side"),
        ((tracker.units[8].uid, enemy.uid, "attacker", 1), "vehicles do not assault"),
        ((squad.uid, tank.uid, "attacker", 1), "is a vehicle: give what befell it as a shot's"),
        ((squad.uid, enemy.uid, "attacker", 0), r"won with 1 to 10 models left \(got 0\)"),
        ((squad.uid, enemy.uid, "defender", 11), r"won with 1 to 10 models left \(got 11\)"),
        ((squad.uid, enemy.uid, "both", 2), r"leaves no models \(got 2 left\)"),
        ((squad.uid, enemy.uid, "draw", 2), "the winner is attacker, defender or both"),
        ((squad.uid, 99, "attacker", 2), "no unit 99"),
    ]:
        with pytest.raises(AidError, match=said):
            tracker.fought(*args)
    gone = tracker.destroy(enemy.uid)
    with pytest.raises(AidError, match="is destroyed"):
        gone.fought(squad.uid, enemy.uid, "attacker", 2)


def test_defenders_who_stood_and_fired_have_their_die_taken_with_the_fights_end():
    """Konflikt '47's stand and fire uses the defenders' die (the game turns it to Fire):
    "Fought" takes it as a Fire reaction if the players have not, and not twice."""
    tracker = running(new_tracker("konflikt47"), 2)
    won = tracker.fought(2, 10, "defender", 10, stood_and_fired=True)
    rifles = won.units[10]
    assert (rifles.order, rifles.reacted) == ("Fire", True) and rifles not in won.waiting(1)
    assert won.log[-2] == "1st Rifle Squad: Fire (reaction; its die taken from the bag)"
    taken = tracker.take_die(10, "Fire", "reaction")
    again = taken.fought(2, 10, "defender", 10, stood_and_fired=True)
    assert again.units[10] == replace(taken.units[10], stood_and_fired=True)
    assert len(again.log) == len(taken.log) + 1
    down = tracker.take_die(10, "Down", "reaction")
    with pytest.raises(AidError, match=r"already has an order this turn \(Down\)"):
        down.fought(2, 10, "defender", 10, stood_and_fired=True)
    with pytest.raises(AidError, match="shows Down, not 'Fire'"):
        running(new_tracker("bolt-action-1"), 1).fought(1, 12, "attacker", 5, stood_and_fired=True)


def test_a_morale_check_rolled_by_the_rules_own_check_destroys_the_unit_that_fails():
    """The aid rolls the engine's morale check (2D6 at most the value, double six fails,
    double one passes); the players may give the outcome instead."""
    from kriegsspiel.core.procedure import ScriptedDice

    tracker = new_tracker("konflikt47")
    squad = uid(tracker, 1, "1st Rifle Squad")
    value = tracker.test_of(squad).value
    held = tracker.morale_check(squad, dice=ScriptedDice([3, 4]), unowed=True)
    assert not held.units[squad].destroyed
    assert held.log[-1] == (
        f"1st Rifle Squad: morale check (called for at the table) needs {value} or less, "
        "rolled 7: passed"
    )
    broke = tracker.morale_check(squad, dice=ScriptedDice([6, 5]), unowed=True)
    assert broke.units[squad].destroyed and broke.log[-2].endswith("rolled 11: failed")
    pinned = tracker.set_pins(squad, 3)  # its pins count against it, as in the game
    assert pinned.morale_check(squad, dice=ScriptedDice([4, 4]), unowed=True).units[squad].destroyed
    told = tracker.morale_check(squad, passed=False, unowed=True)
    assert told.units[squad].destroyed and told.log[-2] == (
        f"1st Rifle Squad: morale check (called for at the table) needs {value} or less: failed"
    )
    with pytest.raises(AidError, match="neither dice nor whether it passed given"):
        tracker.morale_check(squad)
    with pytest.raises(AidError, match="both dice and whether it passed given"):
        tracker.morale_check(squad, dice=ScriptedDice([1, 1]), passed=True)


def test_owed_morale_checks_are_kept_until_taken_the_flamethrowers_first():
    """A flamethrower's hit and a loss to half strength each call for a check (the game
    takes both, the flamethrower's first); the aid keeps them owed until they are taken,
    and a unit destroyed owes none."""
    from kriegsspiel.aid.tracker import FLAMED, HALF_STRENGTH

    tracker = new_tracker("bolt-action-1")
    squad = uid(tracker, 1, "1st Grenadier Squad")
    burnt = tracker.shot_at(squad, 5, 3, flamed=True)
    assert burnt.units[squad].checks_due == (FLAMED, HALF_STRENGTH)
    needs = burnt.test_of(squad).value  # (with the flamethrower's three pins on it)
    assert needs == tracker.test_of(squad).value - 3
    assert burnt.log[-2] == f"1st Grenadier Squad: {FLAMED}: a morale check (needs {needs} or less)"
    assert state_of(burnt)["units"][squad]["checks_due"] == [FLAMED, HALF_STRENGTH]
    first = burnt.morale_check(squad, passed=True)
    assert first.units[squad].checks_due == (HALF_STRENGTH,)
    assert first.log[-1] == (
        f"1st Grenadier Squad: morale check ({FLAMED}) needs {needs} or less: passed"
    )
    second = first.morale_check(squad, passed=True)
    assert second.units[squad].checks_due == () and f"({HALF_STRENGTH})" in second.log[-1]
    with pytest.raises(AidError, match="owes no morale check the aid knows of"):
        second.morale_check(squad, passed=True)  # none owed now: a stray click is refused
    failed = burnt.morale_check(squad, passed=False)
    assert failed.units[squad].destroyed and failed.units[squad].checks_due == ()
    assert tracker.shot_at(squad, 1, 2, flamed=True).units[squad].checks_due == (FLAMED,)
    wiped = tracker.shot_at(squad, 10, 3, flamed=True)
    assert wiped.units[squad].checks_due == () and FLAMED + ":" not in " ".join(wiped.log)
    tank = uid(tracker, 1, "Panzer IV Ausf. H")
    assert tracker.shot_at(tank, 0, 4, flamed=True).units[tank].checks_due == (FLAMED,)
    assert tracker.shot_at(tank, 1, 4, flamed=True).units[tank].checks_due == ()
    # a check the players let pass is said at the turn's end, and owed no longer
    ordered = tuple(u if u.order else replace(u, order="Fire") for u in first.units)
    next_turn = replace(first, units=ordered).end_turn()
    assert next_turn.units[squad].checks_due == ()
    assert f"1st Grenadier Squad: its morale check ({HALF_STRENGTH}) was not taken" in (
        next_turn.log
    )


def test_the_api_takes_a_flamethrowers_hit_as_an_owed_check(client):
    state = client.post("/api/shot-at", json={"unit": 10, "pins": 4, "flamed": True}).json()
    assert state["units"][10]["checks_due"] == ["hit by a flamethrower"]
    body = {"unit": 10, "roll": False, "passed": True}
    assert client.post("/api/morale-check", json=body).json()["units"][10]["checks_due"] == []


def test_a_second_assault_in_one_turn_finds_the_stand_and_fire_spent():
    """Standing and firing spends the defenders' die: a second assault on them the same
    turn is fought hand-to-hand or at point blank, and the next turn they may again."""
    t = new_tracker("konflikt47")
    first, second = uid(t, 0, "1st Grenadier Squad"), uid(t, 0, "2nd Grenadier Squad")
    rifles = uid(t, 1, "1st Rifle Squad")
    held = running(running(t, first), second).fought(
        first, rifles, "defender", 7, stood_and_fired=True
    )
    assert held.units[rifles].stood_and_fired and held.units[first].destroyed
    assert state_of(held)["units"][rifles]["defender_modes"] == ["hand-to-hand", "point-blank"]
    asked = AssaultAsked(second, rifles, defender_mode="stand-and-fire")
    with pytest.raises(AidError, match="stood and fired already this turn: its die is spent"):
        assault(held, asked)
    with pytest.raises(AidError, match="stood and fired already this turn"):
        held.fought(second, rifles, "defender", 5, stood_and_fired=True)
    beaten = held.fought(second, rifles, "attacker", 6)  # hand-to-hand: as it may
    assert beaten.units[rifles].destroyed
    ordered = tuple(u if u.order else replace(u, order="Fire") for u in held.units)
    next_turn = replace(held, units=ordered).end_turn()
    assert not next_turn.units[rifles].stood_and_fired
    assert assault(next_turn, asked)["read"]


@pytest.mark.parametrize(("rolls", "passed"), [((6, 6), False), ((1, 1), True)])
def test_a_morale_checks_doubles_are_the_rules(rolls, passed):
    from kriegsspiel.core.procedure import ScriptedDice

    tracker = new_tracker("konflikt47")
    squad = uid(tracker, 1, "1st Rifle Squad")
    tracker = tracker.set_pins(squad, 8) if passed else tracker  # (value 1: only a double one)
    after = tracker.morale_check(squad, dice=ScriptedDice(list(rolls)), unowed=True)
    assert after.units[squad].destroyed is not passed


def test_the_api_takes_a_fights_end_as_one_step_that_undo_takes_back(client):
    client.session.step(lambda t: running(running(t, 1), 2))  # (each assault is a Run)
    before = client.get("/api/state").json()
    body = {"attacker": 1, "defender": 11, "winner": "attacker", "left": 6}
    state = client.post("/api/fought", json=body).json()
    assert state["units"][1]["models"] == 6 and state["units"][11]["destroyed"]
    saved = json.loads(client.save.read_text().splitlines()[-1])["step"]
    assert saved["units"][11]["destroyed"] and saved["units"][1]["models"] == 6
    refused = client.post("/api/fought", json=body)
    assert refused.status_code == 409 and "is destroyed" in refused.json()["error"]
    unowed = {"unit": 12, "roll": False, "passed": False, "unowed": True}
    check = client.post("/api/morale-check", json=unowed)
    assert check.json()["units"][12]["destroyed"]
    client.post("/api/undo")
    both = client.post("/api/morale-check", json={"unit": 12, "passed": True})
    assert both.status_code == 409 and "roll: false with passed" in both.json()["error"]
    stood = {"attacker": 2, "defender": 10, "winner": "defender", "left": 10}
    after = client.post("/api/fought", json={**stood, "stood_and_fired": True}).json()
    assert after["units"][10]["order"] == "Fire" and after["units"][2]["destroyed"]
    client.post("/api/undo")
    bad = client.post("/api/fought", json={**body, "winner": "draw"})
    assert bad.status_code == 422 and bad.json()["error"].startswith("winner:")
    assert client.post("/api/undo").json()["units"] == before["units"]


def test_a_howitzer_lobs_its_shell_where_that_hits_more_easily():
    matchup = build_matchup("bolt-action-1", None, [])
    _, british, germans = parsed(matchup)
    units = tuple(
        u.model_copy(
            update={"models": (u.models[0].model_copy(update={"weapons": ("Medium howitzer",)}),)}
        )
        if u.name == "6-pdr Anti-tank Gun"
        else u
        for u in british.units
    )
    t = Tracker.start("bolt-action-1", (british.model_copy(update={"units": units}), germans), 6)
    gun, squad = uid(t, 0, "6-pdr Anti-tank Gun"), uid(t, 1, "1st Grenadier Squad")
    open_ground = shoot(t, ShotAsked(gun, squad, 30))
    topics = [r["topic"] for r in open_ground["report"]["reasoning"]]
    assert "indirect fire" not in topics  # fired straight: it hits more easily so
    units_ = list(t.units)
    units_[squad] = replace(units_[squad], order="Down")
    dug_in = replace(t, units=tuple(units_))
    lobbed = shoot(dug_in, ShotAsked(gun, squad, 40, cover="hard"))
    why = {r["topic"]: r["result"] for r in lobbed["report"]["reasoning"]}
    assert why["indirect fire"] == "lobbed"
    first_shot = rules_for("bolt-action-1").data.procedure.indirect_first_shot
    assert lobbed["report"]["to_hit_by_weapon"] == {"Medium howitzer": f"{first_shot}+"}


# ----------------------------------------------------------------------------- house rules
def test_a_designers_rules_file_plays_in_the_aid_and_its_save(tmp_path):
    """Konflikt '47 with rifles reaching 30" and regulars of morale 8: the aid's order tests
    and shots play by them, and the save holds the rules' text once, so a resumed game goes
    on by them even with the file gone."""
    from test_bolt_action_rules import house_rules

    from kriegsspiel.aid.command import GameAsked, set_up
    from kriegsspiel.aid.session import AidSession
    from kriegsspiel.aid.view import view

    path = house_rules(
        tmp_path,
        '{name: Rifle, category: small arms, range: 24, shots: "1"}',
        '{name: Rifle, category: small arms, range: 30, shots: "1"}',
    )
    house_file = tmp_path / "house.yaml"
    text = house_file.read_text().replace("morale: 9}", "morale: 8}")
    house_file.write_text(text)
    save = tmp_path / "aid.jsonl"
    session, said = set_up(GameAsked("konflikt47", save=str(save), rules_file=path))
    assert f"by the rules in {path}" in said
    squad, rifles = 1, 11
    house = shoot(session.now, ShotAsked(squad, rifles, 27))
    assert fired(house) == {RIFLE: 8, LMG: 1}  # 27": the house rifles reach it
    assert fired(shoot(new_tracker("konflikt47"), ShotAsked(squad, rifles, 27))) == {LMG: 1}
    page = view(session.now.set_pins(squad, 1), can_undo=False)
    assert page["rules_file"] == path
    needs = page["units"][squad]["odds"][""]["order_test"]["morale_value"]
    assert needs == 7  # morale 8 of the house rules, less the pin
    session.step(lambda t: t.set_pins(squad, 1))
    session.step(lambda t: t.set_pins(squad, 2))
    lines = save.read_text().splitlines()
    assert sum("morale: 8" in line for line in lines) == 1  # the text: once, in the header
    house_file.unlink()
    again = AidSession.resume(str(save))
    assert again.now.units[squad].pins == 2 and again.now.rules_text == text
    assert fired(shoot(again.now, ShotAsked(squad, rifles, 27))) == {RIFLE: 8, LMG: 1}
    # the command again, its --rules-file gone: the save's copy of the rules plays on
    resumed, said = set_up(GameAsked("konflikt47", save=str(save), rules_file=path))
    assert resumed.now.units[squad].pins == 2 and "Going on with the game" in said
    house_file.write_text(text.replace("morale: 8}", "morale: 7}"))  # (changed since)
    resumed, said = set_up(GameAsked(save=str(save), rules_file=path))
    assert f"{path} has changed since the game began: it goes on by the rules as they" in said
    assert resumed.now.rules_text == text
    with pytest.raises(UsageError, match="holds a game") as refused:
        set_up(GameAsked(save=str(save), rules_file=str(tmp_path / "other.yaml")))
    assert f"(the saved game is played by the rules in {path})" in str(refused.value)
    house_file.unlink()
    broken = tmp_path / "broken.jsonl"
    broken.write_text(save.read_text().replace("morale: 8}", "morale: eight}", 1))
    with pytest.raises(UsageError, match=r"line 1: field start\.rules_text: .*morale"):
        AidSession.resume(str(broken))


def test_a_weapon_given_by_hand_is_refused_by_its_field_not_a_command_line_flag(client):
    body = {"firer": 1, "target": 11, "range": 10, "weapons": [{"name": RIFLE, "count": 2}]}
    body["weapons"].append({"name": "Laser", "count": 1})
    refused = client.post("/api/odds/shoot", json=body)
    said = refused.json()["error"]
    assert refused.status_code == 409 and said.startswith("Weapons: Unknown weapon 'Laser'")
    assert refused.json()["field"] == "weapons.1.name"  # (the API's field, beside the words)
    assert "--weapon" not in said
    t = new_tracker("konflikt47")
    named = shoot(t, ShotAsked(1, 11, 10, weapons=(("rifle", 2),)))  # (as the sheet names it)
    assert fired(named) == {RIFLE: 2}


def test_weapons_given_by_hand_are_no_more_than_the_firers_live_models_carry(client):
    t = new_tracker("bolt-action-1")
    section, squad = uid(t, 0, "1st Section"), uid(t, 1, "1st Grenadier Squad")
    rifles = sum(k.count for k in t.units[section].survivors() if RIFLE in k.weapons)
    assert fired(shoot(t, ShotAsked(section, squad, 10, weapons=((RIFLE, rifles),))))
    with pytest.raises(AidError, match=rf"the count of {RIFLE}: 50, but 1st Section's "):
        shoot(t, ShotAsked(section, squad, 10, weapons=((RIFLE, 50),)))
    with pytest.raises(AidError, match=rf"carry {rifles - 3}"):  # (three riflemen fell)
        shoot(t.set_models(section, 7), ShotAsked(section, squad, 10, weapons=((RIFLE, rifles),)))
    with pytest.raises(AidError, match=r"the counts of Rifle, together: 12"):
        shoot(t, ShotAsked(section, squad, 10, weapons=((RIFLE, 6), ("rifle", 6))))
    with pytest.raises(AidError, match=r"Weapons: .* carry no Panzerfaust; give one of "):
        shoot(t, ShotAsked(section, squad, 10, weapons=(("Panzerfaust", 1),)))
    sherman = uid(t, 0, "M4 Sherman")  # a vehicle carries its mounts
    with pytest.raises(AidError, match=r"the count of MMG: 3, but M4 Sherman mounts 2"):
        shoot(t, ShotAsked(sherman, squad, 10, weapons=(("MMG", 3),)))
    # a save that does not say who carries what: no more of a kind than its live models
    old = replace(t, units=tuple(replace(u, kit=()) for u in t.units))
    assert fired(shoot(old, ShotAsked(section, squad, 10, weapons=((RIFLE, 10),))))
    with pytest.raises(AidError, match="1st Section has 10 live models"):
        shoot(old, ShotAsked(section, squad, 10, weapons=((RIFLE, 11),)))
    refused = client.post(
        "/api/odds/shoot",
        json={"firer": 1, "target": 15, "range": 10, "weapons": [{"name": RIFLE, "count": 50}]},
    )
    assert refused.status_code == 409 and refused.json()["field"] == "weapons.0.count"
    assert refused.json()["error"].startswith(f"the count of {RIFLE}: 50")


def test_a_morale_check_none_owed_is_taken_only_when_said_to_be_called_for(client):
    """A stray second click must not roll a check that is no longer owed: one the aid does
    not know of (called for at the table) is taken only with ``unowed``."""
    tracker = new_tracker("konflikt47")
    squad = uid(tracker, 1, "1st Rifle Squad")
    with pytest.raises(AidError, match="1st Rifle Squad owes no morale check the aid knows of"):
        tracker.morale_check(squad, passed=False)
    called = tracker.morale_check(squad, passed=True, unowed=True)
    assert called.log[-1].startswith("1st Rifle Squad: morale check (called for at the table)")
    owed = tracker.set_models(squad, 5)
    with pytest.raises(AidError, match=r"owes a morale check \(at half strength or less\)"):
        owed.morale_check(squad, passed=True, unowed=True)
    body = {"unit": 10, "roll": False, "passed": True}
    client.post("/api/models", json={"unit": 10, "models": 5})
    assert client.post("/api/morale-check", json=body).status_code == 200
    stray = client.post("/api/morale-check", json={**body, "passed": False})
    assert stray.status_code == 409 and "unowed: true" in stray.json()["error"]
    assert not client.get("/api/state").json()["units"][10]["destroyed"]
    said = client.post("/api/morale-check", json={**body, "passed": False, "unowed": True})
    assert said.json()["units"][10]["destroyed"]


def test_an_assault_is_the_run_order_of_this_turn_fought_once():
    """Only a unit given Run this turn assaults (the sheets' Run, "also used for
    assaulting"), once: not one without an order or with another, nor a FUBAR panic's or
    an escape's Run; a unit that won does not assault again that turn (it consolidates)."""
    t = new_tracker("konflikt47")
    squad, second, rifles, others = 1, 2, 10, 11
    with pytest.raises(
        AidError,
        match=r"^1st Grenadier Squad has no Run order this turn \(its "
        r"die is still in the bag\): an assault is a Run order; give it Run",
    ):
        t.fought(squad, rifles, "attacker", 5)
    advanced = with_die_in_hand(t, 0).give_order(squad, "Advance", outcome="pass")
    with pytest.raises(AidError, match=r"\(its die shows Advance\)"):
        advanced.fought(squad, rifles, "attacker", 5)
    won = running(t, squad).fought(squad, rifles, "attacker", 5)
    assert won.units[squad].assaulted and won.units[rifles].destroyed
    with pytest.raises(AidError, match="has fought its assault this turn: an assault is a Run"):
        won.fought(squad, others, "attacker", 4)
    assert running(won, second).fought(second, others, "defender", 3).units[others].models == 3
    panicked = with_die_in_hand(t.set_pins(squad, 1), 0).give_order(squad, "Fire", outcome="panic")
    with pytest.raises(AidError, match="runs away in a FUBAR panic: it does not assault"):
        panicked.fought(squad, rifles, "attacker", 5)
    escaped = t.take_die(rifles, "Run", "reaction")
    with pytest.raises(AidError, match="ran to escape an assault"):
        escaped.fought(rifles, squad, "attacker", 5)
    turn2 = replace(won, units=tuple(u if u.order else replace(u, order="Down") for u in won.units))
    turn2 = turn2.end_turn()
    assert not turn2.units[squad].assaulted
    assert "has fought its assault" in state_of(won)["units"][squad]["assault_refused"]
    assert "has no Run order" in state_of(t)["units"][squad]["assault_refused"]
    assert state_of(running(won, second))["units"][second]["assault_refused"] is None


def test_artillery_given_run_does_not_assault_in_the_aid():
    """As in the game: a gun and its crew move on a Run, and do not assault."""
    t = new_tracker("konflikt47")
    gun = next(u.uid for u in t.units if u.kind == "artillery" and u.side == 0)
    enemy = next(u.uid for u in t.units if u.kind == "infantry" and u.side == 1)
    ran = running(t, gun)
    assert ran.units[gun].order == "Run"
    with pytest.raises(AidError, match="is artillery, a gun and its crew, and does not assault"):
        ran.fought(gun, enemy, "attacker", 1)
    assert "is artillery" in state_of(ran)["units"][gun]["assault_refused"]


def test_the_api_refuses_an_assault_no_run_order_allows_and_changes_nothing(client):
    before = client.get("/api/state").json()
    no_order = client.post(
        "/api/fought", json={"attacker": 3, "defender": 12, "winner": "attacker", "left": 3}
    )
    assert no_order.status_code == 409
    assert no_order.json()["error"].startswith("MG 42 MMG Team has no Run order this turn")
    assert client.get("/api/state").json() == before
    client.session.step(lambda t: running(t, 1))
    body = {"attacker": 1, "defender": 13, "winner": "attacker", "left": 9}
    assert client.post("/api/fought", json=body).status_code == 200
    after = client.get("/api/state").json()
    again = client.post("/api/fought", json={**body, "defender": 14})
    assert again.status_code == 409 and "has fought its assault this turn" in again.json()["error"]
    assert client.get("/api/state").json() == after


def test_the_log_names_the_men_a_loss_took_and_those_left_as_the_odds_read_them():
    """The aid takes losses by the game's shared rule (kit.keep_rank: riflemen first, then
    special weapons alike, an LMG with a Panzerfaust or an assault rifle, in the list's
    order, then NCOs and officers): its log names the men taken and those left, so that
    the players see which and may set a shot's weapons by hand where others fell."""
    tracker = new_tracker("bolt-action-1")
    squad = next(u for u in tracker.units if u.name == "2nd Grenadier Squad")
    assert [(k.name, k.count) for k in squad.kit] == [
        ("Grenadier", 2),
        ("MG 42 gunner", 1),
        ("Stormtrooper", 2),
        ("Grenadier with Panzerfaust", 2),
        ("Feldwebel", 1),
    ]
    shot = tracker.shot_at(squad.uid, 4, 0)
    said = next(line for line in shot.log if line.startswith(f"{squad.name}: 4 of 8 models"))
    assert (
        "(taken as lost, riflemen first, then special weapons in the list's order, NCOs, "
        "officers: 2 Grenadier, 1 MG 42 gunner, 1 Stormtrooper; left: 1 Stormtrooper, "
        "2 Grenadier with Panzerfaust, 1 Feldwebel. The odds read these men: where others "
        "fell, set a shot's weapons by hand)"
    ) in said
    left = shot.units[squad.uid].survivors()
    assert [(k.name, k.count) for k in left] == [
        ("Stormtrooper", 1),
        ("Grenadier with Panzerfaust", 2),
        ("Feldwebel", 1),
    ]
    back = shot.set_models(squad.uid, 5).log[-1]
    assert back == (
        f"{squad.name}: 5 of 8 models (back: 1 Stormtrooper; left: 2 Stormtrooper, "
        "2 Grenadier with Panzerfaust, 1 Feldwebel)"
    )
