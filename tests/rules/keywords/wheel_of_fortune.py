"""Citation keywords of wheel_of_fortune (merged into tests/rules/test_citations.py by tests.rules.keywords)."""

from __future__ import annotations

KEYWORDS: dict[str, list[str]] = {
    "wheel": ["cincuenta y cuatro"],
    "combinations": ["combinaciones", "posiciones", "diferentes jugadas"],
    "payouts": ["1 a 1", "veces el valor"],
    "stake_returned": ["recupera"],
    "bets_open": ["hagan sus apuestas"],
    "wheel_spin": ["girar", "impulso"],
    "wheel_direction": ["agujas del reloj"],
    "wheel_turns": ["cuatro giros"],
    "wheel_result": ["inmovilizada", "combinacion ganadora"],
    "void_pivot": ["pivote"],
    "void_obstruction": ["obstaculice"],
    "payment_order": ["menor a mayor"],
    "no_bets_during_payment": ["procediendo al pago"],
}

NO_RULE: dict[tuple[str, str], list[str]] = {
    ("wheel_of_fortune.galicia", "void_round"): ["inmovilizada en una casilla"],
}

SYMBOL_KEYWORDS: dict[str, list[str]] = {
    "pitwatch/rules/wheel_of_fortune/__init__.py": ["fortuna"],
    "pitwatch/rules/wheel_of_fortune/model.py": ["fortuna"],
    "pitwatch/rules/wheel_of_fortune/model.py:WheelSymbol.segments": ["posiciones"],
    "pitwatch/rules/wheel_of_fortune/model.py:WheelSymbol.payout": ["1 a 1", "veces el valor", "recupera"],
    "pitwatch/rules/wheel_of_fortune/model.py:Wheel.segments": ["cincuenta y cuatro"],
    "pitwatch/rules/wheel_of_fortune/model.py:Wheel.direction": ["agujas del reloj"],
    "pitwatch/rules/wheel_of_fortune/model.py:Wheel.impulses": ["girar", "nuevo impulso"],
    "pitwatch/rules/wheel_of_fortune/model.py:Wheel.min_turns": ["cuatro giros", "numerosas vueltas"],
    "pitwatch/rules/wheel_of_fortune/model.py:Procedure.void_if_obstructed": ["obstaculice"],
    "pitwatch/rules/wheel_of_fortune/model.py:Procedure.pay_smallest_first": ["menor a mayor"],
    "pitwatch/rules/wheel_of_fortune/model.py:Procedure.void_only_listed": ["cuatro giros", "pivote", "obstaculice"],
    "pitwatch/rules/wheel_of_fortune/game.py:WheelOfFortuneRound.void_violations": [
        "cuatro giros", "pivote", "obstaculice", "nula"],
    "pitwatch/rules/wheel_of_fortune/events.py": ["hagan sus apuestas"],
    "pitwatch/rules/wheel_of_fortune/edges.py": [
        "cincuenta y cuatro", "combinaciones", "posiciones", "1 a 1", "veces el valor", "recupera"],
    "pitwatch/rules/wheel_of_fortune/game.py": ["fortuna", "nula", "inmovilizada"],
    "pitwatch/rules/wheel_of_fortune/game.py:payouts": ["1 a 1", "veces el valor"],
    "pitwatch/rules/wheel_of_fortune/game.py:WheelOfFortuneRound": [
        "no va mas", "procediendo al pago", "agujas del reloj", "menor a mayor"],
    "pitwatch/rules/wheel_of_fortune/game.py:WheelOfFortuneRound.void_reason": [
        "pivote", "inmovilizada", "cuatro giros", "obstaculice"],
    "pitwatch/rules/wheel_of_fortune/game.py:WheelOfFortuneRound.on_bet": ["no va mas", "procediendo al pago", "minimo"],
    "pitwatch/rules/wheel_of_fortune/game.py:WheelOfFortuneRound.on_event": ["agujas del reloj"],
    "pitwatch/rules/wheel_of_fortune/game.py:WheelOfFortuneRound.settle": ["1 a 1", "veces el valor", "recupera"],
    "pitwatch/rules/wheel_of_fortune/game.py:WheelOfFortuneRound.check": ["nueva jugada", "girar", "impulso", "menor a mayor"],
    "pitwatch/rules/wheel_of_fortune/game.py:WheelOfFortuneRound._payment_order": ["menor a mayor"],
    "pitwatch/sim/wheel_of_fortune.py": ["hagan sus apuestas"],
    "pitwatch/sim/wheel_of_fortune.py:WHEELS": [
        "cincuenta y cuatro", "posiciones", "girar", "impulso", "pivote", "menor a mayor"],
    "pitwatch/rules/wheel_of_fortune/spec.py:SPEC": ["numerosas vueltas", "nuevo impulso"],
}

GAP_WORDS: dict[str, list[str]] = {
    "000 L1095": ["numerosas vueltas"],
    "004 L5762-L5765": ["nuevo impulso"],
}
"""Not-checked citation (the game's ``SPEC.not_checked``) -> words (``tests/test_coverage.py``)."""
