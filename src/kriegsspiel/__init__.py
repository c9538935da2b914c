"""kriegsspiel: an engine for WWII tabletop miniature wargames.

Exact odds, games and simulations for Konflikt '47, Bolt Action 1st edition,
Iron Cross and House Clearing.
"""

__version__ = "0.1.0"
