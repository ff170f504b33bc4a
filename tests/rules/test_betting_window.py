"""Betting windows: a game whose round holds several rolls, spins or coups opens a new window after each
(:meth:`pitwatch.rules.game.GameRound.reopens_betting`), so a bet placed for the next one is not
past-posting; a one-window game (French roulette) keeps flagging any bet after «No va más» (000 L185)."""

from __future__ import annotations

from typing import Any

import pytest
from pitwatch.rules.base import ViolationKind
from pitwatch.rules.games import GAMES

from tests.rules.test_roulette import RouletteScript


def _late_bet_kinds(script: RouletteScript) -> list[str]:
    """Kinds of the violations of a spin where B2 is placed after «No va más» and after the ball (but
    its settlement: none is recorded)."""
    v = script.spin([("B1", "red", "10")], extra=[("bet_placed", {
        "bet_id": "B2", "player_id": "P-1", "spot": "black", "stake": "10.00"})])
    return [x.kind for x in v.violations if x.bet_id == "B2" and x.kind != ViolationKind.PAYOUT_DISCREPANCY]


def test_a_bet_after_no_more_bets_is_past_posting_in_a_one_window_game_000_L185():
    assert _late_bet_kinds(RouletteScript()) == [ViolationKind.PAST_POSTING]


@pytest.mark.parametrize("reopens, kinds, windows", [
    (False, [ViolationKind.PAST_POSTING], [0, 0]),
    (True, [], [0, 1]),
])
def test_a_bet_after_the_result_is_in_the_next_window_of_a_game_that_reopens_betting(
        monkeypatch: pytest.MonkeyPatch, reopens: bool, kinds: list[str], windows: list[int]):
    """The same events at a game that opens a new window when the ball lands (as craps' dice do): B2
    is a bet of the next window, not past-posting, and the window count goes up by one; without the
    new window the engine flags it. (The game judges no bet itself here: roulette's own check of a bet
    after the ball is not what is tested.)"""
    real = GAMES["french_roulette"]
    seen: list[int] = []

    class Reopening(real):  # type: ignore[valid-type, misc]
        def reopens_betting(self, event: Any) -> bool:
            return reopens and bool(event.type == "ball_landed")

        def on_bet(self, bet: Any) -> Any:
            seen.append(self.window)
            return []

    monkeypatch.setitem(GAMES, "french_roulette", Reopening)
    assert _late_bet_kinds(RouletteScript()) == kinds
    assert seen == windows
