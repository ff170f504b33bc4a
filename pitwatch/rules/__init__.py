"""The rules engine: pure, deterministic, no I/O. One module per game family.

Entry points: :class:`pitwatch.rules.engine.TableEngine` (fold one table's events into round
verdicts) and :func:`pitwatch.rules.base.load_ruleset`.
"""
