"""``python -m pitwatch`` = the ``pitwatch`` command."""

from pitwatch.cli import app

app()
