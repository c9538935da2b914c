"""Every answer the engine remembers during play is capped, so a long run's memory levels off."""

from __future__ import annotations

import functools
import gc
import importlib
import pkgutil

import kriegsspiel

# Set-up caches hold one answer per thing a run is set up with, never one per game.
SET_UP = {
    "kriegsspiel.sim.code.code_version",  # one answer
    "kriegsspiel.core.scenario._shapely",  # one answer
    "kriegsspiel.render.game_account.shipped_words",  # one answer: the shipped words
    "kriegsspiel.rulesets.bolt_action.data.load_edition",  # one per ruleset
    "kriegsspiel.rulesets.bolt_action.data._shipped_text_data",  # one per ruleset
    "kriegsspiel.rulesets.bolt_action.edition._shipped",  # one per ruleset (rules files: capped)
    "kriegsspiel.sim.matchup._parsed",  # one per matchup of a run or sweep
}


def test_every_remembered_answer_has_a_cap() -> None:
    for info in pkgutil.walk_packages(kriegsspiel.__path__, "kriegsspiel."):
        if not info.name.endswith("__main__"):  # that one runs the command line
            importlib.import_module(info.name)
    caches = {
        f"{o.__module__}.{o.__qualname__}": o
        for o in gc.get_objects()
        if isinstance(o, functools._lru_cache_wrapper)
        and getattr(o, "__module__", "").startswith("kriegsspiel.")
    }
    assert len(caches) > 20  # the engine's caches were found at all
    unbounded = sorted(name for name, c in caches.items() if c.cache_info().maxsize is None)
    assert unbounded == sorted(SET_UP), "a cache asked during play must have a maxsize"
