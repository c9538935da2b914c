"""The Gymnasium spaces of an environment's observations and actions (one set-up's shapes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from gymnasium import spaces

if TYPE_CHECKING:
    from kriegsspiel.env.episode import Setup


def observation_arrays(setup: Setup) -> spaces.Dict:
    """The three arrays of :mod:`kriegsspiel.env.observe` (models counted, so unbounded
    above; a heading's sine and cosine go down to -1)."""
    shapes = setup.observer.shapes
    return spaces.Dict(
        {
            "planes": spaces.Box(0.0, np.inf, shapes.planes, np.float32),
            "units": spaces.Box(-1.0, np.inf, shapes.units, np.float32),
            "game": spaces.Box(0.0, np.inf, shapes.game, np.float32),
        }
    )


def action_mask(setup: Setup) -> spaces.Box:
    return spaces.Box(0, 1, (setup.encoding.size,), np.int8)


def actions(setup: Setup) -> spaces.Discrete:
    return spaces.Discrete(setup.encoding.size)
