"""Póquer en círculo (Andalucía, 004_5c9c19b250457762.txt I.1.10): the player-against-player game
family. :mod:`pitwatch.rules.poker.pots` has the pot arithmetic (side pots, rake, split pots)."""
