"""Many games at once: matchups, seed streams, workers, the results store and the statistics."""
