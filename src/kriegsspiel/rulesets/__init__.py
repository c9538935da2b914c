"""The rulesets this engine implements, by their command-line names."""

from __future__ import annotations

from kriegsspiel.errors import UnknownNameError

RULESETS: dict[str, str] = {
    "konflikt47": "Konflikt '47",
    "bolt-action-1": "Bolt Action 1st edition",
    "iron-cross": "Iron Cross",
    "house-clearing": "House Clearing (A Quick and Dirty Set of WWII House Clearing Rules)",
}


def check_ruleset(name: str) -> str:
    """Return the canonical ruleset id for ``name`` or raise a helpful error."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    aliases = {
        "k47": "konflikt47",
        "konflikt-47": "konflikt47",
        "bolt-action": "bolt-action-1",
        "ba1": "bolt-action-1",
        "ironcross": "iron-cross",
        "hc": "house-clearing",
    }
    key = aliases.get(key, key)
    if key not in RULESETS:
        raise UnknownNameError("ruleset", name, RULESETS)
    return key
