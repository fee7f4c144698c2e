"""Thin entry point at the repository root: ``python cli.py check ...`` runs ``posting``."""

from posting.cli import main

if __name__ == "__main__":
    main()
