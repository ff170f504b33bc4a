"""Ruleta francesa abreviada (Andalucía, 004_5c9c19b250457762.txt L441-L454, epígrafe I.1.1.B), as a game of the engine.

The same wheel, staff and rules as the ordinary French roulette of I.1.1.A (004 L109-L439,
:mod:`pitwatch.rules.roulette`), on a layout without places for the simple chances, the dozens and the
columns: only the sixline, the street, the corner (and «cuatro primeros», 0-1-2-3), the split and the
straight-up may be played. ``model`` is the ruleset model (French roulette's, with the absent bets left
out), ``game`` the round (French roulette's, refusing the spots the layout lacks), ``edges`` the house
edges of the five bet kinds and ``spec`` what the platform reads.
"""
