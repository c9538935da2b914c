"""The play aid for a game of Konflikt '47 or Bolt Action on a real table: the order-dice
bag, each unit's die, pins and models, and the odds of its tests, kept in a browser page
(``kriegsspiel aid``; docs/play-aid.md). The tracker needs only the engine; the web server
is the ``aid`` extra (FastAPI, uvicorn)."""
