"""The data of the monthly regulator report of one casino, read from the warehouse.

:func:`build_monthly` ``(wh, casino_id, "2026-11")`` -> :class:`MonthlyReport`: the month is the
gaming days (Europe/Madrid, from 06:00: :func:`pitwatch.detectors.figures.gaming_day`) dated in
it. Its sections:

- **tables** and **games**: days open, bets, drop, handle, win, hold % (win / drop), theoretical win
  and σ (the square root of the sum of the bets' variances, :func:`pitwatch.rules.edges.bet_variance`),
  the win's deviation in σ and its 95% band (theoretical win ± 1.96 σ), commissions (with the
  cagnotte: both are the house's take, :mod:`pitwatch.rules.accounting`), tips, fills, credits, chips
  cashed, and the float reconciliation differences (the ``float_discrepancy`` alerts' amounts);
- **periods**: the month, the three before it and the year to date, with the gross gaming income
  (the tax base: the win, commissions included) of the year to date;
- **alerts**: by kind and by disposition as they stood at the end of the month's last gaming day
  (the actions taken before it, folded by :mod:`pitwatch.lifecycle.state`), the alerts still open
  then that were more than 7 days old, the median times to acknowledge and to close, and the
  rejected and quarantined messages;
- the **provenance**: ruleset versions (id, content hash, jurisdiction), the stored events the
  figures come from (count, first and last time), and :attr:`MonthlyReport.digest`, the SHA-256 of
  the report's data as canonical JSON (:meth:`MonthlyReport.data`), so a regulator can have it
  re-derived and compared.

Euros are ``Decimal`` (2 places; theoretical win 2 places here), times UTC. Everything is a function
of the warehouse's rows: the same warehouse gives the same report and digest whenever it is built.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from typing import Any, Iterable
from zoneinfo import ZoneInfo

from pitwatch.lifecycle.state import fold
from pitwatch.lifecycle.store import action_of_row
from pitwatch.replay.figures import WinBand
from pitwatch.replay.formatting import time_json
from pitwatch.reports import queries as q

MADRID = ZoneInfo("Europe/Madrid")
DAY_STARTS = time(6, 0)
"""A gaming day runs from 06:00 to 06:00 Europe/Madrid."""
OPEN_TOO_LONG = timedelta(days=7)
"""An alert still open this long after its detection is listed."""
_CENT = Decimal("0.01")
MONEY = ("drop", "handle", "win", "theoretical_win", "commission", "tips", "fills", "credits", "cashed")
"""The euro figures of a :class:`FigureLine` (2 places)."""


def month_days(month: str) -> tuple[date, date]:
    """First and last gaming day of ``month`` (``"YYYY-MM"``). Raises ``ValueError`` otherwise."""
    try:
        if len(month) != 7:
            raise ValueError
        first = datetime.strptime(month, "%Y-%m").date()
    except ValueError:
        raise ValueError(f"month must be YYYY-MM, not {month!r}") from None
    nxt = (first.replace(day=28) + timedelta(days=4)).replace(day=1)
    return first, nxt - timedelta(days=1)


def day_start(day: date) -> datetime:
    """The UTC instant gaming day ``day`` begins (06:00 Madrid time that day)."""
    return datetime.combine(day, DAY_STARTS, MADRID).astimezone(timezone.utc)


def _months_back(first: date, n: int) -> date:
    y, m = divmod(first.year * 12 + first.month - 1 - n, 12)
    return date(y, m + 1, 1)


def _dec(v: Any, places: Decimal = _CENT) -> Decimal:
    return Decimal(str(v)).quantize(places)


def _utc_ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, timezone.utc)


@dataclass
class FigureLine(WinBand):
    """Summed figures of a table, a game or a period: euros (``Decimal``, 2 places), ``bets`` and
    ``days_open`` counts, ``theoretical_variance`` in euros² (4 places); hold and the 95% band from
    :class:`~pitwatch.replay.figures.WinBand`."""

    label: str
    game: str = ""
    days_open: int = 0
    bets: int = 0
    drop: Decimal = Decimal("0.00")
    handle: Decimal = Decimal("0.00")
    win: Decimal = Decimal("0.00")
    theoretical_win: Decimal = Decimal("0.00")
    theoretical_variance: Decimal = Decimal("0.0000")
    commission: Decimal = Decimal("0.00")
    tips: Decimal = Decimal("0.00")
    fills: Decimal = Decimal("0.00")
    credits: Decimal = Decimal("0.00")
    cashed: Decimal = Decimal("0.00")
    float_difference: Decimal = Decimal("0.00")

    def add(self, other: FigureLine) -> None:
        """Add ``other``'s counts and sums to this line."""
        for name in ("days_open", "bets", *MONEY, "theoretical_variance", "float_difference"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def data(self) -> dict[str, Any]:
        """JSON-ready: euros as strings, derived figures included."""
        d = {k: (str(v) if isinstance(v, Decimal) else v) for k, v in asdict(self).items()}
        low, high = self.band
        d.update(hold_percent=_text(self.hold_percent), sd=str(self.theoretical_sd), deviation_sd=_text(self.deviation_sd),
                 band_low=str(low), band_high=str(high), outside_band=self.outside_band)
        return d


def _text(v: Decimal | None) -> str | None:
    return None if v is None else str(v)


def _figures(label: str, game: str, row: Iterable[Any]) -> FigureLine:
    f = FigureLine(label, game)
    for name, v in zip(q.FIGURES, row):
        if name == "bets":
            f.bets = int(v)
        elif name == "theoretical_variance":
            f.theoretical_variance = _dec(v, Decimal("0.0001"))
        else:
            setattr(f, name, _dec(v))
    return f


@dataclass
class AlertsSection:
    """Alerts of the month (by gaming day of detection) and where they stood at its end."""

    total: int = 0
    by_kind: list[dict[str, Any]] = field(default_factory=list)
    by_disposition: list[dict[str, Any]] = field(default_factory=list)
    open_over_7_days: list[dict[str, Any]] = field(default_factory=list)
    acknowledged: int = 0
    closed: int = 0
    median_ack_minutes: Decimal | None = None
    median_close_minutes: Decimal | None = None
    per_day: list[dict[str, Any]] = field(default_factory=list)
    rejected: int = 0
    quarantined: int = 0


@dataclass
class MonthlyReport:
    """The monthly report of ``casino_id`` for ``month`` (``YYYY-MM``): see the module docstring."""

    casino_id: str
    month: str
    first_day: date
    last_day: date
    as_of: datetime
    tables: list[FigureLine]
    games: list[FigureLine]
    periods: list[FigureLine]
    gross_gaming_income_ytd: Decimal
    alerts: AlertsSection
    rulesets: list[dict[str, Any]]
    events: dict[str, Any]
    daily: list[dict[str, Any]]

    def data(self) -> dict[str, Any]:
        """The report's data as JSON-ready values (what :attr:`digest` hashes)."""
        alerts = asdict(self.alerts)
        for k in ("median_ack_minutes", "median_close_minutes"):
            alerts[k] = _text(alerts[k])
        return {
            "casino_id": self.casino_id, "month": self.month, "first_gaming_day": self.first_day.isoformat(),
            "last_gaming_day": self.last_day.isoformat(), "as_of": time_json(self.as_of),
            "tables": [f.data() for f in self.tables], "games": [f.data() for f in self.games],
            "periods": [f.data() for f in self.periods],
            "gross_gaming_income_ytd": str(self.gross_gaming_income_ytd), "alerts": alerts,
            "rulesets": self.rulesets, "events": self.events, "daily": self.daily,
        }

    @property
    def digest(self) -> str:
        """SHA-256 (hex) of :meth:`data` as canonical JSON (sorted keys, no spaces, UTF-8)."""
        text = json.dumps(self.data(), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode()).hexdigest()


def build_monthly(wh: Any, casino_id: str, month: str) -> MonthlyReport:
    """The report of ``casino_id`` for ``month`` (``"YYYY-MM"``) from an open warehouse. Raises
    ``ValueError`` for a malformed month, :class:`~pitwatch.warehouse.WarehouseError` from reads."""
    first, last = month_days(month)
    as_of = day_start(last + timedelta(days=1))
    p = {"casino": casino_id, "first": first, "last": last,
         "since": day_start(first).strftime("%Y-%m-%d %H:%M:%S"), "until": as_of.strftime("%Y-%m-%d %H:%M:%S")}
    days_open = dict(wh.query(q.DAYS_OPEN_SQL, p))
    tables = [_figures(r[0], r[1], r[2:]) for r in wh.query(q.TABLES_SQL, p)]
    for t in tables:
        t.days_open = int(days_open.get(t.label, 0))
    alerts = _alerts(wh, p, first, as_of, tables)
    games: dict[str, FigureLine] = {}
    for t in tables:
        games.setdefault(t.game, FigureLine(t.game, t.game)).add(t)
    periods, ggr = _periods(wh, casino_id, first, last)
    rulesets = [{"ruleset_id": r[0], "ruleset_hash": r[1], "jurisdiction": r[2] or "", "bets": int(r[3])}
                for r in wh.query(q.RULESETS_SQL, p)]
    count, lo, hi = wh.query(q.EVENTS_SQL, p)[0]
    events = {"count": int(count), "first": time_json(_utc_ms(int(lo))) if count else None,
              "last": time_json(_utc_ms(int(hi))) if count else None}
    daily = [{"gaming_day": d.isoformat(), "game": g, "win": str(_dec(w)), "theoretical_win": str(_dec(t))}
             for d, g, w, t in wh.query(q.DAILY_SQL, p)]
    return MonthlyReport(casino_id, month, first, last, as_of, tables, sorted(games.values(), key=lambda f: f.game),
                         periods, ggr, alerts, rulesets, events, daily)


def _periods(wh: Any, casino_id: str, first: date, last: date) -> tuple[list[FigureLine], Decimal]:
    """The month, the three before it and the year to date; the year-to-date win (the tax base)."""
    start = min(date(first.year, 1, 1), _months_back(first, 3))
    rows = {int(r[0]): _figures(str(r[0]), "", r[1:])
            for r in wh.query(q.MONTHS_SQL, {"casino": casino_id, "first": start, "last": last})}
    out = []
    for n in range(4):
        m = _months_back(first, n)
        out.append(rows.get(m.year * 100 + m.month, FigureLine(f"{m:%Y%m}")))
        out[-1].label = f"{m:%Y-%m}"
    ytd = FigureLine(f"{first.year}-01..{first:%m}")
    for key, f in rows.items():
        if key // 100 == first.year and key <= first.year * 100 + first.month:
            ytd.add(f)
    out.append(ytd)
    return out, ytd.win


def _alerts(wh: Any, p: dict[str, Any], first: date, as_of: datetime, tables: list[FigureLine]) -> AlertsSection:
    """The alerts section; adds each table's float differences to its line."""
    rows = wh.query(q.ALERTS_SQL, p)
    actions: dict[str, list[Any]] = {}
    for r in wh.rows("alert_actions", q.ACTIONS_WHERE, p):
        actions.setdefault(r["alert_id"], []).append(action_of_row(r))
    sec = AlertsSection()
    kinds: dict[tuple[str, str], dict[str, Any]] = {}
    states: dict[str, int] = {}
    per_day: dict[str, int] = {}
    ack_min: list[Decimal] = []
    close_min: list[Decimal] = []
    floats = {t.label: t for t in tables}
    for alert_id, kind, severity, table_id, amount, t, day in rows:
        detected = _utc_ms(int(t))
        status = fold(alert_id, actions.get(alert_id, []))  # fold applies them in (acted_at, action_id) order
        if status.state != "closed" and as_of - detected > OPEN_TOO_LONG:
            sec.open_over_7_days.append(_open_row(alert_id, kind, severity, table_id, detected, status.state, as_of))
        if day < first:
            continue
        sec.total += 1
        k = kinds.setdefault((kind, severity), {"kind": kind, "severity": severity, "count": 0, "amount": Decimal("0.00")})
        k["count"] += 1
        k["amount"] += _dec(amount)
        state = f"closed: {status.disposition}" if status.state == "closed" else status.state
        states[state] = states.get(state, 0) + 1
        per_day[day.isoformat()] = per_day.get(day.isoformat(), 0) + 1
        if status.acknowledged_at is not None:
            sec.acknowledged += 1
            ack_min.append(_minutes(status.acknowledged_at - detected))
        if status.state == "closed" and status.closed_at is not None:
            sec.closed += 1
            close_min.append(_minutes(status.closed_at - detected))
        if kind == "float_discrepancy" and table_id in floats:
            floats[table_id].float_difference += _dec(amount)
    sec.by_kind = [{**v, "amount": str(v["amount"])} for _, v in sorted(kinds.items())]
    sec.by_disposition = [{"state": s, "count": n} for s, n in sorted(states.items())]
    sec.per_day = [{"gaming_day": d, "alerts": n} for d, n in sorted(per_day.items())]
    sec.median_ack_minutes = _median(ack_min)
    sec.median_close_minutes = _median(close_min)
    sec.rejected = int(wh.query(q.REJECTED_SQL, p)[0][0])
    sec.quarantined = int(wh.query(q.QUARANTINED_SQL, p)[0][0])
    return sec



def _minutes(d: timedelta) -> Decimal:
    return (Decimal(d.days * 86_400_000_000 + d.seconds * 1_000_000 + d.microseconds) / 60_000_000).quantize(_CENT)


def _median(xs: list[Decimal]) -> Decimal | None:
    return None if not xs else Decimal(statistics.median(xs)).quantize(_CENT)


def _open_row(alert_id: str, kind: str, severity: str, table_id: str, detected: datetime, state: str,
              as_of: datetime) -> dict[str, Any]:
    return {"alert_id": alert_id, "kind": kind, "severity": severity, "table_id": table_id,
            "detected_at": time_json(detected), "state": state, "age_days": (as_of - detected).days}


__all__ = ["AlertsSection", "FigureLine", "MonthlyReport", "OPEN_TOO_LONG", "build_monthly", "day_start", "month_days"]
