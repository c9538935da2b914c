"""Every answer the engine remembers during play is capped, so a long run's memory levels off."""

from __future__ import annotations

import functools
import gc
import importlib
import pkgutil
import sys

import kriegsspiel
from kriegsspiel.ai.bolt_action_tactics import TacticalPlayer
from kriegsspiel.ai.players import play
from kriegsspiel.core import memo
from kriegsspiel.core.scenario import load_scenario, sample_scenarios
from kriegsspiel.rulesets.bolt_action.army import load_army, sample_armies
from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

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


def _module_dicts() -> dict[str, int]:
    """Every plain dict a kriegsspiel module holds at its top level, and its size."""
    return {
        f"{module.__name__}.{name}": len(value)
        for module in list(sys.modules.values())
        if getattr(module, "__name__", "").startswith("kriegsspiel.")
        for name, value in list(vars(module).items())
        if type(value) is dict
    }


def test_what_play_remembers_at_module_level_is_in_bounded_memos_cleared_at_once() -> None:
    """A module-level dict that grows while a game is played is a memo: a BoundedMemo,
    capped, and emptied by clear_all (after which the same game plays the same)."""
    game = BoltActionGame(
        "konflikt47",
        load_scenario(sample_scenarios()[0]),
        tuple(load_army(p, "konflikt47") for p in sample_armies("konflikt47")[:2]),
        seed=3,
    )
    before = _module_dicts()
    played = play(game.clone(), [TacticalPlayer(3), TacticalPlayer(4)], 3)
    grown = sorted(k for k, n in _module_dicts().items() if n > before.get(k, 0))
    assert grown == [], "remember answers in a core.memo.BoundedMemo, not a dict"
    kept = [m for m in memo.memos() if m]
    assert {"planned shots", "range marks", "bounding boxes"} <= {m.name for m in kept}
    assert all(0 < m.limit <= memo.MEMO_LIMIT * 2 for m in memo.memos())
    memo.clear_all()
    assert not any(memo.memos())
    again = play(game.clone(), [TacticalPlayer(3), TacticalPlayer(4)], 3)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in played.events]


def test_a_full_memo_starts_afresh_and_one_no_longer_held_is_forgotten() -> None:
    kept = memo.BoundedMemo("squares, this test's", 3)
    assert [kept.keep(n, n * n) for n in range(4)] == [0, 1, 4, 9]
    assert kept == {3: 9} and kept.get(3) == 9 and 2 not in kept
    assert any(m is kept for m in memo.memos())
    del kept
    gc.collect()
    assert "squares, this test's" not in {m.name for m in memo.memos()}
