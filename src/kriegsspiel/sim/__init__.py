"""Many games at once: matchups, seed streams, workers, the results store and the statistics."""

from kriegsspiel.core.seeds import MAX_SEED as MAX_SEED  # (the largest seed: core.seeds)

# the most games a run may ask for (--games, a sweep's games): the store counts them in SQLite
# integers; a million million games is thousands of years of play, and with --precision a
# run stops once it knows enough, so a large --games is "until precise"
MAX_GAMES = 10**12
DEFAULT_STORE = "kriegsspiel-results.sqlite"  # where evaluate, sweep and results keep games
# --workers beyond this many a core of the machine is refused: a game keeps a core busy, so
# more workers than cores only share them, and far more is a typo that would fork them all
WORKERS_PER_CORE = 4
