"""Chemin de fer (ferrocarril, bacará): the player-banked baccarat as a game of the engine.

``coup`` judges one punto hand against the bank (the deal, the punto rule, the banker's draw), ``stakes``
orders the stakes against the bank and settles them, ``bank`` follows the bank from coup to coup, and
``game`` is the round the engine folds. Bacará a dos paños (the same bank against two tableaux) is meant to
reuse ``coup`` once per paño and ``stakes`` per paño.
"""
