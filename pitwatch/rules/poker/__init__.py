"""Póquer en círculo (Andalucía, 004_5c9c19b250457762.txt I.1.10): the player-against-player game
family, in progress: :mod:`pitwatch.rules.poker.betting` follows a betting interval (turn, check,
call, bet, raise, all-in; no limit, pot limit, fixed limit), :mod:`pitwatch.rules.poker.pots`
has the pot arithmetic (side pots, rake, split pots) and :mod:`pitwatch.rules.poker.showdown` reads
the shown hands (pokerkit's evaluation). Not yet a game of the engine."""
