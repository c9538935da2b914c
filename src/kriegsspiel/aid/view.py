"""What the play aid's page shows of a game: the bag, each unit with the exact odds of its
next test and their reasons (the odds calculator's own reports), the turn's end, the log."""

from __future__ import annotations

from typing import Any

from kriegsspiel.aid.questions import defender_modes, fire_refused, itself_refused
from kriegsspiel.aid.tracker import ORDERS, TrackedUnit, Tracker, one_shot_carried
from kriegsspiel.core.names import ordinal
from kriegsspiel.errors import sentence
from kriegsspiel.rulesets.bolt_action.assault import fighting_modes
from kriegsspiel.rulesets.bolt_action.morale import UNTESTED_ORDERS, removed_at_pins
from kriegsspiel.rulesets.bolt_action.odds import morale_check_odds, order_test_odds
from kriegsspiel.rulesets.bolt_action.reactions import edition_faces, reaction_words

LOG_SHOWN = 60  # the newest log lines sent with the game (GET /api/log: all of them)


def view(tracker: Tracker, *, can_undo: bool) -> dict[str, Any]:
    """The whole game as the page draws it (JSON-ready)."""
    rules = tracker.rules
    may_keep = tracker.may_keep()
    return _in_sentences(
        {
            "ruleset": tracker.ruleset,
            "title": rules.data.title,
            "rules_file": tracker.rules_file,
            "armies": list(tracker.armies),
            "turn": tracker.turn,
            "turns": tracker.turns,
            # the game's length as said, and whether this turn's end rolls a D6 for one
            # more (on ``another_turn_on`` or more: the ``extra_turn``, "seventh")
            "length": tracker.length_text(),
            "another_turn_on": tracker.another_turn_on,
            "rolls_for_another": tracker.rolls_for_another(),
            "extra_turn": ordinal(tracker.turn + 1),
            "phase": tracker.phase,
            # who won, once the game is over (the log's last line says it too)
            "result": tracker.result() if tracker.over else None,
            # when it ended: "Game over in turn 3" (a side wiped out), "... after turn 6"
            "ended": tracker.ended() if tracker.over else None,
            "in_hand": tracker.in_hand,
            "in_bag": list(tracker.in_bag()),
            "chances": [{"side": s, "p": p} for s, p in tracker.draw_chances()],
            # why a die of each side cannot be said to be drawn at the table now (None: it may)
            "draw_refused": [tracker.draw_refused(0), tracker.draw_refused(1)],
            # why the aid cannot draw a die from the bag now (None: it may)
            "bag_draw_refused": tracker.bag_draw_refused(),
            "destroyed_dice_leave": "at the turn end"
            if rules.destroyed_dice_stay_in_cup
            else "at once",
            "orders": list(ORDERS),
            # the orders a unit follows without an order test, pinned or not (Down)
            "untested_orders": sorted(UNTESTED_ORDERS),
            # the pins a Rally loses: the rules' dice (the sheets' D6) and what they may roll
            "rally": {
                "dice": rules.rally_pins.text,
                "least": rules.rally_span[0],
                "most": rules.rally_span[1],
            },
            "reactions": list(edition_faces(rules)),
            # the edition's close quarters, for the assault form: how attackers may fight
            # (hand-to-hand; Konflikt '47 point-blank fire too), whether an assaulted unit
            # may stand and fire or escape, and whether a vehicle fires at its assaulters
            # (then the form asks how far they start from it)
            "attacker_modes": list(fighting_modes(rules)),
            "assault_reactions": rules.assault_reactions,
            "vehicles_fire_at_assaulters": rules.data.vehicle_assault.fires_at_assaulters_beyond
            is not None,
            "may_keep": list(may_keep),
            # the units each side lost (not those it destroyed: that is the other's count)
            "lost": [tracker.destroyed_count(0), tracker.destroyed_count(1)],
            "officers": [tracker.officers(0), tracker.officers(1)],
            "can_undo": can_undo,
            "log": list(tracker.log[-LOG_SHOWN:]),
            "log_total": len(tracker.log),  # (GET /api/log gives them all)
            "units": [_unit(tracker, u) for u in tracker.units],
        }
    )


def _in_sentences(out: dict[str, Any]) -> dict[str, Any]:
    """``out`` with each reason a step would be refused for (its ``..._refused``: a reason,
    or a list or mapping of them; None where it may be taken) told as that step's refusal
    tells it: a sentence (:func:`~kriegsspiel.errors.sentence`)."""

    def told(why: Any) -> Any:
        if isinstance(why, str):
            return sentence(why)
        if isinstance(why, list):
            return [told(one) for one in why]
        if isinstance(why, dict):
            return {key: told(one) for key, one in why.items()}
        return why

    return {key: told(value) if key.endswith("_refused") else value for key, value in out.items()}


def _unit(tracker: Tracker, unit: TrackedUnit) -> dict[str, Any]:
    out: dict[str, Any] = {
        "uid": unit.uid,
        "side": unit.side,
        "name": unit.name,
        "kind": unit.kind,
        "quality": unit.quality,
        "points": unit.points,
        "officer": unit.officer,
        "models": unit.models,
        "start_models": unit.start_models,
        "pins": unit.pins,
        "order": unit.order,
        "retained": unit.retained,
        "destroyed": unit.destroyed,
        "fubar": unit.fubar,
        "waiting": unit in tracker.waiting(unit.side),
        "reacted": unit.reacted,
        "stood_and_fired": unit.stood_and_fired,
        "assaulted": unit.assaulted,
        "checks_due": list(unit.checks_due),
        "immobilised": unit.immobilised,
        # what the players said: the live officer near it (None: none), their own dice
        "near": tracker.near_of(unit.uid),
        "own_dice": unit.own_dice,
        # its one-shot anti-tank weapons (Panzerfausts) said to be fired
        "one_shot_fired": unit.one_shot_fired,
    }
    if unit.destroyed:
        return _in_sentences(out)
    rules = tracker.rules
    out["defender_modes"] = defender_modes(tracker, unit)  # (as the assault's odds take them)
    # whether its men left carry a Panzerfaust or the like: the page then asks, on its
    # card and for its shots and assaults, whether it has been fired (the aid does not
    # see it fired)
    out["one_shot_anti_tank"] = bool(one_shot_carried(rules, unit))
    # the reactions its die may be taken for now, as the game allows them
    reactions = tracker.reactions_of(unit.uid)
    out["reactions"] = list(reactions)
    # what each does, then what follows, in the words the solo game offers it
    out["reaction_words"] = {
        face: list(reaction_words(rules, why, vehicle=unit.kind == "vehicle"))
        for face, why in reactions.items()
    }
    # why it cannot be the attacker of a fight's end now (no Run order, its Run spent)
    out["assault_refused"] = tracker.assault_refused(unit.uid)
    # what the page offers it greyed out, each with the reason the server refuses it in:
    # the orders it cannot be given, a shot it fires, a shot of its own at itself (the
    # Target list greys the firer), an assault it makes (its odds), a model more than it
    # has, a pin more than the most a unit holds, a pin fewer than none (a live unit's
    # last model lost destroys it: "−" on models is never refused)
    out["orders_refused"] = tracker.orders_refused(unit.uid)
    out["fire_refused"] = fire_refused(tracker, unit)
    out["own_target_refused"] = itself_refused(unit, "shoot at")
    out["attack_refused"] = tracker.attack_refused(unit.uid)
    out["more_models_refused"] = tracker.models_refused(unit.uid, unit.models + 1)
    out["more_pins_refused"] = tracker.pins_refused(unit.uid, unit.pins + 1)
    out["fewer_pins_refused"] = tracker.pins_refused(unit.uid, unit.pins - 1)
    out["removed_at_pins"] = removed_at_pins(rules, unit.quality)
    # the odds of its order test and morale check with its own officer, and with each live
    # officer of its side who may stand near (the page shows the one the player picks)
    odds: dict[str, Any] = {}
    for named in ["", *tracker.officers(unit.side)]:
        rank = tracker.officer_for(unit.uid, named or None)
        q, pins = unit.quality, unit.pins
        label, text = tracker.rules_file, tracker.rules_text
        test = order_test_odds(
            tracker.ruleset, quality=q, pins=pins, officer=rank, rules_file=label, rules_text=text
        )
        check = morale_check_odds(
            tracker.ruleset, quality=q, pins=pins, officer=rank, rules_file=label, rules_text=text
        )
        odds[named] = {
            "officer": rank,
            "order_test": test.to_json(),
            "morale_check": check.to_json(),
        }
    out["odds"] = odds
    return _in_sentences(out)
