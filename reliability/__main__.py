"""``python -m reliability``: see :mod:`reliability.cli`."""

from reliability.cli import app

app(prog_name="python -m reliability")
