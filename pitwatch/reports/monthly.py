"""The data of the monthly regulator report of one casino, read from the warehouse.

:func:`build_monthly` ``(wh, casino_id, "2026-11")`` -> :class:`MonthlyReport`: the month is the
gaming days (Europe/Madrid, from 06:00: :func:`pitwatch.detectors.figures.gaming_day`) dated in
it. Its sections:

- **tables** and **games**, and their **total**: days open (gaming days the table opened or played),
  bets, drop, handle, win, hold % (win / drop) and win / handle, theoretical win and σ (the square
  root of the sum of the bets' variances, :func:`pitwatch.rules.edges.bet_variance`), the win's
  deviation in σ and its 95% band (theoretical win ± 1.96 σ), commissions (with the cagnotte: both
  are the house's take, :mod:`pitwatch.rules.accounting`), tips, fills, credits, chips cashed, the
  float reconciliation differences (the ``float_discrepancy`` alerts' amounts) and the limit
  breaches (``bet_below_minimum`` and ``bet_above_maximum`` alerts);
- **player-against-player games** (:data:`~pitwatch.replay.figures.PEER_GAMES`: póquer en círculo,
  chemin de fer, bacará a dos paños; 004 L82-L89): the house plays no hand, so no theoretical win, σ
  or band; their commissions-and-cagnotte column is the house's revenue, rake + cagnotte (the
  ``rake_taken`` amounts) + session fees (``session_fee_taken``), and ``revenue_check`` = win -
  (rake + cagnotte) must be 0.00 (what the bets left with the house is what went into the cagnotte).
  A line mixing both kinds (a total) gives the theoretical win of its house-banked games, and its
  deviation compares their win only;
- **periods**: the month, the three before it and the year to date, with the gross gaming income
  (the tax base: the win, commissions included, plus the poker session fees) of the year to date;
- **limits**: the limits in force per table and the breaches under each (:mod:`pitwatch.reports.limits`);
- **nil return**: a month without figures or events is a report saying so (``nil_return``), not an
  error;
- **alerts**: by kind and by disposition as they stood at the end of the month's last gaming day
  (the actions taken before it, folded by :mod:`pitwatch.lifecycle.state`), the alerts still open
  then that were more than 7 days old, the median times to acknowledge and to close, and the
  rejected and quarantined messages;
- the **provenance**: ruleset versions (id, content hash, jurisdiction), the stored events the
  figures come from (count, first and last time), and :attr:`MonthlyReport.digest`, the SHA-256 of
  the report's data as canonical JSON (:meth:`MonthlyReport.data`), so a regulator can have it
  re-derived and compared.

Euros are ``Decimal``, times UTC. Sums are exact (the theoretical win at the warehouse's 4 places)
and rounded once, to 2 places, when the report's data is given (:meth:`FigureLine.data`), so a figure
foots to the cent in every file: a game is the exact sum of its tables, the total the exact sum of
the games, the month's period line the same sum. Everything is a function of the warehouse's rows:
the same warehouse gives the same report and digest whenever it is built.
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
from pitwatch.replay.figures import TAKE_EVENTS, WinBand, is_peer
from pitwatch.replay.formatting import time_json
from pitwatch.reports import queries as q
from pitwatch.reports.limits import BREACH_KINDS, limits_in_force
from pitwatch.warehouse.verify import chain_heads

MADRID = ZoneInfo("Europe/Madrid")
DAY_STARTS = time(6, 0)
"""A gaming day runs from 06:00 to 06:00 Europe/Madrid."""
OPEN_TOO_LONG = timedelta(days=7)
"""An alert still open this long after its detection is listed."""
_CENT = Decimal("0.01")
_THEO = Decimal("0.0001")
MONEY = ("drop", "handle", "win", "theoretical_win", "commission", "tips", "fills", "credits", "cashed")
"""The euro figures of a :class:`FigureLine` (2 places; the theoretical win kept at 4 until given)."""
SUMMED = (*MONEY, "theoretical_variance", "float_difference", "rake", "session_fees", "peer_win")
"""Every summed figure of a :class:`FigureLine`."""


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
    """Summed figures of a table, a game, the total or a period: euros (``Decimal``, 2 places; the
    theoretical win 4), ``bets``, ``days_open`` and ``limit_breaches`` counts, ``theoretical_variance``
    in euros² (4 places); hold, win / handle and the 95% band from
    :class:`~pitwatch.replay.figures.WinBand`. ``rake`` (rake and cagnotte) and ``session_fees`` are
    the player-against-player games' (also counted in ``commission``); ``peer_win`` their win;
    ``has_banked`` / ``has_peer`` whether the line holds house-banked / player-against-player games:
    its theoretical figures cover the house-banked ones only (none without)."""

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
    rake: Decimal = Decimal("0.00")
    session_fees: Decimal = Decimal("0.00")
    peer_win: Decimal = Decimal("0.00")
    limit_breaches: int = 0
    has_banked: bool = False
    has_peer: bool = False

    @property
    def has_theoretical(self) -> bool:
        """Whether the line holds a house-banked game (else no theoretical win, σ or band)."""
        return self.has_banked

    @property
    def banked_win(self) -> Decimal:
        """The house-banked games' win (euros): what the theoretical win is compared with."""
        return self.win - self.peer_win

    @property
    def revenue_check(self) -> Decimal | None:
        """Player-against-player games: win - (rake + cagnotte), euros (0.00 when the bets left with
        the house exactly what went into the cagnotte); ``None`` without such a game."""
        return self.peer_win - self.rake if self.has_peer else None

    def add(self, other: FigureLine) -> None:
        """Add ``other``'s counts and sums to this line."""
        for name in ("days_open", "bets", "limit_breaches", *SUMMED):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.has_banked |= other.has_banked
        self.has_peer |= other.has_peer

    def add_take(self, name: str, amount: Decimal) -> None:
        """Add a player-against-player game's ``rake`` or ``session_fees`` (euros), which is also the
        house's commission."""
        setattr(self, name, getattr(self, name) + amount)
        self.commission += amount
        self.has_peer = True

    def data(self) -> dict[str, Any]:
        """JSON-ready: euros as strings (2 places, rounded here once), derived figures included;
        ``None`` for what the line has not (the theoretical figures of player-against-player games,
        the revenue check of house-banked ones)."""
        d = {k: (str(v.quantize(_CENT)) if isinstance(v, Decimal) else v) for k, v in asdict(self).items()
             if k not in ("has_banked", "has_peer", "peer_win")}
        d["theoretical_variance"] = str(self.theoretical_variance)
        band = self.band
        theo = self.has_theoretical
        d.update(hold_percent=_text(self.hold_percent), win_per_handle=_text(self.win_percent_of_handle),
                 theoretical_win=d["theoretical_win"] if theo else None,
                 theoretical_variance=d["theoretical_variance"] if theo else None,
                 sd=_text(self.theoretical_sd), deviation_sd=_text(self.deviation_sd),
                 band_low=None if band is None else str(band[0]), band_high=None if band is None else str(band[1]),
                 outside_band=self.outside_band, peer=self.has_peer and not self.has_banked,
                 revenue_check=_text(self.revenue_check))
        return d


def _text(v: Decimal | None) -> str | None:
    return None if v is None else str(v)


def _figures(label: str, game: str, row: Iterable[Any]) -> FigureLine:
    """A line of ``game``'s summed figures ``row`` (in :data:`~pitwatch.reports.queries.FIGURES`
    order); a player-against-player game's stored theoretical figures are dropped."""
    peer = is_peer(game)
    f = FigureLine(label, game, has_banked=not peer, has_peer=peer)
    for name, v in zip(q.FIGURES, row):
        if name == "bets":
            f.bets = int(v)
        elif name in ("theoretical_win", "theoretical_variance"):
            setattr(f, name, Decimal("0.0000") if peer else _dec(v, _THEO))
        else:
            setattr(f, name, _dec(v))
    if peer:
        f.peer_win = f.win
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
    total: FigureLine = field(default_factory=lambda: FigureLine("total"))
    limits: list[dict[str, Any]] = field(default_factory=list)
    chain_heads: list[dict[str, Any]] = field(default_factory=list)
    """Each table's hash-chain head for the month (:func:`pitwatch.warehouse.verify.chain_heads`):
    ``table_id``, ``seq``, ``hash`` (64 hex), ``events`` (linked events of the month)."""

    @property
    def nil_return(self) -> bool:
        """Whether the month had no activity: no figures and no stored event (a nil return)."""
        return not self.tables and self.events["count"] == 0

    def data(self) -> dict[str, Any]:
        """The report's data as JSON-ready values (what :attr:`digest` hashes)."""
        alerts = asdict(self.alerts)
        for k in ("median_ack_minutes", "median_close_minutes"):
            alerts[k] = _text(alerts[k])
        return {
            "casino_id": self.casino_id, "month": self.month, "first_gaming_day": self.first_day.isoformat(),
            "last_gaming_day": self.last_day.isoformat(), "as_of": time_json(self.as_of),
            "nil_return": self.nil_return, "tables": [f.data() for f in self.tables],
            "games": [f.data() for f in self.games], "total": self.total.data(),
            "periods": [f.data() for f in self.periods], "limits": self.limits,
            "gross_gaming_income_ytd": str(self.gross_gaming_income_ytd), "alerts": alerts,
            "rulesets": self.rulesets, "events": self.events, "daily": self.daily,
            "chain_heads": self.chain_heads,
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
    start = min(date(first.year, 1, 1), _months_back(first, 3))
    takes = wh.query(q.TAKES_SQL, {"casino": casino_id, "first": start, "last": last})
    by_label = {t.label: t for t in tables}
    for table, game, m, kind, amount, n in takes:
        if int(m) == first.year * 100 + first.month:
            line = by_label.get(table)
            if line is None:  # a cagnotte with no settlement or movement of the table in the month
                line = by_label[table] = FigureLine(table, game, has_peer=True)
                tables.append(line)
            line.add_take(TAKE_EVENTS[kind], Decimal(amount or "0") * int(n))
    tables.sort(key=lambda t: (t.game, t.label))
    alert_rows = wh.query(q.ALERTS_SQL, p)
    alerts = _alerts(wh, p, alert_rows, first, as_of, tables)
    games: dict[str, FigureLine] = {}
    total = FigureLine("total")
    for t in tables:
        games.setdefault(t.game, FigureLine(t.game, t.game)).add(t)
        total.add(t)
    periods, ggr = _periods(wh, casino_id, first, last, start, takes)
    month_start = int(day_start(first).timestamp() * 1000)
    breaches = [(r[3], r[1], int(r[5]), r[4]) for r in alert_rows if r[1] in BREACH_KINDS and r[6] >= first]
    limits = [{**{k: v for k, v in row.items() if k != "since"},
               "in_force_from": None if row["since"] is None else time_json(_utc_ms(row["since"])),
               "amount": str(row["amount"])}
              for row in limits_in_force(wh.query(q.LIMITS_SQL, p), breaches, month_start, by_label)]
    rulesets = [{"ruleset_id": r[0], "ruleset_hash": r[1], "jurisdiction": r[2] or "", "bets": int(r[3])}
                for r in wh.query(q.RULESETS_SQL, p)]
    count, lo, hi = wh.query(q.EVENTS_SQL, p)[0]
    events = {"count": int(count), "first": time_json(_utc_ms(int(lo))) if count else None,
              "last": time_json(_utc_ms(int(hi))) if count else None}
    daily = [{"gaming_day": d.isoformat(), "game": g, "win": str(_dec(w)),
              "theoretical_win": None if is_peer(g) else str(_dec(t))}
             for d, g, w, t in wh.query(q.DAILY_SQL, p)]
    heads = [{"table_id": h.table_id, "seq": h.seq, "hash": h.hash, "events": h.events}
             for h in chain_heads(wh, day_start(first), as_of, casino_id).values()]
    return MonthlyReport(casino_id, month, first, last, as_of, tables, sorted(games.values(), key=lambda f: f.game),
                         periods, ggr, alerts, rulesets, events, daily, total, limits, heads)


def casino_seen(wh: Any, casino_id: str) -> bool:
    """Whether the warehouse holds any event of ``casino_id`` (a nil return for a casino id it has
    never seen is more likely a typo)."""
    return int(wh.query(q.SEEN_SQL, {"casino": casino_id})[0][0]) > 0


def _periods(wh: Any, casino_id: str, first: date, last: date, start: date,
             takes: list[Any]) -> tuple[list[FigureLine], Decimal]:
    """The month, the three before it and the year to date; the year-to-date gross gaming income
    (the tax base: win plus session fees). ``takes``: the :data:`~pitwatch.reports.queries.TAKES_SQL`
    rows from ``start``."""
    rows: dict[int, FigureLine] = {}
    for r in wh.query(q.MONTHS_SQL, {"casino": casino_id, "first": start, "last": last}):
        rows.setdefault(int(r[0]), FigureLine(str(r[0]))).add(_figures(str(r[0]), str(r[1]), r[2:]))
    for _table, _game, m, kind, amount, n in takes:
        rows.setdefault(int(m), FigureLine(str(m))).add_take(TAKE_EVENTS[kind], Decimal(amount or "0") * int(n))
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
    return out, ytd.win + ytd.session_fees


def _alerts(wh: Any, p: dict[str, Any], rows: list[Any], first: date, as_of: datetime,
            tables: list[FigureLine]) -> AlertsSection:
    """The alerts section of the :data:`~pitwatch.reports.queries.ALERTS_SQL` ``rows``; adds each
    table's float differences and limit breaches to its line."""
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
        if kind in BREACH_KINDS and table_id in floats:
            floats[table_id].limit_breaches += 1
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


__all__ = ["AlertsSection", "FigureLine", "MonthlyReport", "OPEN_TOO_LONG", "build_monthly", "casino_seen", "day_start",
           "month_days"]
