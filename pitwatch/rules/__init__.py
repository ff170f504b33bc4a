"""The rules engine: pure, deterministic, no I/O. One module per game family.

Entry points: :class:`pitwatch.rules.engine.TableEngine` (fold one table's events into round
verdicts) and :func:`pitwatch.rules.base.load_ruleset` (a ruleset file validated against the typed
model of its game, :mod:`pitwatch.rules.models`). Game modules register their round class in
:mod:`pitwatch.rules.registry`; :mod:`pitwatch.rules.games` imports them all.
"""
