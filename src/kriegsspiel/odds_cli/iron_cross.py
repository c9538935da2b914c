"""Iron Cross's questions besides a shot (``odds shoot``): will a further activation
succeed, will a reaction, will laying smoke, will a unit get through rough terrain, and who
wins a close combat. Apart because they are Iron Cross's own (morale markers and command
tokens, no orders); each refuses the Konflikt '47 and Bolt Action rulesets by pointing to
their own command (order-test, assault), and close combat tells assault's options by name."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from kriegsspiel.cli_options import GivenOnce, JsonOpt, fail
from kriegsspiel.odds_cli.shared import (
    BA_FAMILY,
    Ruleset,
    RulesetOpt,
    RulesFileOpt,
    edition,
    iron_cross_tables,
    named,
    only,
    show,
    told_as,
)
from kriegsspiel.odds_options import (
    IRON_CROSS_ACTIVATION,
    IRON_CROSS_CLOSE_COMBAT,
    IRON_CROSS_REACTION,
    IRON_CROSS_TERRAIN_TEST,
)

commands = typer.Typer()


# where a Bolt Action family edition's reactions are asked (taken without a test to react)
_BA_REACTIONS = {
    Ruleset.bolt_action_1: "in bolt-action-1 a unit shot at reacts by going Down, taken "
    "without a test: 'odds shoot --target-down' gives the shot's odds if it does.",
    Ruleset.konflikt47: "in konflikt47 a reaction is taken without a test, and asked with the "
    "odds it changes: going Down, 'odds shoot --target-down'; standing to fire, "
    "'odds assault --defender-mode stand-and-fire'.",
}


MarkersOpt = Annotated[int, typer.Option("--morale-markers", help="Morale markers on the unit.")]


TokensOpt = Annotated[
    int, typer.Option("--command-tokens", help="Command tokens already on the unit.")
]


@commands.command(
    "activation",
    cls=GivenOnce,
    epilog="Example: kriegsspiel odds activation --morale-markers 1 --command-tokens 1",
)
def activation(
    ruleset: RulesetOpt = Ruleset.iron_cross,
    morale_markers: MarkersOpt = 0,
    command_tokens: Annotated[
        int | None,
        typer.Option(
            "--command-tokens",
            help="Command tokens spent on the unit this turn, its first activation's among "
            "them (none with --first).",
            show_default="1; 0 with --first",
        ),
    ] = None,
    first: Annotated[
        bool, typer.Option("--first", help="The unit's first activation this turn.")
    ] = False,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Will a further activation succeed? (Iron Cross)."""
    only(
        ruleset,
        (Ruleset.iron_cross,),
        "activation",
        "Konflikt '47 and Bolt Action test orders: see 'odds order-test'."
        if ruleset in BA_FAMILY
        else "",
    )
    _, rules = edition(ruleset, rules_file, "activation", (Ruleset.iron_cross,))
    from kriegsspiel.rulesets.iron_cross import odds as ic_odds

    with told_as(IRON_CROSS_ACTIVATION):
        report = ic_odds.activation(
            morale_markers, command_tokens, first_activation=first, data=iron_cross_tables(rules)
        )
    show(report, as_json, rules, IRON_CROSS_ACTIVATION)


@commands.command(
    "reaction",
    cls=GivenOnce,
    epilog="Example: kriegsspiel odds reaction --morale-markers 1 --command-tokens 0",
)
def reaction(
    ruleset: RulesetOpt = Ruleset.iron_cross,
    morale_markers: MarkersOpt = 0,
    command_tokens: TokensOpt = 0,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Will a reaction succeed, and seize the initiative? (Iron Cross)."""
    only(ruleset, (Ruleset.iron_cross,), "reaction", _BA_REACTIONS.get(ruleset, ""))
    _, rules = edition(ruleset, rules_file, "reaction", (Ruleset.iron_cross,))
    from kriegsspiel.rulesets.iron_cross import odds as ic_odds

    with told_as(IRON_CROSS_REACTION):
        report = ic_odds.reaction(morale_markers, command_tokens, data=iron_cross_tables(rules))
    show(report, as_json, rules, IRON_CROSS_REACTION)


@commands.command(
    "smoke", cls=GivenOnce, epilog="Example: kriegsspiel odds smoke --ruleset iron-cross"
)
def smoke_cmd(
    ruleset: RulesetOpt = Ruleset.iron_cross,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Will laying smoke succeed? (Iron Cross)."""
    only(ruleset, (Ruleset.iron_cross,), "smoke")
    _, rules = edition(ruleset, rules_file, "smoke", (Ruleset.iron_cross,))
    from kriegsspiel.rulesets.iron_cross import odds as ic_odds

    show(ic_odds.smoke(data=iron_cross_tables(rules)), as_json, rules, {})


@commands.command(
    "terrain-test",
    cls=GivenOnce,
    epilog='Example: kriegsspiel odds terrain-test --unit infantry --terrain "very rough"',
)
def terrain_test(
    ruleset: RulesetOpt = Ruleset.iron_cross,
    unit: Annotated[
        str,
        typer.Option(
            "--unit", help="As on the sheet, e.g. 'half-tracked vehicle', 'infantry detachment'."
        ),
    ] = "half-tracked vehicle",
    terrain: Annotated[str, typer.Option("--terrain", help="rough or very rough.")] = "rough",
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Will a unit get through rough terrain? (Iron Cross)."""
    only(ruleset, (Ruleset.iron_cross,), "terrain-test")
    _, rules = edition(ruleset, rules_file, "terrain-test", (Ruleset.iron_cross,))
    from kriegsspiel.rulesets.iron_cross import odds as ic_odds

    with named(IRON_CROSS_TERRAIN_TEST), told_as(IRON_CROSS_TERRAIN_TEST):
        report = ic_odds.terrain_test(unit, terrain, data=iron_cross_tables(rules))
    show(report, as_json, rules, IRON_CROSS_TERRAIN_TEST)


def _assault_options_refused(ctx: typer.Context) -> None:
    """close-combat's unknown options: those of 'odds assault' (Konflikt '47, Bolt Action)
    are told by name; any other is the parser's usual error."""
    if not ctx.args:
        return
    import click
    import typer.main

    from kriegsspiel.odds_cli import odds_app  # (assault's options, as 'odds' has them)

    group = typer.main.get_command(odds_app)
    assault_cmd = getattr(group, "commands", {})["assault"]
    theirs = {opt for param in assault_cmd.params for opt in param.opts}
    given = [arg.split("=", 1)[0] for arg in ctx.args if arg.startswith("-")]
    wrong = [opt for opt in given if opt in theirs]
    if wrong:
        fail(
            f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} for 'odds assault' "
            "(Konflikt '47, Bolt Action); Iron Cross's close combat takes --attacker, "
            "--defender, --attacker-markers, --defender-markers, --defender-cover and "
            "--defender-moved."
        )
    from kriegsspiel.cli import usage_problem  # (told as the parser tells its own)

    parsed: Any = ctx  # (typer's own click's Context)
    if given:
        fail(usage_problem(click.NoSuchOption(given[0], ctx=parsed)))
    extra = " ".join(ctx.args)
    fail(usage_problem(click.UsageError(f"Got unexpected extra argument(s) ({extra})", parsed)))


@commands.command(
    "close-combat",
    cls=GivenOnce,
    epilog='Example: kriegsspiel odds close-combat --defender "support squad"',
    # (assault's options are caught to be told by name: _assault_options_refused)
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
def close_combat(
    ctx: typer.Context,
    ruleset: RulesetOpt = Ruleset.iron_cross,
    attacker: Annotated[
        str, typer.Option("--attacker", help="The assaulting unit: infantry or support squad.")
    ] = "infantry",
    defender: Annotated[
        str, typer.Option("--defender", help="The assaulted unit: infantry or support squad.")
    ] = "infantry",
    attacker_markers: Annotated[
        int, typer.Option("--attacker-markers", help="Morale markers on the assaulting unit.")
    ] = 0,
    defender_markers: Annotated[
        int, typer.Option("--defender-markers", help="Morale markers on the assaulted unit.")
    ] = 0,
    defender_cover: Annotated[
        str, typer.Option("--defender-cover", help="open, cover or fortifications.")
    ] = "open",
    defender_moved: Annotated[
        bool,
        typer.Option("--defender-moved", help="The assaulted unit moved at any point this turn."),
    ] = False,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Who wins a close combat: both units fire at point blank (Iron Cross)."""
    _assault_options_refused(ctx)
    only(
        ruleset,
        (Ruleset.iron_cross,),
        "close-combat",
        "Konflikt '47 and Bolt Action fight close quarters: see 'kriegsspiel odds assault'."
        if ruleset in BA_FAMILY
        else "",
    )
    _, rules = edition(ruleset, rules_file, "close-combat", (Ruleset.iron_cross,))
    from kriegsspiel.rulesets.iron_cross import odds as ic_odds

    names = {"attacker": "--attacker", "defender": "--defender", "cover": "--defender-cover"}
    with named(names), told_as(IRON_CROSS_CLOSE_COMBAT):
        report = ic_odds.close_combat(
            attacker=attacker,
            defender=defender,
            attacker_markers=attacker_markers,
            defender_markers=defender_markers,
            defender_cover=defender_cover,
            defender_moved=defender_moved,
            data=iron_cross_tables(rules),
        )
    show(report, as_json, rules, IRON_CROSS_CLOSE_COMBAT)
