"""French roulette rules: payouts, limits, spots, the zero rule, spin direction, void spins.

Each test names the seed lines of the rule it checks (000 = Galicia 000_e1555249d49967be.txt,
004 = Andalucía 004_5c9c19b250457762.txt). ``RouletteScript`` (also used by the property tests)
feeds pydantic events to a ``TableEngine`` and returns the round verdicts.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pitwatch.rules.roulette as roulette  # noqa: F401  (registers the game)
import pytest
from pitwatch.rules.base import RoundVerdict
from pitwatch.rules.base import ViolationKind as VK
from pitwatch.rules.engine import TableEngine
from pitwatch.schemas.events import EVENT_CLASS_BY_TYPE

D = Decimal
GAL = "french_roulette.galicia"
AND = "french_roulette.andalucia"
BOTH = pytest.mark.parametrize("ruleset", [GAL, AND])


class RouletteScript:
    """Builds one roulette table's events and feeds them to a TableEngine.

    ``spin(...)`` plays a whole round and returns its :class:`RoundVerdict`; table-level
    violations collect in ``table_violations``.
    """

    def __init__(self, ruleset: str = GAL, min_bet: str = "5.00", max_bet: str = "900.00",
                 options: dict[str, str] | None = None, table_id: str = "RF-T1"):
        self.table_id = table_id
        self.engine = TableEngine(table_id)
        self.seq = 0
        self.t0 = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
        self.rounds = 0
        self.direction = "clockwise"
        self.table_violations: list = []
        self.last_bet_event: dict[str, str] = {}
        self.table("table_opened", actor=("pit_boss", "PB"), ruleset_id=ruleset,
                   jurisdiction=ruleset.split(".")[1], min_bet=min_bet, max_bet=max_bet,
                   float_amount="10000.00", options=options or {})
        self.table("dealer_assigned", actor=("pit_boss", "PB"), dealer_id="D-1")

    def _event(self, type: str, round_id: str | None, actor=("dealer", "D-1"), **payload):
        self.seq += 1
        ev = {"event_id": str(uuid.uuid4()), "casino_id": "gal-test", "table_id": self.table_id,
              "game": "french_roulette", "seq": self.seq, "round_id": round_id,
              "occurred_at": (self.t0 + timedelta(seconds=self.seq)).isoformat(),
              "actor": {"role": actor[0], "id": actor[1]}, "type": type, **payload}
        return EVENT_CLASS_BY_TYPE[type].model_validate(ev)

    def table(self, type: str, actor=("pit_boss", "PB"), **payload) -> list:
        out = self.engine.apply(self._event(type, None, actor, **payload))
        self.table_violations.extend(out)
        return out

    def spin(self, bets=(), number: int | None = 17, decisions=(), direction: str | None = "auto",
             last: bool = False, voided: str | None = None, records=None, late_bets=(),
             close: bool = True, extra=()) -> RoundVerdict:
        """Play one round.

        ``bets``: (bet_id, spot, stake[, player]) tuples; ``decisions``: (bet_id, decision);
        ``direction``: "auto" alternates, None emits no wheel_spun; ``records``: bet_id ->
        (outcome, returned) settlements to record (default: none recorded, so the verdict's
        expected settlements are inspected via ``settled``); ``late_bets`` are placed after
        bets_closed; ``extra``: (type, payload) events emitted after the decisions.
        """
        self.rounds += 1
        rid = f"R{self.rounds:04d}"
        ap = self.engine.apply
        ap(self._event("round_started", rid, last_of_session=last))
        for b in bets:
            bid, spot, stake, *player = b
            ap(self._event("bet_placed", rid, ("player", player[0] if player else "P-1"), bet_id=bid,
                           player_id=player[0] if player else "P-1", spot=spot, stake=str(stake)))
        if direction is not None:
            if direction == "auto":
                self.direction = "counterclockwise" if self.direction == "clockwise" else "clockwise"
                direction = self.direction
            else:
                self.direction = direction
            ap(self._event("wheel_spun", rid, direction=direction))
        if close:
            ap(self._event("bets_closed", rid))
        for b in late_bets:
            bid, spot, stake = b
            ap(self._event("bet_placed", rid, ("player", "P-1"), bet_id=bid, player_id="P-1", spot=spot,
                           stake=str(stake)))
        if voided:
            ap(self._event("round_voided", rid, ("inspector", "I-1"), reason=voided))
        elif number is not None:
            ap(self._event("ball_landed", rid, number=number))
        for bid, dec in decisions:
            ap(self._event("player_decision", rid, ("player", "P-1"), decision=dec, bet_id=bid))
        for type, payload in extra:
            ap(self._event(type, rid, **payload))
        for bid, (outcome, returned) in (records or {}).items():
            ap(self._event("settlement_recorded", rid, bet_id=bid, outcome=outcome, returned=str(returned)))
        out = ap(self._event("round_ended", rid))
        verdicts = [v for v in out if isinstance(v, RoundVerdict)]
        assert len(verdicts) == 1
        return verdicts[0]


def settled(v: RoundVerdict) -> dict[str, tuple[str, Decimal]]:
    """bet_id -> (expected outcome, expected returned euros)."""
    return {c.expected.bet_id: (c.expected.outcome, c.expected.returned) for c in v.checks}


def kinds(v: RoundVerdict) -> list[str]:
    """Violation kinds of a verdict, payout discrepancies excluded (nothing is recorded unless
    a test records settlements)."""
    return sorted(x.kind for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY)


def clean_kinds(v: RoundVerdict) -> list[str]:
    return sorted(x.kind for x in v.violations)


# --------------------------------------------------------------------------- payouts


PAYOUT_CASES = [
    # (spot, winning number, stake, returned, citation)
    ("straight:17", 17, "10", "360.00", "000 L133 / 004 L221-L224 pleno 35:1"),
    ("straight:0", 0, "10", "360.00", "000 L133 «un número cualquiera de los 37» (zero allowed)"),
    ("split:17-20", 20, "10", "180.00", "000 L135 / 004 L226-L229 caballo 17:1"),
    ("split:16-17", 16, "10", "180.00", "000 L135 caballo 17:1 (row neighbours)"),
    ("split:0-2", 0, "10", "180.00", "000 L135 caballo with zero"),
    ("street:13-14-15", 14, "10", "120.00", "000 L137 / 004 L231-L240 fila transversal 11:1"),
    ("street:0-1-2", 0, "10", "120.00", "000 L137 0-1-2 11:1"),
    ("street:0-2-3", 3, "10", "120.00", "000 L137 / 004 L235-L240 0-2-3 11:1"),
    ("corner:17-18-20-21", 21, "10", "90.00", "000 L139-L141 / 004 L242-L249 cuadro 8:1"),
    ("corner:0-1-2-3", 0, "10", "90.00", "000 L141 / 004 L245-L249 0-1-2-3 8:1"),
    ("sixline:13-14-15-16-17-18", 18, "10", "60.00", "000 L143 / 004 L261-L264 seisena 5:1"),
    ("column:1", 34, "10", "30.00", "000 L145 / 004 L266-L269 columna 2:1"),
    ("column:2", 17, "10", "30.00", "000 L145 columna 2:1"),
    ("column:3", 36, "10", "30.00", "000 L145 columna 2:1"),
    ("dozen:1", 12, "10", "30.00", "000 L147 / 004 L271-L275 docena 2:1"),
    ("dozen:2", 13, "10", "30.00", "000 L147 docena 2:1"),
    ("dozen:3", 25, "10", "30.00", "000 L147 docena 2:1"),
    ("columns:1-2", 17, "10", "15.00", "000 L149 / 004 L277-L280 dos columnas 1:2"),
    ("columns:2-3", 3, "10", "15.00", "000 L149 dos columnas 1:2"),
    ("dozens:1-2", 24, "10", "15.00", "000 L151 / 004 L282-L285 dos docenas 1:2"),
    ("dozens:2-3", 36, "10", "15.00", "000 L151 dos docenas 1:2"),
    ("dozens:1-2", 1, "5.01", "7.51", "000 L151 dos docenas 1:2, 2.505 winnings rounded down"),
    ("red", 19, "10", "20.00", "000 L121-L123 / 004 L295-L296 rojo 1:1 (19 is red, 000 L93)"),
    ("black", 10, "10", "20.00", "000 L121-L123 negro 1:1 (10 is black, 000 L93)"),
    ("black", 29, "10", "20.00", "000 L121-L123 negro 1:1 (29 is black, 000 L93)"),
    ("even", 36, "10", "20.00", "000 L121-L123 / 004 L292-L293 par 1:1"),
    ("odd", 1, "10", "20.00", "000 L121-L123 impar 1:1"),
    ("manque", 18, "10", "20.00", "000 L121 / 004 L298-L299 falta 1-18 1:1"),
    ("passe", 19, "10", "20.00", "000 L121 / 004 L301-L302 pasa 19-36 1:1"),
]


@BOTH
@pytest.mark.parametrize("spot,number,stake,returned,cite", PAYOUT_CASES)
def test_winning_payouts_stake_kept(ruleset, spot, number, stake, returned, cite):
    """Win pays the stated ratio and the stake is kept: 000 L123, L153; 004 L217-L219, L287-L290."""
    s = RouletteScript(ruleset)
    v = s.spin([("B1", spot, stake)], number=number)
    assert settled(v)["B1"] == ("win", D(returned)), cite
    assert v.checks[0].expected.citation  # every settlement cites its rule
    assert kinds(v) == []


LOSING_CASES = [
    ("straight:17", 18), ("split:17-20", 0), ("street:0-1-2", 3), ("corner:0-1-2-3", 4),
    ("sixline:31-32-33-34-35-36", 30), ("column:1", 0), ("column:1", 2), ("dozen:3", 0),
    ("columns:1-2", 3), ("dozens:2-3", 12), ("red", 17), ("black", 19), ("even", 1),
    ("odd", 2), ("manque", 19), ("passe", 18),
]


@BOTH
@pytest.mark.parametrize("spot,number", LOSING_CASES)
def test_losing_bets_return_nothing_000_L153_004_L217(ruleset, spot, number):
    """A bet whose numbers do not come up is lost (zero loses every multiple chance not on it)."""
    v = RouletteScript(ruleset).spin([("B1", spot, "10")], number=number)
    assert settled(v)["B1"] == ("lose", D("0.00"))


def test_colour_rule_of_000_L93_gives_the_standard_wheel():
    """000 L93 / 004 L143-L150: digit sum even -> black, plus 10 and 29; 19 red."""
    assert sorted(roulette.RED) == [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]
    assert len(roulette.BLACK) == 18 and 0 not in roulette.BLACK


# --------------------------------------------------------------------------- spots


VALID_SPOTS = ["straight:0", "straight:36", "split:0-1", "split:0-3", "split:1-2", "split:33-36",
               "street:34-35-36", "street:0-1-2", "street:0-2-3", "corner:1-2-4-5",
               "corner:32-33-35-36", "corner:0-1-2-3", "sixline:1-2-3-4-5-6",
               "sixline:31-32-33-34-35-36", "column:1", "column:3", "dozen:3", "columns:1-2",
               "columns:2-3", "dozens:1-2", "dozens:2-3", "red", "black", "even", "odd", "manque",
               "passe"]

# Well-formed spot codes (the event schema's grammar, pitwatch.schemas.codes) that are not on
# the layout: the engine's invalid_bet. Codes outside the grammar ("Red", "straight:07",
# "trio:0-1-2"...) never reach the engine: the schema rejects them (tests/test_schemas.py).
INVALID_SPOTS = ["straight:37", "straight:100", "split:1-5", "split:3-4", "split:20-17",
                 "split:0-4", "split:17-17", "split:36-37", "street:2-3-4", "street:0-1-3",
                 "street:0-3-4", "street:34-35-37", "corner:3-4-6-7", "corner:1-2-3-4",
                 "corner:0-1-2-4", "sixline:1-2-3-5-6-7", "sixline:4-5-6-1-2-3", "sixline:0-1-2-3-4-5",
                 "column:4", "column:0", "column:10", "dozen:4", "columns:1-3", "dozens:1-3",
                 "columns:2-1", "columns:3-4", "dozens:0-1", "main", "punto", "tie"]


@pytest.mark.parametrize("spot", VALID_SPOTS)
def test_valid_spots_accepted_000_L117(spot):
    """000 L117-L151 / 004 L211-L302: the combinations of the layout are accepted."""
    v = RouletteScript(options={"max_tier": "3"}).spin([("B1", spot, "5")], number=0)
    assert VK.INVALID_BET not in kinds(v)


@pytest.mark.parametrize("spot", INVALID_SPOTS)
def test_invalid_spots_rejected_000_L117(spot):
    """000 L117 «sólo pueden hacer uso de las combinaciones siguientes»: anything else (not
    adjacent on the layout, not canonical) is invalid_bet, flagged once: not a wager, its
    chips are handed back (outcome refused, 5.00 returned)."""
    v = RouletteScript().spin([("B1", spot, "5")], number=17)
    assert kinds(v) == [VK.INVALID_BET]
    assert settled(v)["B1"] == ("refused", D("5.00"))


def test_every_layout_spot_counts():
    """000 L97 three columns of twelve: 37 straights, 60 splits, 14 streets, 23 corners,
    11 six-lines, 3 columns, 3 dozens, 2+2 two-column/dozen bets, 6 simple chances."""
    from collections import Counter
    c = Counter(s.kind for s in roulette.SPOTS.values())
    assert c == {"straight": 37, "split": 60, "street": 14, "corner": 23, "sixline": 11,
                 "column": 3, "dozen": 3, "columns": 2, "dozens": 2, "simple": 6}


# --------------------------------------------------------------------------- limits


TIER_MAX = {  # kind spot -> multiples of the minimum for tiers 1/2/3 (000 L161-L163; 004 L338-L352)
    "straight:17": (10, 20, 30), "split:17-20": (20, 40, 60), "street:13-14-15": (30, 60, 90),
    "street:0-1-2": (30, 60, 90), "corner:17-18-20-21": (40, 80, 120), "corner:0-1-2-3": (40, 80, 120),
    "sixline:13-14-15-16-17-18": (60, 120, 180), "column:2": (120, 240, 360), "dozen:2": (120, 240, 360),
    "columns:1-2": (240, 480, 720), "dozens:2-3": (240, 480, 720), "red": (180, 360, 540),
}


@BOTH
@pytest.mark.parametrize("tier", [1, 2, 3])
@pytest.mark.parametrize("spot", list(TIER_MAX))
def test_maximum_per_kind_and_tier_000_L161_L163_004_L338_L352(ruleset, tier, spot):
    """Maximum = tier multiple x table minimum: at the maximum no violation, one cent above
    bet_above_maximum (cites the limits clause)."""
    mx = D("5.00") * TIER_MAX[spot][tier - 1]
    s = RouletteScript(ruleset, options={"max_tier": str(tier)})
    assert kinds(s.spin([("B1", spot, mx)], number=5)) == []
    v = s.spin([("B2", spot, mx + D("0.01"))], number=5)
    assert kinds(v) == [VK.BET_ABOVE_MAXIMUM]
    viol = v.violations[0]
    assert viol.amount == D("0.01") and viol.bet_id == "B2"
    assert ("L161" in viol.citation or "L163" in viol.citation or "L338" in viol.citation
            or "L346" in viol.citation)


@BOTH
def test_minimum_is_the_table_minimum_000_L159_004_L328(ruleset):
    """000 L159 / 004 L328-L332: every bet at least the table minimum."""
    s = RouletteScript(ruleset)
    assert kinds(s.spin([("B1", "straight:5", "5.00")])) == []
    v = s.spin([("B2", "straight:5", "4.99"), ("B3", "dozen:1", "1.00")])
    assert kinds(v) == [VK.BET_BELOW_MINIMUM, VK.BET_BELOW_MINIMUM]


@BOTH
def test_simple_chance_minimum_up_to_five_times_000_L159_004_L340(ruleset):
    """000 L159 / 004 L340-L344: the simple-chance minimum may be raised to 5x the minimum;
    other bets keep the table minimum; the maxima still multiply the table minimum."""
    s = RouletteScript(ruleset, options={"simple_chance_min_multiple": "3"})
    v = s.spin([("B1", "red", "10.00"), ("B2", "straight:3", "5.00"), ("B3", "even", "15.00"),
                ("B4", "odd", "900.00")])
    assert kinds(v) == [VK.BET_BELOW_MINIMUM]
    assert v.violations[0].bet_id == "B1"


@BOTH
def test_simple_chance_multiple_above_five_is_a_procedure_violation_000_L159(ruleset):
    """«hasta cinco veces» (000 L159 / 004 L340-L344): 6 is out of the law's range."""
    s = RouletteScript(ruleset, options={"simple_chance_min_multiple": "6"})
    assert [x.kind for x in s.table_violations] == [VK.PROCEDURE]


def test_andalucia_authorisation_maximum_004_L328_L336():
    """004 L328-L336: with max_rule=authorisation every kind's maximum is the table max_bet."""
    s = RouletteScript(AND, max_bet="900.00", options={"max_rule": "authorisation"})
    assert kinds(s.spin([("B1", "straight:17", "900.00"), ("B2", "red", "900.00")])) == []
    v = s.spin([("B3", "split:17-20", "900.01")])
    assert kinds(v) == [VK.BET_ABOVE_MAXIMUM] and "L328" in v.violations[0].citation


def test_galicia_has_no_authorisation_maximum_rule():
    """Galicia fixes the maxima by formula (000 L161-L163, L175): max_rule=authorisation is
    rejected when the table opens."""
    s = RouletteScript(GAL, options={"max_rule": "authorisation"})
    assert [x.kind for x in s.table_violations] == [VK.PROCEDURE]


def test_limits_changed_during_session_galicia_000_L169():
    """000 L169: once a table runs, the casino may not change its limit."""
    s = RouletteScript(GAL)
    s.spin([("B1", "red", "10")])
    out = s.table("limits_changed", min_bet="10.00", max_bet="1800.00")
    assert [x.kind for x in out] == [VK.PROCEDURE] and "L169" in out[0].citation


def test_limits_changed_during_session_andalucia_allowed_004_L362():
    """004 L362-L367: Andalucía allows a change of minimum during the session."""
    s = RouletteScript(AND)
    assert s.table("limits_changed", min_bet="10.00", max_bet="1800.00") == []
    v = s.spin([("B1", "straight:3", "5.00")])
    assert kinds(v) == [VK.BET_BELOW_MINIMUM]   # the new minimum applies


# --------------------------------------------------------------------------- zero rule


@BOTH
def test_zero_half_back_000_L125_004_L304(ruleset):
    """Zero, player takes half back: half the stake returned, the bank keeps the rest."""
    v = RouletteScript(ruleset).spin([("B1", "red", "10"), ("B2", "passe", "5.01")], number=0,
                                     decisions=[("B1", "half_back"), ("B2", "half_back")])
    assert settled(v) == {"B1": ("half_back", D("5.00")), "B2": ("half_back", D("2.50"))}
    assert kinds(v) == []


@BOTH
def test_zero_en_prison_then_released_000_L125_004_L308(ruleset):
    """En prison: nothing returned on the zero; next spin the winning chance is released
    (stake back, no winnings)."""
    s = RouletteScript(ruleset)
    v = s.spin([("B1", "red", "10")], number=0, decisions=[("B1", "en_prison")])
    assert settled(v) == {"B1": ("en_prison", D("0.00"))}
    v2 = s.spin([("B2", "straight:19", "5")], number=19)
    assert settled(v2) == {"B2": ("win", D("180.00")), "B1": ("released", D("10.00"))}
    assert kinds(v2) == []
    v3 = s.spin([("B3", "red", "5")], number=1)   # B1 is no longer in prison
    assert set(settled(v3)) == {"B3"}


@BOTH
def test_zero_en_prison_then_lost_000_L125_004_L312(ruleset):
    """An imprisoned bet whose chance loses the next spin is lost for good."""
    s = RouletteScript(ruleset)
    s.spin([("B1", "even", "10")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=17)
    assert settled(v) == {"B1": ("lose", D("0.00"))}


@BOTH
def test_zero_without_decision_applies_table_default(ruleset):
    """No decision recorded: option zero_default (ruleset default en_prison; see ambiguities)."""
    s = RouletteScript(ruleset)
    assert settled(s.spin([("B1", "odd", "10")], number=0)) == {"B1": ("en_prison", D("0.00"))}
    s2 = RouletteScript(ruleset, options={"zero_default": "half_back"})
    assert settled(s2.spin([("B1", "odd", "10")], number=0)) == {"B1": ("half_back", D("5.00"))}


@BOTH
def test_second_zero_halves_000_L127_004_L312_L316(ruleset):
    """Second consecutive zero: half back returns a quarter of the initial stake; kept in
    prison, the bet holds half the initial stake and that half is what a release returns."""
    s = RouletteScript(ruleset)
    s.spin([("B1", "red", "40")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=0, decisions=[("B1", "half_back")])
    assert settled(v) == {"B1": ("half_back", D("10.00"))}
    assert kinds(v) == []

    s = RouletteScript(ruleset)
    s.spin([("B1", "red", "40")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=0, decisions=[("B1", "en_prison")])
    assert settled(v) == {"B1": ("en_prison", D("0.00"))}
    assert v.checks[0].expected.stake == D("40.00")
    v = s.spin([], number=1)
    assert settled(v) == {"B1": ("released", D("20.00"))}
    assert v.checks[0].expected.stake == D("20.00")


@BOTH
def test_third_zero_eighth_000_L127_L129(ruleset):
    """Third consecutive zero: half back = an eighth of the initial stake (½, ¼, ⅛)."""
    s = RouletteScript(ruleset)
    s.spin([("B1", "black", "80")], number=0, decisions=[("B1", "en_prison")])
    s.spin([], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=0, decisions=[("B1", "half_back")])
    assert settled(v) == {"B1": ("half_back", D("10.00"))}


def test_floor_galicia_value_below_minimum_stays_in_prison_000_L127():
    """000 L127: at the 2nd zero a 10 EUR bet is worth 2.50 < 5 minimum: it must stay in
    prison; a recorded half_back is an illegal_decision and the expected settlement is en prison."""
    s = RouletteScript(GAL)
    s.spin([("B1", "red", "10")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=0, decisions=[("B1", "half_back")])
    assert kinds(v) == [VK.ILLEGAL_DECISION] and "L127" in v.violations[0].citation
    assert settled(v) == {"B1": ("en_prison", D("0.00"))}
    assert settled(s.spin([], number=3)) == {"B1": ("released", D("5.00"))}
    # 20 EUR: value 5.00 is not below the minimum, half back allowed
    s = RouletteScript(GAL)
    s.spin([("B1", "red", "20")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=0, decisions=[("B1", "half_back")])
    assert kinds(v) == [] and settled(v) == {"B1": ("half_back", D("5.00"))}


def test_floor_andalucia_kept_amount_below_minimum_004_L316_L319():
    """004 L316-L319 compares the kept amount: a 10 EUR bet keeps 5.00 at the 2nd zero, not
    below the 5 minimum, so half back (2.50) is allowed; an 8 EUR bet keeps 4.00 and must stay."""
    s = RouletteScript(AND)
    s.spin([("B1", "red", "10")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=0, decisions=[("B1", "half_back")])
    assert kinds(v) == [] and settled(v) == {"B1": ("half_back", D("2.50"))}
    s = RouletteScript(AND)
    s.spin([("B1", "red", "8")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=0, decisions=[("B1", "half_back")])
    assert kinds(v) == [VK.ILLEGAL_DECISION] and "L316" in v.violations[0].citation
    assert settled(v) == {"B1": ("en_prison", D("0.00"))}


@BOTH
def test_floor_with_default_half_back_keeps_bet_in_prison(ruleset):
    """Default half_back below the floor: the bet stays in prison without any violation."""
    s = RouletteScript(ruleset, options={"zero_default": "half_back"})
    s.spin([("B1", "red", "8")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=0)
    assert kinds(v) == [] and settled(v) == {"B1": ("en_prison", D("0.00"))}


@BOTH
def test_last_spin_forced_refund_000_L129_004_L320(ruleset):
    """Zero on the last spin of the session: compulsory refund of ½ (fresh bet) or ¼ (bet
    already imprisoned once) of the initial stake; en prison on it is an illegal decision."""
    s = RouletteScript(ruleset)
    s.spin([("B1", "red", "20")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([("B2", "manque", "10"), ("B3", "even", "10")], number=0, last=True,
               decisions=[("B3", "en_prison")])
    assert settled(v) == {"B1": ("half_back", D("5.00")), "B2": ("half_back", D("5.00")),
                          "B3": ("half_back", D("5.00"))}
    assert kinds(v) == [VK.ILLEGAL_DECISION]
    assert "L129" in v.violations[0].citation or "L320" in v.violations[0].citation
    assert len(s.engine.ctx.book) == 0


@BOTH
def test_last_spin_without_zero_releases_normally(ruleset):
    """A prisoner on a last spin without zero is released or lost as usual (000 L125)."""
    s = RouletteScript(ruleset)
    s.spin([("B1", "red", "20"), ("B2", "black", "20")], number=0,
           decisions=[("B1", "en_prison"), ("B2", "en_prison")])
    v = s.spin([], number=1, last=True)
    assert settled(v) == {"B1": ("released", D("20.00")), "B2": ("lose", D("0.00"))}
    assert s.table("table_closed") == []


@BOTH
def test_table_closed_with_prisoners_is_a_procedure_violation(ruleset):
    """Bets left in prison when the session ends were never settled (000 L129 / 004 L320)."""
    s = RouletteScript(ruleset)
    s.spin([("B1", "red", "20")], number=0, decisions=[("B1", "en_prison")])
    out = s.table("table_closed")
    assert [x.kind for x in out] == [VK.PROCEDURE] and out[0].amount == D("20.00")
    assert len(s.engine.ctx.book) == 0 and "prisoners" not in s.engine.ctx.carry.to_dict()


@BOTH
def test_zero_only_special_for_simple_chances(ruleset):
    """000 L125 / 004 L304: the zero rule is for simple chances; other bets on 0 are won or lost."""
    v = RouletteScript(ruleset).spin([("B1", "dozen:1", "10"), ("B2", "straight:0", "5"),
                                      ("B3", "columns:1-2", "10")], number=0,
                                     decisions=[("B1", "half_back")])
    assert settled(v) == {"B1": ("lose", D("0.00")), "B2": ("win", D("180.00")), "B3": ("lose", D("0.00"))}
    assert kinds(v) == [VK.ILLEGAL_DECISION]


@BOTH
@pytest.mark.parametrize("number,decision,bet", [
    (17, "half_back", "B1"),        # no zero
    (0, "hit", "B1"),               # not a roulette decision
    (0, "en_prison", "B9"),         # unknown bet
    (0, "en_prison", "B2"),         # straight-up is not a simple chance
])
def test_illegal_decisions(ruleset, number, decision, bet):
    """Decisions exist only for simple chances hit by a zero (000 L125 / 004 L304-L308)."""
    v = RouletteScript(ruleset).spin([("B1", "red", "10"), ("B2", "straight:4", "5")], number=number,
                                     decisions=[(bet, decision)])
    assert kinds(v) == [VK.ILLEGAL_DECISION]


@BOTH
def test_decision_before_the_ball_is_illegal_and_ignored(ruleset):
    """A zero decision recorded before the result is illegal and does not count."""
    s = RouletteScript(ruleset, options={"zero_default": "en_prison"})
    s.rounds += 1
    rid = f"R{s.rounds:04d}"
    ap = s.engine.apply
    ap(s._event("round_started", rid))
    ap(s._event("bet_placed", rid, ("player", "P"), bet_id="B1", player_id="P", spot="red", stake="10"))
    ap(s._event("wheel_spun", rid, direction="clockwise"))
    ap(s._event("bets_closed", rid))
    ap(s._event("player_decision", rid, ("player", "P"), decision="half_back", bet_id="B1"))
    ap(s._event("ball_landed", rid, number=0))
    v = ap(s._event("round_ended", rid))[0]
    assert kinds(v) == [VK.ILLEGAL_DECISION]
    assert settled(v) == {"B1": ("en_prison", D("0.00"))}


@BOTH
def test_recorded_payout_compared(ruleset):
    """The engine compares what the dealer recorded with the expected settlement: giving the
    whole stake back on a zero, or paying winnings on a released bet, is a discrepancy."""
    s = RouletteScript(ruleset)
    v = s.spin([("B1", "red", "10"), ("B2", "black", "10")], number=0,
               decisions=[("B1", "half_back"), ("B2", "en_prison")],
               records={"B1": ("half_back", "10.00"), "B2": ("en_prison", "0.00")})
    disc = [x for x in v.violations if x.kind == VK.PAYOUT_DISCREPANCY]
    assert [(x.bet_id, x.amount) for x in disc] == [("B1", D("5.00"))]
    v = s.spin([], number=2, records={"B2": ("win", "20.00")})
    disc = [x for x in v.violations if x.kind == VK.PAYOUT_DISCREPANCY]
    assert [(x.bet_id, x.amount) for x in disc] == [("B2", D("10.00"))]
    assert "L125" in disc[0].citation or "L308" in disc[0].citation


@BOTH
def test_clean_round_with_recorded_settlements_has_no_violation(ruleset):
    """Everything right: no violation at all."""
    v = RouletteScript(ruleset).spin(
        [("B1", "straight:17", "10"), ("B2", "red", "10"), ("B3", "split:17-20", "5")], number=17,
        records={"B1": ("win", "360.00"), "B2": ("lose", "0.00"), "B3": ("win", "90.00")})
    assert clean_kinds(v) == []
    assert v.outcome == "17 black"


# --------------------------------------------------------------------------- void spins


@BOTH
def test_void_spin_returns_stakes_prisoners_stay_000_L189_004_L429(ruleset):
    """«Tirada nula»: the spin's stakes come back; the bet in prison waits for the next spin."""
    s = RouletteScript(ruleset)
    s.spin([("B1", "red", "10")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([("B2", "straight:3", "5"), ("B3", "black", "10")], voided="ball jumped out")
    assert settled(v) == {"B2": ("void", D("5.00")), "B3": ("void", D("10.00"))}
    assert "L189" in v.checks[0].expected.citation or "L429" in v.checks[0].expected.citation
    assert clean_kinds(v) == [VK.PAYOUT_DISCREPANCY, VK.PAYOUT_DISCREPANCY]  # nothing recorded
    v = s.spin([], number=3)
    assert settled(v) == {"B1": ("released", D("10.00"))}


# --------------------------------------------------------------------------- procedure


@BOTH
def test_spin_direction_must_alternate_000_L183_004_L386(ruleset):
    """The wheel is spun opposite to the previous spin every time; the first spin of the table
    has nothing to compare with; voided spins count."""
    s = RouletteScript(ruleset)
    assert kinds(s.spin([], direction="clockwise")) == []
    assert kinds(s.spin([], direction="counterclockwise")) == []
    v = s.spin([], direction="counterclockwise")
    assert kinds(v) == [VK.SPIN_DIRECTION] and ("L183" in v.violations[0].citation
                                                or "L386" in v.violations[0].citation)
    s.spin([], direction="clockwise", voided="object in the wheel")
    assert kinds(s.spin([], direction="clockwise")) == [VK.SPIN_DIRECTION]
    assert kinds(s.spin([], direction="counterclockwise")) == []


@BOTH
def test_spin_direction_resets_with_a_new_session(ruleset):
    """After table_closed the next session's first spin is not compared."""
    s = RouletteScript(ruleset)
    s.spin([], direction="clockwise")
    s.table("table_closed")
    s.table("table_opened", ruleset_id=ruleset, jurisdiction="x", min_bet="5.00", max_bet="900.00",
            float_amount="100.00")
    assert kinds(s.spin([], direction="clockwise")) == []


@BOTH
def test_bet_after_ball_without_no_more_bets_is_past_posting_000_L185(ruleset):
    """A bet placed after the ball landed is past-posting even if «No va más» is missing;
    the missing announcement is a procedure violation. The late bet is no wager: it is
    refused (5.00 handed back), never paid 35 to 1."""
    s = RouletteScript(ruleset)
    v = s.spin([("B0", "red", "5")], number=17, close=False, extra=[
        ("bet_placed", {"bet_id": "B1", "player_id": "P", "spot": "straight:17", "stake": "5"})])
    assert kinds(v) == [VK.PAST_POSTING, VK.PROCEDURE]
    assert settled(v)["B1"] == ("refused", D("5.00"))


@BOTH
def test_late_bet_after_no_more_bets_000_L185(ruleset):
    """Engine rule: a bet after bets_closed is past-posting (cites the roulette clause)."""
    v = RouletteScript(ruleset).spin([("B1", "red", "10")], late_bets=[("B2", "straight:17", "5")])
    assert kinds(v) == [VK.PAST_POSTING]
    assert "L185" in v.violations[0].citation or "L392" in v.violations[0].citation


@BOTH
def test_round_without_result_or_spin(ruleset):
    """A spin with bets but no ball is a procedure violation (stakes expected back); a ball
    without a recorded wheel spin also (direction unauditable); two balls too."""
    s = RouletteScript(ruleset)
    v = s.spin([("B1", "red", "10")], number=None)
    assert kinds(v) == [VK.PROCEDURE] and settled(v) == {"B1": ("void", D("10.00"))}
    assert kinds(s.spin([("B2", "red", "10")], direction=None)) == [VK.PROCEDURE]
    v = s.spin([("B3", "red", "10")], number=1, extra=[("ball_landed", {"number": 2})])
    assert kinds(v) == [VK.PROCEDURE] and settled(v) == {"B3": ("lose", D("0.00"))}


def test_invalid_table_options_reported():
    """max_tier outside 1-3 (000 L161-L163) and an unknown zero_default are procedure violations."""
    s = RouletteScript(options={"max_tier": "4", "zero_default": "keep"})
    assert [x.kind for x in s.table_violations] == [VK.PROCEDURE, VK.PROCEDURE]


def test_engine_state_survives_its_snapshot():
    """The book (bets in prison) and ctx.carry (last direction) go through the engine's JSON snapshot, as the
    stream processor needs."""
    import json

    from pitwatch.schemas.events import EVENT_ADAPTER

    s = RouletteScript()
    s.spin([("B1", "red", "10")], number=0, decisions=[("B1", "en_prison")])
    snap = json.loads(json.dumps(s.engine.snapshot()))
    s.engine = type(s.engine).from_snapshot(s.table_id, snap, EVENT_ADAPTER.validate_python)
    assert settled(s.spin([], number=1)) == {"B1": ("released", D("10.00"))}


@BOTH
def test_half_back_on_the_last_spin_is_never_illegal_000_L129_004_L320(ruleset):
    """On the last spin the refund is compulsory, so a recorded half_back is what must happen
    even for a bet below the floor: no illegal_decision; refund initial/4 at the 2nd zero."""
    s = RouletteScript(ruleset)
    s.spin([("B1", "red", "8")], number=0, decisions=[("B1", "en_prison")])
    v = s.spin([], number=0, last=True, decisions=[("B1", "half_back")])
    assert kinds(v) == [] and settled(v) == {"B1": ("half_back", D("2.00"))}


LATE_RECORDS = [
    # what the dealer recorded for the late straight-up bet B2 (5.00 on 17, and 17 came up):
    # nothing, the chips handed back, the 35:1 win paid, the chips kept
    (None, []),
    (("refused", "5.00"), []),
    (("win", "180.00"), [D("175.00")]),   # 180.00 paid where 5.00 was due: over-paid by 175.00
    (("lose", "0.00"), [D("-5.00")]),     # the player's 5.00 kept: under-paid by 5.00
]


@BOTH
@pytest.mark.parametrize("record, discrepancies", LATE_RECORDS)
def test_a_late_bet_is_no_wager_000_L185_004_L392(ruleset, record, discrepancies):
    """A bet after «No va más» (000 L185; 004 L392) is not a wager: it is flagged once
    (past_posting) and its chips are due back. A dealer who refuses it (records nothing) or
    hands the 5.00 back raises nothing more; paying it as a winning straight-up (35 to 1,
    180.00 returned) is an over-payment of 175.00; keeping the chips an under-payment of 5.00.
    B1, red 10.00, loses on 17 (black) and is recorded as lost."""
    records = {"B1": ("lose", "0.00")}
    if record is not None:
        records["B2"] = record
    v = RouletteScript(ruleset).spin([("B1", "red", "10")], number=17, records=records,
                                     late_bets=[("B2", "straight:17", "5")])
    assert [x.kind for x in v.violations if x.kind != VK.PAYOUT_DISCREPANCY] == [VK.PAST_POSTING]
    assert [x.amount for x in v.violations if x.kind == VK.PAYOUT_DISCREPANCY] == discrepancies
    assert settled(v) == {"B1": ("lose", D("0.00")), "B2": ("refused", D("5.00"))}


def test_a_bet_off_the_layout_is_flagged_once_not_twice_000_L117():
    """An off-layout bet above the maximum (split:1-5 for 1000.00 at a 900.00 table) is one
    invalid_bet, not also a limit breach: it is no wager, so no limit applies to it."""
    v = RouletteScript().spin([("B1", "split:1-5", "1000")], number=17)
    assert [x.kind for x in v.violations] == [VK.INVALID_BET]
    assert settled(v)["B1"] == ("refused", D("1000.00"))


def test_a_refused_bet_withdrawn_raises_nothing_000_L185():
    """Taking back the chips of a late bet is what should happen: no second past-posting."""
    s = RouletteScript()
    v = s.spin([("B1", "red", "10")], number=17, late_bets=[("B2", "straight:17", "5")],
               extra=[("bet_withdrawn", {"bet_id": "B2"})])
    assert kinds(v) == [VK.PAST_POSTING]
    assert "B2" not in settled(v)


@BOTH
def test_a_winning_bet_above_its_maximum_is_paid_whole_and_flagged(ruleset):
    """The maxima per kind (000 L157-L163; 004 L338-L352) say nothing of a bet accepted above
    one; the rulesets' ambiguity «Winning bet above the maximum for its kind» records the
    choice: settled whole at the regulated ratio, flagged bet_above_maximum. 900.00 straight
    up on 17 (far above any straight-up maximum at a 5.00 table) wins 35 to 1: 32,400.00 back."""
    from pitwatch.rules.base import load_ruleset

    points = [a["point"] for a in load_ruleset(ruleset).data["ambiguities"]]
    assert "Winning bet above the maximum for its kind" in points
    v = RouletteScript(ruleset).spin([("B1", "straight:17", "900")], number=17)
    assert kinds(v) == [VK.BET_ABOVE_MAXIMUM]
    assert settled(v) == {"B1": ("win", D("32400.00"))}
