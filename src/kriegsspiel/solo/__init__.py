"""A game with a person at the keyboard: a side played from the terminal against the AI
(or two people taking turns), saved after every decision and resumable."""
