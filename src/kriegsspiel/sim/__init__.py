"""Many games at once: matchups, seed streams, workers, the results store and the statistics."""

MAX_SEED = 2**63 - 1  # the largest run seed: the results store keeps it as a SQLite integer
DEFAULT_STORE = "kriegsspiel-results.sqlite"  # where evaluate, sweep and results keep games
# --workers beyond this many a core of the machine is refused: a game keeps a core busy, so
# more workers than cores only share them, and far more is a typo that would fork them all
WORKERS_PER_CORE = 4
