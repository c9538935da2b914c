"""``python -m kriegsspiel`` runs the command line."""

from kriegsspiel.cli import main

main()
