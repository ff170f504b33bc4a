"""American roulette with one zero («Ruleta americana», «Ruleta americana con un solo cero»), as a game of
the engine.

The French wheel of 37 pockets (0-36) played on a one-sided layout with colour chips whose value each player
sets with a marker (Galicia ``000_e1555249d49967be.txt`` L195-L233; Andalucía ``004_5c9c19b250457762.txt``
L456-L569). Both texts declare French roulette's rules applicable to everything they do not change (000 L199;
004 L459-L464), so the spots and their payouts are French roulette's (:mod:`pitwatch.rules.roulette`); what
differs is here: ``model`` the ruleset model, ``events`` the colour-chip events, ``game`` the round (half of a
simple chance lost at zero, no prison; colour chips valued by the player's marker), ``edges`` the house edges,
``spec`` the game's spec.
"""
