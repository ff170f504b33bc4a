"""Citation keywords of american_roulette (merged into tests/rules/test_citations.py by tests.rules.keywords)."""

from __future__ import annotations

KEYWORDS: dict[str, list[str]] = {
    "same_principles": ["mismos principios", "limite minimo", "reglas contenidas para la ruleta francesa"],
    "one_side": ["uno de los dos lados"],
    "zero_half": ["se pierde la mitad", "se perdera la mitad"],
    "colour_chips": ["fichas de color", "marcador"],
    "colour_value": ["el valor dado a las fichas", "fijar el valor"],
    "colour_default": ["representa el minimo", "representara el minimo"],
    "payable_with_minimum": ["permita su pago"],
    "payment_order": ["orden siguiente"],
}

SYMBOL_KEYWORDS: dict[str, list[str]] = {
    "pitwatch/rules/american_roulette/__init__.py": ["ruleta"],
    "pitwatch/rules/american_roulette/model.py": ["ruleta"],
    "pitwatch/rules/american_roulette/model.py:AmericanColours": ["marcador", "fichas"],
    "pitwatch/rules/american_roulette/model.py:AmericanColours.default_value": ["representa el minimo", "representara el minimo"],
    "pitwatch/rules/american_roulette/model.py:AmericanColours.value_maximum_kind": ["numero entero"],
    "pitwatch/rules/american_roulette/model.py:AmericanColours.payable_with_minimum": ["permita su pago", "ruleta americana"],
    "pitwatch/rules/american_roulette/model.py:AmericanOptions.max_rule": ["10 20 o 30 veces", "autorizacion de funcionamiento"],
    "pitwatch/rules/american_roulette/model.py:AmericanOptions.max_tier": ["180 360 o 540 veces", "10 20 o 30 veces"],
    "pitwatch/rules/american_roulette/model.py:AmericanOptions.simple_chance_min_multiple": ["cinco veces el minimo"],
    "pitwatch/rules/american_roulette/model.py:AmericanRouletteRuleset.payouts": ["ruleta francesa", "ruleta llamada"],
    "pitwatch/rules/american_roulette/model.py:AmericanZero.simple_lost_fraction": ["la mitad"],
    "pitwatch/rules/american_roulette/events.py": ["marcador", "fichas"],
    "pitwatch/rules/american_roulette/events.py:ColourBetPlaced": ["fichas"],
    "pitwatch/rules/american_roulette/events.py:ColourValued": ["fijar el valor"],
    "pitwatch/rules/american_roulette/edges.py": ["ruleta", "casillas", "cero"],
    "pitwatch/rules/american_roulette/game.py": ["ruleta", "cero", "marcador", "fichas", "apuestas"],
    "pitwatch/rules/american_roulette/game.py:AmericanRouletteRound": ["sentido opuesto"],
    "pitwatch/rules/american_roulette/game.py:AmericanRouletteRound.bet_of": ["representa el minimo", "representara el minimo"],
    "pitwatch/rules/american_roulette/game.py:AmericanRouletteRound.check": ["sentido opuesto"],
    "pitwatch/rules/american_roulette/game.py:AmericanRouletteRound.on_bet": ["permita su pago"],
    "pitwatch/rules/american_roulette/game.py:AmericanRouletteRound.on_event": ["sentido opuesto", "la mitad"],
    "pitwatch/rules/american_roulette/game.py:AmericanRouletteRound.on_table_event": ["variar"],
    "pitwatch/rules/american_roulette/game.py:AmericanRouletteRound.settle": ["veces", "la mitad", "ganancia", "conserva"],
    "pitwatch/rules/american_roulette/game.py:AmericanRouletteRound.void": ["tirada nula"],
    "pitwatch/rules/american_roulette/game.py:colour_value": ["representa el minimo", "representara el minimo"],
    "pitwatch/rules/american_roulette/game.py:colour_value_range": ["numero entero"],
    "pitwatch/rules/american_roulette/game.py:set_marker": ["marcador", "fijar el valor"],
    "pitwatch/rules/american_roulette/game.py:ColourMarker": ["marcador", "fijar el valor"],
    "pitwatch/sim/american_roulette.py": ["ruleta", "cero", "fichas", "sentido opuesto", "permita su pago"],
    "pitwatch/sim/american_roulette.py:PALETTE": ["color"],
    "pitwatch/sim/american_roulette.py:WINNINGS": ["veces", "la mitad", "ganancia", "conserva", "ruleta"],
    "pitwatch/sim/american_roulette.py:ZERO_KEEPS": ["la mitad"],
    "pitwatch/sim/american_roulette.py:_payable": ["permita su pago"],
    "pitwatch/sim/american_roulette.py:american_roulette_table": ["180"],
    "pitwatch/sim/american_roulette.py:bet_limits": ["minimo", "maximo", "minimos"],
    "pitwatch/sim/american_roulette.py:payment": ["veces", "la mitad", "ganancia", "conserva", "sencillas"],
    "pitwatch/rules/american_roulette/spec.py:SPEC": [
        "orden siguiente", "acomodandose", "limite minimo", "al menos una mesa", "anunciadas en voz alta",
        "tres ultimas bolas", "mismos principios", "reglas contenidas para la ruleta francesa"],
}

GAP_WORDS: dict[str, list[str]] = {
    "000 L233": ["orden siguiente", "de una sola vez"],
    "000 L207": ["acomodandose al valor individual"],
    "000 L171-L173": ["limite minimo de apuestas autorizado"],
    "004 L484-L486": ["acomodandose al valor individual"],
    "004 L403-L408": ["anunciadas en voz alta"],
    "004 L362-L367": ["tres ultimas bolas"],
    "004 L369-L372": ["al menos una mesa"],
}
"""Not-checked citation (the game's ``SPEC.not_checked``) -> words (``tests/test_coverage.py``)."""
