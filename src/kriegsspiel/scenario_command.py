"""``kriegsspiel scenario``: the shipped scenarios, and any scenario checked and shown as a
briefing, drawn with two lists deployed on it, or copied to make one's own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console

from kriegsspiel.core.names import counted
from kriegsspiel.core.scenario import Scenario, load_scenario, sample_scenarios
from kriegsspiel.errors import RULES_FILE_WANTED, DataFileError, UsageError, empty_name
from kriegsspiel.outfiles import (
    SVG_KIND,
    check_copy,
    check_output,
    check_replacing,
    is_svg,
    write_copy,
    writing,
)
from kriegsspiel.sim.matchup import (
    GAME_RULESETS,
    Matchup,
    Source,
    build_matchup,
    check_one_edition,
    check_rules,
    game_ruleset,
    lists_ruleset,
    pick_file,
    read_rules,
    rules_named,
)


def run_scenario(
    given: str | None,
    copy: str | None,
    svg: str | None,
    ruleset: str | None,
    armies: list[str],
    as_json: bool,
    rules_file: str | None = None,
) -> None:
    """List the shipped scenarios (``given`` None), or check and show the scenario ``given``
    (a file or a shipped name); ``copy`` writes its text to a new file; ``svg`` draws its
    table with ``armies`` (two lists of ``ruleset``, the lists' own if None, else the rules
    file's edition, else konflikt47; none: its sample lists) deployed on it. The terrain is
    checked by that edition's table (given no ruleset, lists nor rules file, by every
    edition's), and ``armies`` without ``svg`` are checked on the scenario as a game checks
    them. ``rules_file``, a designer's rules data, checks the scenario's terrain (and the
    lists) in place of the edition's shipped data. Files are written before anything is
    printed."""
    console = Console(highlight=False)
    if given is None:
        if copy is not None or svg is not None or ruleset is not None or armies:
            raise UsageError(
                "--copy, --svg, --ruleset and --army need a scenario: kriegsspiel scenario NAME ..."
            )
        if rules_file is not None:
            raise UsageError(
                "--rules-file says what a scenario is checked against: give the scenario, "
                "kriegsspiel scenario NAME --rules-file RULES."
            )
        _list_samples(console, as_json)
        return
    path = pick_file("scenario", given, sample_scenarios())  # (a file, or a shipped name)
    shipped = path in sample_scenarios()
    if copy is not None:
        check_copy(copy, path, "scenario")
    redraws = False  # (True: the drawing replaces one kriegsspiel made)
    if svg is not None:
        check_output(svg, "--svg", (".svg",))
        redraws = check_replacing(svg, "--svg", SVG_KIND, is_svg)
    scenario = load_scenario(path)  # a broken scenario: its file, line and field
    rules = None
    if rules_file is not None:
        if not rules_file.strip():
            raise empty_name("--rules-file", rules_file, RULES_FILE_WANTED)
        rules = read_rules(rules_file)
    asked = "the edition --ruleset asks for" if ruleset else "the edition the lists are for"
    check_one_edition(armies)
    # the edition asked for, else the lists' own, else the rules file's; with none of them
    # the scenario names no edition: its terrain is checked against every edition's table
    if ruleset is None and (armies or rules is not None):
        ruleset = lists_ruleset(armies, None, rules)
    if ruleset is not None:
        ruleset = game_ruleset(ruleset)
        if rules is not None:
            check_rules(ruleset, rules, asked)
    editions = [ruleset] if ruleset else list(GAME_RULESETS)
    taken = _check_terrain(path, scenario, editions, rules)  # (the editions that take it)
    _check_zones(path, scenario, taken, rules)
    err = Console(stderr=True, highlight=False)
    warnings = _warnings(path, scenario)
    for warning in warnings:
        err.print(f"note: {warning}", markup=False)
    # the lists checked on the scenario as a game checks them: those given, else each
    # edition's sample lists (a game given no --army plays them)
    verdict, sound_with = _check_lists(path, ruleset, armies, rules, taken)
    house = rules_named(rules)  # (the rules file all was checked by, with its digest)
    if rules is not None:
        from kriegsspiel.render.evaluation_text import house_rules

        verdict += f" All checked by the rules file {house_rules(house)}, not the shipped data."
    if warnings:
        verdict += f" Mind the {counted(len(warnings), 'note')} above: legal, but likely a slip."
    if svg is not None:
        _draw(str(path), ruleset or GAME_RULESETS[0], armies, svg, rules)
        instead = " in place of the drawing that was there" if redraws else ""
        err.print(
            f"Table drawn to {svg}{instead}, the lists deployed as a game begins.", markup=False
        )
    if copy is not None:
        write_copy(path, copy)
        err.print(
            f"Copied to {copy}: edit it, then 'kriegsspiel scenario {copy}' checks it.",
            markup=False,
        )
    if as_json:
        told = {"sound_with": sound_with, "warnings": warnings, **house}
        print(json.dumps({**scenario.model_dump(mode="json"), **told}, indent=2))
    else:
        from kriegsspiel.render.scenario_text import print_briefing

        source = f"shipped scenario {path.stem}" if shipped else str(path)
        print_briefing(scenario, source, console, editions)
        console.print(verdict, markup=False)


def _check_lists(
    path: Path,
    ruleset: str | None,
    armies: list[str],
    rules: Source | None,
    editions: list[str],
) -> tuple[str, list[dict[str, Any]]]:
    """Check lists on the scenario as a game checks them (each unit deployed in its zone):
    ``armies``, else the sample lists of each of ``editions`` (those whose terrain table
    takes the scenario; a game given no lists plays its edition's samples). A list given
    that does not fit is refused, at the scenario's line; sample lists that do not fit are
    said in the verdict line (the scenario may be for smaller forces). Returns the verdict
    line, and what was checked and found sound (for ``--json``)."""
    from kriegsspiel.errors import KriegsspielError, Worded
    from kriegsspiel.odds_options import COMMAND_LINE

    if armies:
        matchup = build_matchup(ruleset, str(path), armies, rules_file=rules)
        crowded = _crowding(matchup)
        return (
            f"The lists {' and '.join(repr(a) for a in armies)} are sound on it, for "
            f"{matchup.ruleset}: a game of them can be played here"
            + (f", but {crowded}" if crowded else "."),
            [{"ruleset": matchup.ruleset, "armies": list(armies), "sample_lists": False}],
        )
    sound_with: list[dict[str, Any]] = []
    unfit: list[str] = []  # why each edition's sample lists do not deploy on it
    unfit_but_played: list[str] = []  # where they deploy crowded
    for edition in editions:
        try:
            matchup = build_matchup(edition, str(path), [], rules_file=rules)
        except KriegsspielError as exc:
            # (a scenario for smaller forces is no broken file: said, not refused; in the
            # command line's words)
            said = exc.told_as(COMMAND_LINE) if isinstance(exc, Worded) else str(exc)
            unfit.append(f"{said.rstrip('.')} (the {edition} sample lists)")
            continue
        sound_with.append(
            {
                "ruleset": matchup.ruleset,
                "armies": [source.label for source in matchup.armies],
                "sample_lists": True,
            }
        )
        if crowded := _crowding(matchup):
            unfit_but_played.append(f"for the {edition} sample lists, {crowded.rstrip('.')}")
    named = " and ".join(str(entry["ruleset"]) for entry in sound_with)
    crowding = f" But {'; and '.join(unfit_but_played)}." if unfit_but_played else ""
    if not unfit:
        return (
            f"The scenario is sound: the {named} sample lists deploy on it, and a game of "
            f"them can be played here (--army A --army B checks your own lists).{crowding}",
            sound_with,
        )
    fits = f"the {named} sample lists deploy on it; " if sound_with else ""
    return (
        f"The scenario file is sound, but {fits}a game given no --army cannot be played on "
        f"it: {'; '.join(unfit)}. A game here needs lists that fit its deployment zones: "
        "give --army A --army B to check yours.",
        sound_with,
    )


def _warnings(path: Path, scenario: Scenario) -> list[str]:
    """What in the scenario is legal but probably a slip, each at its line of the file."""
    from kriegsspiel.core.datafile import problem_at
    from kriegsspiel.core.scenario import scenario_warnings

    text = path.read_text(encoding="utf-8")
    return [f"{path}: {problem_at(text, loc, what)}" for loc, what in scenario_warnings(scenario)]


def _crowding(matchup: Matchup) -> str:
    """Where the lists deploy crowded (vehicles nearer other units' models than a move
    keeps them), each list in each side's zones, as a clause of the verdict ("" if
    nowhere)."""
    from kriegsspiel.rulesets.bolt_action.game.deployment import crowding
    from kriegsspiel.rulesets.bolt_action.game.spacing import UNIT_GAP, VEHICLE_LENGTH
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
    from kriegsspiel.sim.matchup import parsed

    scenario, army_a, army_b = parsed(matchup)
    found: list[str] = []
    for pair in ((army_a, army_b), (army_b, army_a)):
        game = BoltActionGame(
            matchup.ruleset,
            scenario,
            pair,
            rules_file=matchup.rules_file,
            rules_text=matchup.rules_text,
        )
        found += [told for told in crowding(game) if told not in found]
    if not found:
        return ""
    shown = "; ".join(found[:4]) + (f"; and {len(found) - 4} more" if len(found) > 4 else "")
    return (
        f'the deployment is crowded: {shown} (a vehicle is some {VEHICLE_LENGTH:g}" long, '
        f'and a move keeps it {UNIT_GAP:g}" and half that from other models: without room '
        f'the engine sets it up as a point {UNIT_GAP:g}" off, so nothing stops it, but on a '
        "real table the models would overlap; make the zones larger, or field fewer "
        "vehicles)."
    )


def _check_zones(path: Path, scenario: Scenario, editions: list[str], rules: Source | None) -> None:
    """Refuse, at its line, a deployment zone lying wholly on ground no unit sets up on (a
    building, or ground impassable to all) by every edition's terrain table that takes the
    scenario: no list, of any size, can set up there, so the scenario is no sound one."""
    from kriegsspiel.core.datafile import problem_at
    from kriegsspiel.rulesets.bolt_action import rules_for
    from kriegsspiel.rulesets.bolt_action.game.deployment import barren_zones, table_feature

    house = (None, None) if rules is None else (rules.label, rules.text)
    features = [table_feature(f) for f in scenario.terrain]
    found = [
        barren_zones(rules_for(game_ruleset(e), *house), features, scenario.deployment)
        for e in editions
    ]
    if found and all(found):
        text = path.read_text(encoding="utf-8")
        told = [problem_at(text, ("deployment", index), why) for index, why in found[0]]
        raise DataFileError(str(path), told)


def _check_terrain(
    path: Path, scenario: Scenario, editions: list[str], rules: Source | None
) -> list[str]:
    """Refuse, at its line, a terrain category the games' terrain table (the rules file's,
    if ``rules`` is given) does not have (a game would refuse it: the check says so first).
    Given several ``editions`` (the scenario's is not known), a category is refused if
    every edition's table lacks it, in those words, and one that only some lack is noted.
    The editions whose table takes the scenario."""
    from kriegsspiel.rulesets.bolt_action import rules_for
    from kriegsspiel.rulesets.bolt_action.game.table_rules import (
        TerrainCategoryError,
        check_categories,
        terrain_table,
    )

    house = (None, None) if rules is None else (rules.label, rules.text)
    text = path.read_text(encoding="utf-8")
    refused: dict[str, dict[int, str]] = {}
    titles: dict[str, str] = {}
    tables: dict[str, str] = {}  # (each edition's terrain table, as a refusal names it)
    for edition in editions:
        table = rules_for(game_ruleset(edition), *house)
        titles[edition] = table.data.title
        tables[edition] = terrain_table(table)
        try:
            check_categories(table, scenario)
        except TerrainCategoryError as exc:
            if len(editions) == 1:
                raise exc.in_file(str(path), text) from None
            refused[edition] = dict(exc.problems)
    everywhere = []
    for number in sorted({i for problems in refused.values() for i in problems}):
        lacking = [e for e in editions if number in refused.get(e, {})]
        if len(lacking) < len(editions):  # (a game of the others takes it)
            for edition in lacking:
                told = _at_its_line(number, refused[edition][number], scenario, path, text)
                Console(stderr=True, highlight=False).print(
                    f"note: {told}: a game of {titles[edition]} refuses this scenario "
                    f"(--ruleset {edition} checks it by that edition alone).",
                    markup=False,
                )
            continue
        # the same table in every edition: said once, for all of them
        rest = {refused[e][number].removeprefix(tables[e]) for e in editions}
        alike = " and ".join(titles[e] for e in editions)
        everywhere.append(
            (number, f"{alike} alike: the terrain table{rest.pop()}")
            if len(rest) == 1
            else (number, "; ".join(refused[e][number] for e in editions))
        )
    if everywhere:
        raise TerrainCategoryError(scenario.name, everywhere).in_file(str(path), text)
    return [edition for edition in editions if edition not in refused]


def _at_its_line(number: int, problem: str, scenario: Scenario, path: Path, text: str) -> str:
    """A problem with the category of terrain feature ``number``, told at its line of the
    scenario file ``path`` (``text``)."""
    from kriegsspiel.rulesets.bolt_action.game.table_rules import TerrainCategoryError

    return str(TerrainCategoryError(scenario.name, [(number, problem)]).in_file(str(path), text))


def _draw(path: str, ruleset: str, armies: list[str], svg: str, rules: Source | None) -> None:
    """The table at the start of a game on the scenario: terrain, zones, objectives and the
    two lists as deployed (checked as a game checks them: a list that does not fit its
    zone is told so; against the rules file ``rules``, if given)."""
    from kriegsspiel.render.table_svg import write_svg
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame
    from kriegsspiel.sim.matchup import check_setup, parsed

    matchup = build_matchup(ruleset, path, armies, rules_file=rules)
    check_setup(matchup)
    scenario, army_a, army_b = parsed(matchup)
    game = BoltActionGame(
        matchup.ruleset,
        scenario,
        (army_a, army_b),
        rules_file=matchup.rules_file,
        rules_text=matchup.rules_text,
    )
    with writing(svg, "--svg") as temp:
        write_svg(game, temp, title=f"{scenario.name}: deployed")


def _list_samples(console: Console, as_json: bool) -> None:
    rows: list[dict[str, Any]] = []
    lengths: dict[str, str] = {}  # each one's length as said ("6 turns, a seventh on ...")
    for path in sample_scenarios():
        scenario = load_scenario(path)
        lengths[path.stem] = scenario.length_text()
        rows.append(
            {
                "scenario": path.stem,
                "name": scenario.name,
                "turns": scenario.turns,
                "another_turn_on": scenario.another_turn_on,
                "victory": scenario.victory,
                "table": {"width": scenario.table.width, "height": scenario.table.height},
                "terrain": len(scenario.terrain),
                "objectives": len(scenario.objectives),
            }
        )
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    console.print("Shipped scenarios (give the name on the left):", markup=False)
    for row in rows:
        width, height = row["table"]["width"], row["table"]["height"]
        console.print(
            f'  {row["scenario"]}  —  {row["name"]}: {width:g}" × {height:g}", '
            f"{lengths[row['scenario']]}, won by {row['victory']}, "
            f"{counted(row['terrain'], 'terrain feature')}, "
            f"{counted(row['objectives'], 'objective')}",
            markup=False,
            soft_wrap=True,
        )
    console.print(
        "See one with 'kriegsspiel scenario NAME'; draw it with the sample lists deployed "
        "with '--svg table.svg'; start your own with '--copy mine.yaml'.",
        markup=False,
    )
