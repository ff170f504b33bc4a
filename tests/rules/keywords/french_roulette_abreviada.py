"""Citation keywords of french_roulette_abreviada (merged into tests/rules/test_citations.py by tests.rules.keywords)."""

from __future__ import annotations

KEYWORDS: dict[str, list[str]] = {
    "abbreviated_rules": ["mismos elementos de juego"],
    "abbreviated_layout": ["carecera de lugares", "solo sera posible apostar"],
}

_ROULETTE_PAYOUTS = ["veces", "la mitad", "ganancia", "conserva"]  # French roulette's payout words (test_citations)

SYMBOL_KEYWORDS: dict[str, list[str]] = {
    "pitwatch/sim/french_roulette_abreviada.py:WINNINGS": [*_ROULETTE_PAYOUTS, "seisena"],
    "pitwatch/sim/french_roulette_abreviada.py:payments": _ROULETTE_PAYOUTS,
    # the keys of French roulette's model the abbreviated layout lacks (004 L447-L454)
    **{f"pitwatch/rules/french_roulette_abreviada/model.py:{place}": ["apuestas sencillas"] for place in (
        *(f"Abreviada{section}.{kind}" for section in ("Payouts", "MaxMultiples")
          for kind in ("column", "dozen", "columns", "dozens", "simple")),
        "AbreviadaOptions.simple_chance_min_multiple", "AbreviadaOptions.zero_default",
        "AbreviadaLimits.simple_chance_min_multiple_max")},
    "pitwatch/rules/french_roulette_abreviada/__init__.py": ["ruleta francesa"],
    "pitwatch/rules/french_roulette_abreviada/model.py": ["ruleta francesa", "cero"],
    "pitwatch/rules/french_roulette_abreviada/model.py:ALLOWED_KINDS": ["seisena"],
    "pitwatch/rules/french_roulette_abreviada/model.py:AbreviadaOptions.max_tier": ["10 20 o 30 veces"],
    "pitwatch/rules/french_roulette_abreviada/model.py:ABSENT_KINDS": ["carecera de lugares"],
    "pitwatch/rules/french_roulette_abreviada/model.py:_left_out": ["carecera de lugares"],
    "pitwatch/rules/french_roulette_abreviada/model.py:AbreviadaPayouts": ["conservara"],
    "pitwatch/rules/french_roulette_abreviada/model.py:AbreviadaMaxMultiples": ["apuestas multiples"],
    "pitwatch/rules/french_roulette_abreviada/model.py:AbreviadaRuleset": ["mismos elementos", "carecera de lugares"],
    "pitwatch/rules/french_roulette_abreviada/model.py:AbreviadaRuleset.zero": ["cero", "apuestas sencillas"],
    "pitwatch/rules/french_roulette_abreviada/game.py": [
        "ruleta francesa", "mismos elementos", "carecera de lugares", "solo sera posible"],
    "pitwatch/rules/french_roulette_abreviada/game.py:LAYOUT": ["seisena"],
    "pitwatch/rules/french_roulette_abreviada/game.py:parse_spot": ["carecera de lugares", "tipos de apuestas"],
    "pitwatch/rules/french_roulette_abreviada/game.py:off_layout": ["carecera de lugares"],
    "pitwatch/rules/french_roulette_abreviada/game.py:AbreviadaRound": [
        "mismos elementos", "carecera de lugares", "sentido opuesto"],
    "pitwatch/rules/french_roulette_abreviada/game.py:AbreviadaRound.on_bet": ["carecera de lugares"],
    "pitwatch/rules/french_roulette_abreviada/game.py:AbreviadaRound.player_decision": ["apuestas sencillas"],
    "pitwatch/rules/french_roulette_abreviada/game.py:AbreviadaRound.on_table_event": ["maximo", "apuestas sencillas", "variar"],
    "pitwatch/rules/french_roulette_abreviada/edges.py": ["casilleros", "cero", "mismos elementos", "seisena"],
    "pitwatch/sim/french_roulette_abreviada.py": [
        "ruleta francesa", "mismos elementos", "sentido opuesto", "carecera de lugares"],
    "pitwatch/sim/french_roulette_abreviada.py:LAYOUT": ["seisena"],
    "pitwatch/sim/french_roulette_abreviada.py:OFF_LAYOUT": ["carecera de lugares"],
    "pitwatch/sim/french_roulette_abreviada.py:table": ["maximo"],
    "pitwatch/rules/french_roulette_abreviada/spec.py:SPEC": ["anunciadas en voz alta", "tres ultimas bolas",
                                                              "al menos una mesa", "mismos elementos"],
}

GAP_WORDS: dict[str, list[str]] = {
    "004 L403-L408": ["anunciadas en voz alta"],
    "004 L362-L367": ["tres ultimas bolas"],
    "004 L369-L372": ["al menos una mesa"],
}
"""Not-checked citation (the game's ``SPEC.not_checked``) -> words (``tests/test_coverage.py``)."""
