"""Bacará a dos paños (banca francesa): one player's bank against two tableaux, as a game of the engine.

Built on chemin de fer's code (:mod:`pitwatch.rules.chemin_de_fer`), whose rules the texts declare
generally applicable (000 L803; 004 L2648-L2652): ``deal`` judges the cards of the two paños and the
bank (the punto rule per paño, the banker's one draw against both) and gives each paño's result,
``stakes`` splits the stakes over the paños and covers them with the bank, ``bank`` follows the bank from
coup to coup, and ``game`` is the round the engine folds.
"""
