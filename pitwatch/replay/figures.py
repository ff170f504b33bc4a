"""The table-games figures per table and gaming day (or hour): from the warehouse or from a file.

Both sources add up the same per-row figures, computed once by the rules engine and the row
builders (:mod:`pitwatch.rules.accounting`, :mod:`pitwatch.detectors.figures`): from the
warehouse, the sums of ``table_hourly``; from a file of events, the same rows built by a local
replay and summed here. So a file and the warehouse fed with its events give the same figures.

Hold is the reader's ratio of two sums: ``hold %`` = win / drop and win / handle (``None``
when the divisor is 0), in percent to two decimals. The band of the win around the theoretical
win comes from the sum of the bets' variances (bets are independent): σ = √variance, and a win
outside theoretical win ± 1.96 σ is outside the 95% band.

Player-against-player games (:data:`PEER_GAMES`: póquer en círculo, chemin de fer, bacará a dos
paños) have no theoretical win, σ or band: the house plays no hand and takes a share of what the
players stake against each other (004 L82-L89). Their figures carry instead the ``rake`` (the
``rake_taken`` amounts: the rake at poker, the cagnotte at chemin de fer and dos paños) and the
``session_fees`` (``session_fee_taken``: poker's benefit per player and session, 004 L4090-L4101),
each on the gaming day (and hour) of its event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Iterable, Iterator

from pitwatch.detectors.alerts import settlement_rows
from pitwatch.detectors.figures import gaming_day, hour_of, movement_row
from pitwatch.replay import fold_lines
from pitwatch.rules.accounting import MOVEMENT_FIGURE
from pitwatch.rules.registry import specs
from pitwatch.warehouse.migrate import gaming_day_sql

MONEY = ("handle", "win", "drop", "cashed", "fills", "credits", "tips")
"""Euro figures (2 decimals) of a :class:`Figures` row; ``theoretical_win`` has 4."""
THEORETICAL = ("theoretical_win", "theoretical_variance")
"""The 4-decimal figures: theoretical win (euros) and its variance (euros²)."""
Z95 = Decimal("1.96")
"""Standard deviations either side of the theoretical win that hold 95% of a normal win."""
_CENT, _THEO = Decimal("0.01"), Decimal("0.0001")
PEER_GAMES = frozenset(sp.game for sp in specs() if sp.peer)
"""Games the players play against each other, as their spec says (``peer``) («juegos de círculo»,
004 L82-L89: the casino «no podrá
participar en el juego y cobrará un porcentaje o cantidad determinada sobre las apuestas que se
crucen»): póquer en círculo (the rake or a session fee, 004 L4077-L4101), chemin de fer (the cagnotte
on the bank's winnings, 000 L666) and bacará a dos paños (the cagnotte on the bank's net win, 000
L829; 004 L2748-L2752). Their house revenue is rake + session fees + cagnotte; no theoretical win,
σ or band is given for them (the edge the engine stores for them is the rate itself, an invented
wager). The dashboards and the monthly report read the same set."""
TAKE_EVENTS = {"rake_taken": "rake", "session_fee_taken": "session_fees"}
"""Event type -> the figure its ``amount`` adds to: what the croupier put in the cagnotte."""


def is_peer(game: str) -> bool:
    """Whether ``game`` is player against player (:data:`PEER_GAMES`)."""
    return game in PEER_GAMES


MONEY_MOVEMENTS = frozenset(k for k, name in MOVEMENT_FIGURE.items() if name in MONEY)
"""Movement kinds summed into a table's figures (the anticipo and closing count are not)."""


def _percent(num: Decimal, den: Decimal) -> Decimal | None:
    return None if den == 0 else (num * 100 / den).quantize(_CENT)


class WinBand:
    """Hold and the 95% band of anything with ``drop``, ``win``, ``theoretical_win`` (euros) and
    ``theoretical_variance`` (euros²): a table's day, a table's or a game's month, a period."""

    drop: Decimal
    handle: Decimal
    win: Decimal
    theoretical_win: Decimal
    theoretical_variance: Decimal

    @property
    def has_theoretical(self) -> bool:
        """Whether a theoretical win is given (not for a player-against-player game alone)."""
        return True

    @property
    def banked_win(self) -> Decimal:
        """The win the theoretical win is compared with (here all of it)."""
        return self.win

    @property
    def hold_percent(self) -> Decimal | None:
        """Win / drop, in percent (2 decimals); ``None`` without a drop."""
        return _percent(self.win, self.drop)

    @property
    def win_percent_of_handle(self) -> Decimal | None:
        """Win / handle, in percent (2 decimals); ``None`` without a handle."""
        return _percent(self.win, self.handle)

    @property
    def theoretical_sd(self) -> Decimal | None:
        """σ of the win around the theoretical win, euros (2 decimals): √ of the variance; ``None``
        without a theoretical win."""
        return self.theoretical_variance.sqrt().quantize(_CENT) if self.has_theoretical else None

    @property
    def deviation_sd(self) -> Decimal | None:
        """(win - theoretical win) / σ, 2 decimals; ``None`` without a variance."""
        if self.theoretical_variance <= 0 or not self.has_theoretical:
            return None
        return ((self.banked_win - self.theoretical_win) / self.theoretical_variance.sqrt()).quantize(_CENT)

    @property
    def band(self) -> tuple[Decimal, Decimal] | None:
        """The 95% band of the win: theoretical win ∓ :data:`Z95` σ, euros (2 decimals); ``None``
        without a theoretical win."""
        if not self.has_theoretical:
            return None
        half = Z95 * self.theoretical_variance.sqrt()
        return (self.theoretical_win - half).quantize(_CENT), (self.theoretical_win + half).quantize(_CENT)

    @property
    def outside_band(self) -> bool:
        """Whether the win is outside its 95% band (beyond ±:data:`Z95` σ)."""
        dev = self.deviation_sd
        return dev is not None and abs(dev) > Z95


@dataclass
class Figures(WinBand):
    """The figures of one table over one gaming day (``hour`` ``None``) or one UTC hour, in
    euros: ``bets`` (settlement rows), ``handle``, ``win``, ``theoretical_win``, ``drop``,
    ``cashed``, ``fills``, ``credits``, ``tips`` (definitions: :mod:`pitwatch.rules.accounting`),
    and ``theoretical_variance`` in euros²; for a player-against-player game (:data:`PEER_GAMES`)
    ``rake`` (rake or cagnotte) and ``session_fees``, and no theoretical win (``has_theoretical``
    false: the stored theoretical figures are not shown)."""

    casino_id: str
    table_id: str
    game: str
    gaming_day: date
    hour: datetime | None = None
    bets: int = 0
    handle: Decimal = Decimal("0.00")
    win: Decimal = Decimal("0.00")
    theoretical_win: Decimal = Decimal("0.0000")
    theoretical_variance: Decimal = Decimal("0.0000")
    drop: Decimal = Decimal("0.00")
    cashed: Decimal = Decimal("0.00")
    fills: Decimal = Decimal("0.00")
    credits: Decimal = Decimal("0.00")
    tips: Decimal = Decimal("0.00")
    rake: Decimal = Decimal("0.00")
    session_fees: Decimal = Decimal("0.00")
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def has_theoretical(self) -> bool:
        """False for a player-against-player game (:data:`PEER_GAMES`): no theoretical win."""
        return not is_peer(self.game)

    def theoretical_cells(self) -> tuple[str, str, str]:
        """Theoretical win, σ and deviation as text (``—`` when absent), for a terminal table."""
        if not self.has_theoretical:
            return "—", "—", "—"
        dev = self.deviation_sd
        return (f"{self.theoretical_win.quantize(_CENT):,}", f"{self.theoretical_sd:,}",
                "—" if dev is None else f"{dev}")

    def key(self) -> tuple[Any, ...]:
        return (self.gaming_day, self.hour or datetime.min, self.casino_id, self.table_id)

    def to_json_dict(self) -> dict[str, Any]:
        """JSON-ready form: euros as strings with 2 decimals (theoretical win 4; null, as its
        variance, for a player-against-player game), the hour as UTC ISO text or null, hold ratios
        as percent strings or null, ``peer``, ``rake`` and ``session_fees``."""
        hold, whand = self.hold_percent, self.win_percent_of_handle
        theo = self.has_theoretical
        return {
            "casino_id": self.casino_id, "table_id": self.table_id, "game": self.game,
            "gaming_day": self.gaming_day.isoformat(),
            "hour": None if self.hour is None else self.hour.strftime("%Y-%m-%dT%H:00:00Z"),
            "bets": self.bets, **{k: str(getattr(self, k)) for k in MONEY},
            "theoretical_win": str(self.theoretical_win) if theo else None,
            "theoretical_variance": str(self.theoretical_variance) if theo else None,
            "peer": not theo, "rake": str(self.rake), "session_fees": str(self.session_fees),
            "hold_percent": None if hold is None else str(hold),
            "win_percent_of_handle": None if whand is None else str(whand),
        }


def _group(rows: Iterable[dict[str, Any]], by_hour: bool) -> list[Figures]:
    """Sum settlement rows and movement rows (as the warehouse stores them) per table and
    gaming day (and hour)."""
    out: dict[tuple[Any, ...], Figures] = {}
    for r in rows:
        at = r.get("settled_at") or r["occurred_at"]
        hour = hour_of(at) if by_hour else None
        key = (r["casino_id"], r["table_id"], r["game"], r["gaming_day"], hour)
        f = out.get(key)
        if f is None:
            f = out[key] = Figures(*key)
        if "take" in r:
            setattr(f, r["take"], getattr(f, r["take"]) + r["amount"])
        elif "settlement_id" in r:
            f.bets += 1
            f.handle += r["handle"]
            f.win += r["win"]
            f.theoretical_win += r["theoretical_win"]
            f.theoretical_variance += r["theoretical_variance"]
        elif r["kind"] in MONEY_MOVEMENTS:
            name = MOVEMENT_FIGURE[r["kind"]]
            setattr(f, name, getattr(f, name) + r["amount"])
    return sorted(out.values(), key=Figures.key)


def rows_from_lines(lines: Iterable[bytes | str], takes: bool = False) -> Iterator[dict[str, Any]]:
    """The ``settlements`` and ``movements`` rows a file of event lines gives (invalid lines and
    rejected events give none, as in the live pipeline); with ``takes``, also one row per
    ``rake_taken`` / ``session_fee_taken`` (keys ``take``, the figure, and ``amount``)."""
    for _n, event, out, _error in fold_lines(lines):
        if out is None:
            continue
        for v in out.verdicts:
            yield from settlement_rows(v)
        for m in out.movements:
            yield movement_row(m, event)
        if takes and event.type in TAKE_EVENTS:
            yield {"take": TAKE_EVENTS[event.type], "casino_id": event.casino_id, "table_id": event.table_id,
                   "game": event.game, "gaming_day": gaming_day(event.occurred_at), "occurred_at": event.occurred_at,
                   "amount": event.amount}


def figures_from_lines(lines: Iterable[bytes | str], by_hour: bool = False) -> list[Figures]:
    """Figures per table and gaming day (``by_hour``: and UTC hour) of a file of event lines."""
    return _group(rows_from_lines(lines, takes=True), by_hour)


def json_money_sql(key: str) -> str:
    """ClickHouse expression of the euro amount (text, e.g. ``12.50``; ``''`` when absent) under the
    top-level ``key`` of an event's JSON ``payload``, as it was received (spaces allowed around the
    colon, the amount quoted or not). A regular expression (``extract``): ClickHouse 18.16 has no
    JSONExtract and its ``visitParamExtract*`` functions read no JSON with spaces."""
    return f"""extract(payload, '"{key}"[[:space:]]*:[[:space:]]*"?(-?[0-9]+([.][0-9]+)?)')"""


_amount = json_money_sql("amount")

TAKES_SQL = f"""
SELECT casino_id, table_id, game, {gaming_day_sql("occurred_at")} AS gaming_day, toStartOfHour(occurred_at) AS hour,
       type, {_amount}
FROM pitwatch.events_raw FINAL
WHERE type IN ('rake_taken', 'session_fee_taken') AND {{where}}
"""
"""Each rake, cagnotte and session fee put in the cagnotte, with its table, gaming day and UTC hour
(``{where}``: the filters of :func:`figures_from_warehouse`, on ``gaming_day`` and ``table_id``)."""


def figures_from_warehouse(wh: Any, by_hour: bool = False, gaming_day: date | None = None,
                           table_id: str | None = None) -> list[Figures]:
    """Figures per table and gaming day (``by_hour``: and UTC hour) from ``table_hourly`` of an
    open warehouse, optionally of one ``gaming_day`` and one ``table_id``."""
    where: list[str] = ["1"]
    takes_where: list[str] = ["1"]
    params: dict[str, Any] = {}
    if gaming_day is not None:
        where.append("gaming_day = %(day)s")
        takes_where.append(f"{gaming_day_sql('occurred_at')} = %(day)s")
        params["day"] = gaming_day
    if table_id is not None:
        where.append("table_id = %(table)s")
        takes_where.append("table_id = %(table)s")
        params["table"] = table_id
    keys = "casino_id, table_id, game, gaming_day" + (", hour" if by_hour else "")
    sums = ", ".join(f"sum({c})" for c in ("bets", *MONEY, *THEORETICAL))
    got = wh.query(f"SELECT {keys}, {sums} FROM pitwatch.table_hourly WHERE {' AND '.join(where)} "
                   f"GROUP BY {keys} ORDER BY {keys}", params)
    out: dict[tuple[Any, ...], Figures] = {}
    n = 5 if by_hour else 4
    for r in got:
        f = Figures(r[0], r[1], r[2], r[3], r[4] if by_hour else None, int(r[n]))
        for name, v in zip(MONEY, r[n + 1:n + 1 + len(MONEY)]):
            setattr(f, name, Decimal(str(v)).quantize(_CENT))
        f.theoretical_win, f.theoretical_variance = (Decimal(str(v)).quantize(_THEO) for v in r[-2:])
        out[tuple(r[:n])] = f
    for casino, table, game, day, hour, kind, amount in wh.query(
            TAKES_SQL.format(where=" AND ".join(takes_where)), params):
        key = (casino, table, game, day, hour) if by_hour else (casino, table, game, day)
        f = out.get(key) or out.setdefault(key, Figures(casino, table, game, day, hour if by_hour else None))
        name = TAKE_EVENTS[kind]
        setattr(f, name, getattr(f, name) + Decimal(amount or "0"))
    return sorted(out.values(), key=Figures.key)
