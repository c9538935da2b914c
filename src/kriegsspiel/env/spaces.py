"""The Gymnasium spaces of an environment's observations and actions (one set-up's shapes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from gymnasium import spaces

if TYPE_CHECKING:
    from kriegsspiel.env.episode import Setup


def observation_arrays(setup: Setup) -> spaces.Dict:
    """The three arrays of :mod:`kriegsspiel.env.observe`, each entry bounded by what the
    set-up's games can show (the observer's ``low`` and ``high``)."""
    observer = setup.observer
    return spaces.Dict(
        {
            key: spaces.Box(observer.low[key], observer.high[key], dtype=np.float32)
            for key in ("planes", "units", "game")
        }
    )


def action_mask(setup: Setup) -> spaces.Box:
    return spaces.Box(0, 1, (setup.encoding.size,), np.int8)


def actions(setup: Setup) -> spaces.Discrete:
    return spaces.Discrete(setup.encoding.size)
