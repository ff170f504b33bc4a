"""Chemin de fer (ferrocarril, bacará): the player-banked baccarat as a game of the engine.

``coup`` judges one punto hand against the bank (the deal, the punto rule, the banker's draw), ``stakes``
orders the stakes against the bank and settles them, ``bank`` follows the bank from coup to coup, and
``game`` is the round the engine folds; ``banked`` what its rounds share with bacará a dos paños
(:mod:`pitwatch.rules.dos_panos`: the same bank against two tableaux), which reuses ``coup``'s punto rule
and banker's draw, ``stakes``' settlement of a stake and of the bank, and ``bank``'s ``PutUp``.
"""
