"""Each odds function's parameters as ``kriegsspiel odds`` takes them: one map a command
(parameter -> option), by which the command tells a refusal the function words in its
parameters (a :class:`~kriegsspiel.errors.ParameterError`) with its options instead, and
the play aid, which speaks of its page's fields, finds what the command would have said.

A Bolt Action ``Situation``'s fields are named as a Python caller reaches them,
``situation.firer_pins``."""

from __future__ import annotations

# the parameters the commands share, each the same option in every command that takes it:
# the rules (every command), and the games' set-up and workers (play, evaluate, sweep)
EVERY_COMMAND = {
    "ruleset": "--ruleset",
    "rules_file": "--rules-file",
    "players": "--players",
    "deployment": "--deployment",
    "workers": "--workers",
}

# the results store and a run, as a run (evaluate, sweep) and the store name them to a
# Python caller, which gives evaluate a Store or None and calls it again to resume, and as
# the commands take them
RUNS = {
    "store=None": "--no-store",
    "another store": "another --results file",
    "Store a path": "a --results file",
    "run_seed": "--seed",
    "make the same call again": "run the same command again",
    "the same call": "the same command",
}

# a game's set-up, as build_matchup (and new_game, the environments) names it to a Python
# caller and as the commands take it
SET_UP = {
    "two armies": "two --army options (army A, then army B; from Python, two names or files)",
}

# every parameter a command's error may name, as the commands take it (what the command
# line tells an error with, unless a command has told it with its own options already)
COMMAND_LINE = EVERY_COMMAND | RUNS | SET_UP

IRON_CROSS_SHOOT = {
    "target": "--target",
    "range_inches": "--range",
    "firer_moved": "--moving",
    "firer_is_infantry_detachment": "--infantry-detachment",
    "target_moved": "--target-moved",
    "smoke": "--smoke",
    "morale_markers": "--morale-markers",
    "enemy_infantry_near_vehicle": "--enemy-infantry-near",
    "firer_is_vehicle": "--firer-vehicle",
    "screened": "--screened",
    "cover": "--cover",
    "mortar": "--mortar",
    "machine_gun": "--machine-gun",
    "dice": "--dice",
    "penetration": "--penetration",
    "armour": "--armour",
}
IRON_CROSS_ACTIVATION = {
    "morale_markers": "--morale-markers",
    "command_tokens": "--command-tokens",
    "first_activation": "--first",
}
IRON_CROSS_REACTION = {"morale_markers": "--morale-markers", "command_tokens": "--command-tokens"}
IRON_CROSS_TERRAIN_TEST = {"unit": "--unit", "terrain": "--terrain"}
IRON_CROSS_CLOSE_COMBAT = {
    "attacker": "--attacker",
    "defender": "--defender",
    "attacker_markers": "--attacker-markers",
    "defender_markers": "--defender-markers",
    "defender_cover": "--defender-cover",
    "defender_moved": "--defender-moved",
}
HOUSE_CLEARING_SHOOT = {
    "weapon": "--weapon",
    "range_inches": "--range",
    "weapon_skill": "--weapon-skill",
    "visible": "--visible",
    "automatic": "--auto",
    "target_initiative": "--target-initiative",
    "crew": "--crew",
}
HOUSE_CLEARING_FIGURE = {"officer": "--officer"}

# the rules every Bolt Action family question is asked under
_EDITION = {"ruleset": EVERY_COMMAND["ruleset"], "rules_file": EVERY_COMMAND["rules_file"]}
BOLT_ACTION_SHOOT = {
    **_EDITION,
    "weapons": "--weapon",
    "target": "--target",
    "situation.range_inches": "--range",
    "situation.firer_pins": "--pins",
    "situation.firer_inexperienced": "--inexperienced",
    "situation.one_crew": "--one-crew",
    "situation.moving": "--moving",
    "situation.mounted": "--firer-vehicle",
    "situation.target_down": "--target-down",
    "situation.small_unit": "--small-unit",
    "situation.cover": "--cover",
    "situation.facing": "--facing",
    "situation.indirect": "--indirect",
    "situation.ranged_in": "--ranged-in",
    "situation.open_topped": "--open-topped",
    "situation.automaton": "--automaton",
    "situation.target_pins": "--target-pins",
    "situation.target_quality": "--target-quality",
    "situation.target_models": "--target-models",
    "situation.target_immobilised": "--target-immobilised",
    "situation.target_officer": "--target-officer",
}
BOLT_ACTION_ORDER_TEST = {
    **_EDITION,
    "quality": "--quality",
    "pins": "--pins",
    "officer": "--officer",
    "assault_vehicle_without_at": "--assault-vehicle-without-at",
}
BOLT_ACTION_MORALE = {**_EDITION, "quality": "--quality", "pins": "--pins", "officer": "--officer"}
BOLT_ACTION_ASSAULT = {
    **_EDITION,
    "attackers": "--attackers",
    "attacker_quality": "--attacker-quality",
    "defenders": "--defenders",
    "defender_quality": "--defender-quality",
    "attacker_assault_weapons": "--attacker-assault-weapons",
    "defender_assault_weapons": "--defender-assault-weapons",
    "attacker_pins": "--attacker-pins",
    "defender_pins": "--defender-pins",
    "attacker_mode": "--attacker-mode",
    "defender_mode": "--defender-mode",
    "attacker_officer": "--attacker-officer",
    "defender_officer": "--defender-officer",
    "defender_weapons": "--defender-weapon",
    "attacker_cover": "--attacker-cover",
    "attacker_start_models": "--attacker-start-models",
}
BOLT_ACTION_VEHICLE_ASSAULT = {
    **_EDITION,
    "models": "--models",
    "quality": "--quality",
    "target": "--target",
    "vehicle_order": "--vehicle-order",
    "anti_tank": "--anti-tank",
    "pins": "--pins",
    "officer": "--officer",
    "open_topped": "--open-topped",
    "automaton": "--automaton",
    "target_quality": "--target-quality",
    "target_pins": "--target-pins",
    "target_immobilised": "--target-immobilised",
    "target_officer": "--target-officer",
    "start_inches": "--from",
    "vehicle_weapons": "--vehicle-weapon",
    "cover": "--cover",
    "start_models": "--start-models",
}
# the odds functions a refusal or reason points the caller to (as the Python caller calls
# them), each as its command (and option) is given
ODDS_QUESTIONS = {
    "assault_odds": "'odds assault'",
    "morale_check_odds(officer=...)": "odds morale --officer",
    "kriegsspiel.rulesets.iron_cross.odds.shoot": "'kriegsspiel odds shoot -r iron-cross'",
}
# every Bolt Action family question's (no parameter is two options: a test checks it)
BOLT_ACTION = (
    BOLT_ACTION_SHOOT
    | BOLT_ACTION_ORDER_TEST
    | BOLT_ACTION_MORALE
    | BOLT_ACTION_ASSAULT
    | BOLT_ACTION_VEHICLE_ASSAULT
)
