"""Boule's citation keywords (``tests/rules/test_citations.py``), written by hand from the seeds: Galicia 000
L331-L378, Spain 002 L9-L63, Andalucía 004 L903-L1027. Its rulesets also use the keys of French roulette
(``colours``, ``layout``, ``payout_simple``) and the common ones (``no_more_bets``, ``void_round``,
``limit_minimum``), whose words are in the shared tables."""

from __future__ import annotations

KEYWORDS: dict[str, list[str]] = {
    "game": ["contrapartida"],
    "panos": ["dos panos"],
    "holes": ["dieciocho orificios"],
    "simple_chances": ["numeros superiores al 5"],
    "five": ["excluido de la serie impar", "sale el numero 5", "salga el numero 5"],
    "payout_number": ["siete veces"],
    "payment": ["la ganancia"],
    "result_announced": ["numero ganador"],
    "limit_pano_minimum": ["dos veces la autorizada"],
    "limit_max_number": ["cuarenta veces"],
    "limit_max_simple": ["doscientas veces"],
    "limit_per_player": ["aisladamente"],
}

NO_RULE: dict[tuple[str, str], list[str]] = {
    # the texts have no void round: the citation names the section that describes the round
    ("boule.galicia", "void_round"): ["desarrollo del juego"],
    ("boule.espana", "void_round"): ["funcionamiento del juego"],
    ("boule.andalucia", "void_round"): ["funcionamiento del juego"],
}

SYMBOL_KEYWORDS: dict[str, list[str]] = {
    "pitwatch/rules/boule/__init__.py": ["bola"],
    "pitwatch/rules/boule/model.py": ["bola"],
    "pitwatch/rules/boule/model.py:BouleOptions.panos": ["dos panos", "dos veces la autorizada"],
    "pitwatch/rules/boule/model.py:BouleOptions.max_straight_multiple": ["cuarenta veces"],
    "pitwatch/rules/boule/model.py:BouleOptions.max_simple_multiple": ["doscientas veces"],
    "pitwatch/rules/boule/model.py:BoulePayouts": ["la ganancia"],
    "pitwatch/rules/boule/model.py:BoulePayouts.straight": ["siete veces"],
    "pitwatch/rules/boule/model.py:BoulePayouts.simple": ["valor igual"],
    "pitwatch/rules/boule/model.py:BouleChances": ["par o impar"],
    "pitwatch/rules/boule/model.py:BouleChances.red": ["rojo"],
    "pitwatch/rules/boule/model.py:BouleChances.black": ["negro"],
    "pitwatch/rules/boule/model.py:BouleChances.odd": ["impar"],
    "pitwatch/rules/boule/model.py:BouleChances.even": ["pares"],
    "pitwatch/rules/boule/model.py:BouleChances.manque": ["inferiores al 5"],
    "pitwatch/rules/boule/model.py:BouleChances.passe": ["superiores al 5"],
    "pitwatch/rules/boule/model.py:BouleLayout.numbers": ["del 1 al 9"],
    "pitwatch/rules/boule/model.py:BouleLayout.holes_per_number": ["dieciocho orificios"],
    "pitwatch/rules/boule/model.py:BouleLayout.neutral": ["excluido de la serie impar", "sale el numero 5",
                                                          "salga el numero 5"],
    "pitwatch/rules/boule/model.py:BouleLimits": ["maximo"],
    "pitwatch/rules/boule/model.py:BouleLimits.max_panos": ["dos panos"],
    "pitwatch/rules/boule/model.py:BouleLimits.pano_minimum_multiples": ["dos veces la autorizada"],
    "pitwatch/rules/boule/model.py:BouleLimits.straight_max_range": ["cuarenta veces"],
    "pitwatch/rules/boule/model.py:BouleLimits.simple_max_range": ["doscientas veces"],
    "pitwatch/rules/boule/model.py:BouleLimits.max_per_player": ["aisladamente"],
    "pitwatch/rules/boule/game.py": ["bola", "sale el numero 5", "salga el numero 5"],
    "pitwatch/rules/boule/game.py:layout_spots": ["dos combinaciones"],
    "pitwatch/rules/boule/game.py:table_limits": ["minimo", "maximo"],
    "pitwatch/rules/boule/game.py:BouleRound.on_bet": ["minimo", "maximo", "no va mas"],
    "pitwatch/rules/boule/game.py:BouleRound.on_event": ["numero ganador"],
    "pitwatch/rules/boule/game.py:BouleRound.settle": ["siete veces", "la ganancia", "sale el numero 5",
                                                       "salga el numero 5", "par o impar"],
    "pitwatch/rules/boule/game.py:BouleRound.check": ["no va mas"],
    "pitwatch/rules/boule/game.py:BouleRound.on_table_event": ["dos veces la autorizada", "cuarenta veces"],
    "pitwatch/rules/boule/edges.py": ["dieciocho orificios", "siete veces", "par o impar"],
    "pitwatch/sim/boule.py": ["dieciocho orificios", "dos veces la autorizada", "cuarenta veces"],
    "pitwatch/sim/boule.py:WINNINGS": ["siete veces", "valor igual", "la ganancia"],
    "pitwatch/sim/boule.py:CHANCES": ["negro", "superiores al 5"],
    "pitwatch/sim/boule.py:HOLES": ["dieciocho orificios"],
    "pitwatch/sim/boule.py:MAX_MULTIPLES": ["cuarenta veces"],
    "pitwatch/sim/boule.py:table": ["dos veces la autorizada", "doscientas veces"],
    "pitwatch/sim/boule.py:maximum": ["maximo"],
    "pitwatch/sim/boule.py:pano_minima": ["minimo"],
    "pitwatch/sim/boule.py:payment": ["sale el numero 5", "salga el numero 5"],
    "pitwatch/rules/boule/spec.py:SPEC": ["orden de rotacion", "numerosas vueltas"],
}

GAP_WORDS: dict[str, list[str]] = {
    "000 L353": ["orden de rotacion"],
    "002 L31": ["orden de rotacion"],
    "004 L957-L961": ["orden de rotacion"],
    "000 L373": ["numerosas vueltas"],
    "002 L59": ["numerosas vueltas"],
    "004 L1009-L1012": ["numerosas vueltas"],
}
"""Not-checked citation (the game's ``SPEC.not_checked``) -> words (``tests/test_coverage.py``)."""
