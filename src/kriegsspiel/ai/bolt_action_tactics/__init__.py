"""A scripted tactical player for Konflikt '47 and Bolt Action.

It activates the unit that can do the most good: shoot the target where the exact odds
promise the most damage (points removed), assault when the close quarters odds favour it
against the defence the enemy would choose (hand-to-hand, point-blank fire, or standing to
fire first: the one it picks when assaulted) or a vehicle by the exact chance to knock it
out, rally or go Down when pinned, move through cover towards objectives or the enemy (in
the last turn, for the objectives that decide the game), and set ambushes where the enemy
must come. The odds come from the same rule code as the game.

The package is :class:`TacticalPlayer` (``player``: the protocol and the choice of order)
and what it weighs orders by, each apart.
"""

from kriegsspiel.ai.bolt_action_tactics.player import TacticalPlayer

__all__ = ["TacticalPlayer"]
