"""PHH and seven-card stud (``F7S``): ``pitwatch import phh`` reads pokerkit's stud hands, the engine
judges them, ``pitwatch export phh`` writes them back, pokerkit replays the export paying every player as
it paid the originals, and re-imported they settle the same. Five-card draw has no PHH variant.

The hands are pokerkit-played as in :mod:`tests.rules.test_poker_variants_play` (the lowest up card
completes to the table minimum: the Andalusian bring-in, 004 L5009-L5017); one hand posts pokerkit's own
bring-in (half the minimum, PHH ``pb``), which the engine flags.
"""

from __future__ import annotations

import warnings
from decimal import Decimal

import pytest
from pitwatch.rules.base import RoundVerdict
from pitwatch.rules.engine import replay
from pitwatch.schemas.phh import events_of
from pitwatch.schemas.phh_export import PhhExportError, export_phh
from pokerkit import FixedLimitSevenCardStud, HandHistory, Mode

from tests.rules.poker_hands import Table
from tests.rules.test_poker_variants_play import ANTE, AUTOMATIONS, MIN, _stud

GAME = FixedLimitSevenCardStud(AUTOMATIONS, True, ANTE, MIN / 2, MIN, 2 * MIN, mode=Mode.CASH_GAME)


def _histories(count: int = 25) -> list[HandHistory]:
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for k in range(count):
            players = 4 + k % 4
            state = _stud(players, [Decimal(20 + 7 * j) for j in range(players)], 1000 + k)
            hh = HandHistory.from_game_state(GAME, state)
            hh.hand, hh.venue, hh.table = k + 1, "club", "stud-1"
            hh.players = [f"S{j + 1}" for j in range(players)]
            out.append(hh)
    return out


def _verdicts(events) -> list[RoundVerdict]:
    return [v for v in replay(events) if isinstance(v, RoundVerdict)]


def _payoffs(histories) -> dict:
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for h in histories:
            *_, state = h
            out.update({(h.hand, p): Decimal(str(x)) for p, x in zip(h.players, state.payoffs)})
    return out


def test_stud_hands_round_trip_through_phh_l4969_l5185():
    """Imported, the stud hands are judged with no violation but split pots' odd cents (pokerkit gives them
    to one winner; Andalucía one each, 004 L4651-L4657); exported, pokerkit pays every player as it paid the
    original hands; imported again they settle the same."""
    original = _histories()
    events = list(events_of(original))
    assert {e.options["variant"] for e in events if e.type == "table_opened"} == {"stud"}
    assert any(e.type == "card_dealt" and e.face_up for e in events)
    verdicts = _verdicts(events)
    assert len(verdicts) == 25
    for v in verdicts:
        assert {x.kind for x in v.violations} <= {"payout_discrepancy"}, v.violations
        assert sum((x.amount for x in v.violations), Decimal(0)) == 0
    back = export_phh(events)
    assert [h.variant for h in back] == ["F7S"] * 25
    assert _payoffs(back) == _payoffs(original)

    def settled(evs):
        return {(v.round_id, c.expected.player_id): (c.expected.stake, c.expected.returned) for v in _verdicts(evs)
                for c in v.checks}

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        again = list(events_of(back))
    assert settled(again) == settled(events)


def test_a_phh_bring_in_below_the_minimum_is_flagged_l5009_l5017():
    """PHH's bring-in (``pb``, here 0.50 at a 1.00 minimum) is below the table minimum the lowest up card
    must bet in Andalucía: the engine flags it; exported, it is a ``pb`` again."""
    hh = HandHistory(variant="F7S", ante_trimming_status=False, antes=[ANTE] * 4, bring_in=MIN / 2,
                     small_bet=MIN, big_bet=2 * MIN, starting_stacks=[Decimal(50)] * 4,
                     actions=["d dh p1 2c3d4s", "d dh p2 5c6d7s", "d dh p3 8c9dTs", "d dh p4 JcQdKs",
                              "p1 pb", "p2 f", "p3 f", "p4 f"], hand=1, players=["W", "X", "Y", "Z"])
    events = list(events_of([hh]))
    (v,) = _verdicts(events)
    assert [(x.kind, x.player_id) for x in v.violations] == [("illegal_decision", "W")]
    (out,) = export_phh(events)
    assert "p1 pb" in out.actions and out.bring_in == Decimal("0.50")


def test_five_card_draw_has_no_phh_variant():
    t = Table(variant="draw")
    h = t.hand(3, {"A": (1, "100.00"), "B": (2, "100.00")})
    h.act("A", "ante", "0.50").end()
    with pytest.raises(PhhExportError, match="five-card draw"):
        export_phh(t.events)
