"""The wheel of fortune («Ruleta de la fortuna», Galicia; «Rueda de la fortuna», Andalucía) as a game of the engine.

A vertical wheel of 54 segments, each showing a symbol; the players bet on a symbol and win at its
payout when the wheel stops on one of its segments. ``events`` holds the event the game adds
(``wheel_stopped``), ``model`` the ruleset model (the wheel's segments per symbol and the payouts as
data), ``game`` the round the engine folds, ``edges`` the exact house edges and ``spec`` the game's
:class:`~pitwatch.rules.spec.GameSpec`. Sources: Galicia 000_e1555249d49967be.txt L1053-L1097;
Andalucía 004_5c9c19b250457762.txt L5665-L5796.
"""
