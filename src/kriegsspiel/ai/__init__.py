"""Players behind one protocol: random, scripted tactics (and later search)."""
