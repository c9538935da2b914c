"""Games as environments for learning agents: a fixed numbering of every decision
(:mod:`.encoding`), the position as fixed-shape arrays (:mod:`.observe`), and two
environments on them: two agents in PettingZoo's AEC API (:mod:`.aec`) and one agent
against the AI in Gymnasium's (:mod:`.versus_ai`, registered as ``kriegsspiel/VersusAI-v0``);
and the game registered with OpenSpiel (:mod:`.openspiel`, ``python_kriegsspiel``).

The environments need the ``env`` extra (Gymnasium and PettingZoo: in the checkout,
``pip install -e ".[env]"``), the OpenSpiel game the ``openspiel`` extra; the numbering
and the arrays need only numpy.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError:  # the env extra is not installed: the numbering still works
    pass
else:
    if "kriegsspiel/VersusAI-v0" not in gymnasium.registry:
        gymnasium.register(
            id="kriegsspiel/VersusAI-v0", entry_point="kriegsspiel.env.versus_ai:VersusAIEnv"
        )
