"""The play aid for a game of Konflikt '47 or Bolt Action on a real table: the order-dice
bag, each unit's die, pins and models, and the odds of its tests, kept in a browser page
(``kriegsspiel aid``; docs/play-aid.md). The tracker needs only the engine; the web server
is the ``aid`` extra (FastAPI, uvicorn)."""

# the command's defaults (here, where the command line reads them without loading the aid)
DEFAULT_SAVE = "kriegsspiel-aid.jsonl"
DEFAULT_HOST = "127.0.0.1"  # this machine only
DEFAULT_PORT = 8047
