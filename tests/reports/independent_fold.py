"""An independent fold of raw table-game events into per-table monthly figures (test oracle).

Deliberately shares no code with ``pitwatch`` (standard library only, written from the
definitions below and the event schemas), so that the monthly regulator report, computed
elsewhere from the warehouse, can be checked against a second, simple reading of the events.

Input: JSON event lines. A line that is not JSON (or not a JSON object) is skipped; the copies
of an ``event_id`` after its first delivery are ignored. Lines are folded in file order; the
events are taken to be valid against the event schema (a malformed one raises).

* **Gaming day**: the Europe/Madrid date of ``occurred_at``, the day before when the local time
  is before 06:00. A figure belongs to the month of its gaming day.
* **drop / cashed / fills / credits / tips**: the ``amount`` of ``chips_bought`` /
  ``chips_cashed`` / ``table_fill`` / ``table_credit`` / ``tip_received``, on the gaming day of
  that event. **days_open**: distinct gaming days on which the table opened (``table_opened``) or
  played (a ``round_ended`` with at least one wager, voided or not): a table opened once and
  playing through 06:00 Madrid is open on both gaming days.
* Every other figure is taken when a round ends (``round_ended``), on its gaming day, over the
  *wagers* of the round: each ``bet_placed`` not withdrawn, each blackjack insurance (wager
  ``<bet_id>/insurance``, stake = its ``amount``) and each roulette bet in prison carried in.
  A wager's settlement is the last ``settlement_recorded`` of its bet id in the round
  (none recorded: nothing returned).
* **at stake** in the round: the stake, plus the stake again for every ``double``/``split``
  on a hand of its blackjack box; for a prisoner, what it holds: its original stake S halved
  (rounded down to the cent) once per zero after the first, i.e. S/2^(k-1) after k zeros.
* **stays**: a French-roulette simple chance (new or prisoner) in a spin whose ball landed on 0
  stays on the layout, in prison, unless its settlement in the round says otherwise (any
  outcome but ``en_prison``: half back, forced refund).
* **bets**: one per wager per round (so a prisoner gives one per spin it lives through).
* **handle**: the original stake of each wager that does not stay (resolved), once.
* **win**: at stake - (returned - commission) - what stays (its new held amount).
  **commission**: the sum of the commissions of those settlements.
* **Voided round** (``round_voided``): its wagers count in ``bets`` with no handle, and a wager
  with no settlement is taken as returned at its stake (so win 0); prisoners are left untouched.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import date, datetime, time, timedelta
from decimal import ROUND_DOWN, Decimal
from typing import Any, Iterable
from zoneinfo import ZoneInfo

MADRID = ZoneInfo("Europe/Madrid")
CENT = Decimal("0.01")
ZERO = Decimal("0.00")
SIMPLE_CHANCES = frozenset({"red", "black", "even", "odd", "manque", "passe"})
MOVEMENTS = {"chips_bought": "drop", "chips_cashed": "cashed", "table_fill": "fills",
             "table_credit": "credits", "tip_received": "tips"}
MONEY_KEYS = ("drop", "cashed", "fills", "credits", "tips", "handle", "win", "commission")


def gaming_day(occurred_at: str) -> date:
    """The gaming day of a UTC ISO time (``...Z``): Madrid date, minus one before 06:00 local."""
    local = datetime.fromisoformat(occurred_at.replace("Z", "+00:00")).astimezone(MADRID)
    return local.date() - timedelta(days=1) if local.time() < time(6) else local.date()


def month_of(day: date | str) -> str:
    """``"YYYY-MM"`` of a gaming day (a ``date`` or ``"YYYY-MM-DD"``)."""
    return (day.isoformat() if isinstance(day, date) else str(day))[:7]


def _money(v: Any) -> Decimal:
    return Decimal(str(v)) if v is not None else ZERO


def _new_round() -> dict[str, Any]:
    return {"bets": {}, "extra": defaultdict(int), "insured": {}, "settled": {}, "zero": False, "voided": False}


def fold_month(lines: Iterable[bytes | str], casino_id: str, month: str) -> dict[str, dict[str, Any]]:
    """Figures of each table of ``casino_id`` with an event in ``month`` (``"YYYY-MM"``)."""
    seen: set[str] = set()
    out: dict[str, dict[str, Any]] = {}
    days_open: dict[str, set[date]] = defaultdict(set)
    rounds: dict[tuple[str, str], dict[str, Any]] = defaultdict(_new_round)
    prisoners: dict[str, dict[str, list[Any]]] = defaultdict(dict)  # table -> bet -> [S, zeros]

    for line in lines:
        try:
            ev = json.loads(line, parse_float=Decimal)
        except ValueError:
            continue
        if not isinstance(ev, dict) or ev.get("event_id") in seen:
            continue
        seen.add(ev.get("event_id"))
        if ev.get("casino_id") != casino_id:
            continue
        table, t, day = ev["table_id"], ev["type"], gaming_day(ev["occurred_at"])
        fig = None
        if month_of(day) == month:
            fig = out.setdefault(table, {"game": ev["game"], "days_open": 0, "bets": 0, **dict.fromkeys(MONEY_KEYS, ZERO)})
        if t == "table_opened":
            days_open[table].add(day)
        if t in MOVEMENTS and fig is not None:
            fig[MOVEMENTS[t]] += _money(ev["amount"])
        if t in MOVEMENTS or ev.get("round_id") is None:
            continue
        rnd = rounds[(table, ev["round_id"])]
        if t == "bet_placed":
            rnd["bets"][ev["bet_id"]] = (_money(ev["stake"]), ev["spot"], ev.get("box"))
        elif t == "bet_withdrawn":
            rnd["bets"].pop(ev["bet_id"], None)
        elif t == "player_decision" and ev.get("decision") in ("double", "split") and ev.get("hand"):
            rnd["extra"][int(str(ev["hand"]).split("-")[0])] += 1  # one more stake per bet of the box
        elif t == "player_decision" and ev.get("decision") == "insurance" and ev.get("bet_id"):
            rnd["insured"][f"{ev['bet_id']}/insurance"] = _money(ev.get("amount"))
        elif t == "settlement_recorded":
            rnd["settled"][ev["bet_id"]] = (ev.get("outcome"), _money(ev["returned"]), _money(ev.get("commission")))
        elif t == "ball_landed":
            rnd["zero"] = ev["number"] == 0
        elif t == "round_voided":
            rnd["voided"] = True
        elif t == "round_ended":
            del rounds[(table, ev["round_id"])]
            if _settle(rnd, prisoners[table], ev["game"] == "french_roulette", fig):
                days_open[table].add(day)

    for table, fig in out.items():
        fig["days_open"] = sum(1 for d in days_open[table] if month_of(d) == month)
        for k in MONEY_KEYS:
            fig[k] = fig[k].quantize(CENT)
    return out


def _held(initial: Decimal, zeros: int) -> Decimal:
    return (initial / 2 ** (zeros - 1)).quantize(CENT, rounding=ROUND_DOWN)


def _settle(rnd: dict[str, Any], jail: dict[str, list[Any]], roulette: bool, fig: dict[str, Any] | None) -> int:
    """Fold one ended round into ``fig`` (``None``: another month) and the table's prisoners;
    returns the round's wagers."""
    # wager id -> (original stake, euros at stake this round, may go/stay in prison, zeros so far)
    wagers = {bid: (s, s * (1 + rnd["extra"][box]) if box is not None else s, spot in SIMPLE_CHANCES, 0)
              for bid, (s, spot, box) in rnd["bets"].items()}
    wagers.update({bid: (a, a, False, 0) for bid, a in rnd["insured"].items()})
    if not rnd["voided"]:
        wagers.update({bid: (s, _held(s, k), True, k) for bid, (s, k) in jail.items()})
    tot = {"bets": 0, "handle": ZERO, "win": ZERO, "commission": ZERO}
    for bid, (original, at_stake, simple, zeros) in wagers.items():
        outcome, returned, commission = rnd["settled"].get(bid, (None, ZERO, ZERO))
        if rnd["voided"] and bid not in rnd["settled"]:
            returned = at_stake
        stays = roulette and simple and rnd["zero"] and not rnd["voided"] and outcome in (None, "en_prison")
        jail.pop(bid, None)
        kept = _held(original, zeros + 1) if stays else ZERO
        if stays:
            jail[bid] = [original, zeros + 1]
        elif not rnd["voided"]:
            tot["handle"] += original
        tot["bets"] += 1
        tot["win"] += at_stake - (returned - commission) - kept
        tot["commission"] += commission
    if fig is not None:
        for k, v in tot.items():
            fig[k] += v
    return int(tot["bets"])
