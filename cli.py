"""Thin entry point at the repository root: ``python cli.py check ...`` runs ``posting``."""

from posting.cli import run

if __name__ == "__main__":
    run()
