"""Bola o «boule»: the ball on a platform of eighteen holes numbered 1 to 9 (each twice), as a game of the engine.

The same game in three texts: Galicia ``000_e1555249d49967be.txt`` L331-L378 («04. Bola o boule»), the state
catalogue of 1979/1984 ``002_b26436a6fc4fb8e8.txt`` L9-L63 («04. Boule o bola») and Andalucía
``004_5c9c19b250457762.txt`` L903-L1027 («I.1.4. Bola o boule»). Two bets only: a number (seven times the
stake) or a simple chance (red or black, odd or even, passe or manque, a la par); the 5 is in no simple chance,
so when it comes out every simple chance loses. ``model`` is the ruleset model, ``game`` the round, ``edges`` the
house edges, ``spec`` the game's spec.
"""
