"""Many games at once: matchups, seed streams, workers, the results store and the statistics."""

MAX_SEED = 2**63 - 1  # the largest run seed: the results store keeps it as a SQLite integer
DEFAULT_STORE = "kriegsspiel-results.sqlite"  # where evaluate, sweep and results keep games
