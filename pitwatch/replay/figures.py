"""The table-games figures per table and gaming day (or hour): from the warehouse or from a file.

Both sources add up the same per-row figures, computed once by the rules engine and the row
builders (:mod:`pitwatch.rules.accounting`, :mod:`pitwatch.detectors.figures`): from the
warehouse, the sums of ``table_hourly``; from a file of events, the same rows built by a local
replay and summed here. So a file and the warehouse fed with its events give the same figures.

Hold is the reader's ratio of two sums: ``hold %`` = win / drop and win / handle (``None``
when the divisor is 0), in percent to two decimals. The band of the win around the theoretical
win comes from the sum of the bets' variances (bets are independent): σ = √variance, and a win
outside theoretical win ± 1.96 σ is outside the 95% band.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Iterable, Iterator

from pitwatch.detectors.alerts import settlement_rows
from pitwatch.detectors.figures import hour_of, movement_row
from pitwatch.replay import fold_lines
from pitwatch.rules.accounting import MOVEMENT_FIGURE

MONEY = ("handle", "win", "drop", "cashed", "fills", "credits", "tips")
"""Euro figures (2 decimals) of a :class:`Figures` row; ``theoretical_win`` has 4."""
THEORETICAL = ("theoretical_win", "theoretical_variance")
"""The 4-decimal figures: theoretical win (euros) and its variance (euros²)."""
Z95 = Decimal("1.96")
"""Standard deviations either side of the theoretical win that hold 95% of a normal win."""
_CENT, _THEO = Decimal("0.01"), Decimal("0.0001")
MONEY_MOVEMENTS = frozenset(k for k, name in MOVEMENT_FIGURE.items() if name in MONEY)
"""Movement kinds summed into a table's figures (the anticipo and closing count are not)."""


def _percent(num: Decimal, den: Decimal) -> Decimal | None:
    return None if den == 0 else (num * 100 / den).quantize(_CENT)


class WinBand:
    """Hold and the 95% band of anything with ``drop``, ``win``, ``theoretical_win`` (euros) and
    ``theoretical_variance`` (euros²): a table's day, a table's or a game's month, a period."""

    drop: Decimal
    win: Decimal
    theoretical_win: Decimal
    theoretical_variance: Decimal

    @property
    def hold_percent(self) -> Decimal | None:
        """Win / drop, in percent (2 decimals); ``None`` without a drop."""
        return _percent(self.win, self.drop)

    @property
    def theoretical_sd(self) -> Decimal:
        """σ of the win around the theoretical win, euros (2 decimals): √ of the variance."""
        return self.theoretical_variance.sqrt().quantize(_CENT)

    @property
    def deviation_sd(self) -> Decimal | None:
        """(win - theoretical win) / σ, 2 decimals; ``None`` without a variance."""
        if self.theoretical_variance <= 0:
            return None
        return ((self.win - self.theoretical_win) / self.theoretical_variance.sqrt()).quantize(_CENT)

    @property
    def band(self) -> tuple[Decimal, Decimal]:
        """The 95% band of the win: theoretical win ∓ :data:`Z95` σ, euros (2 decimals)."""
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
    and ``theoretical_variance`` in euros²."""

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
    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def win_percent_of_handle(self) -> Decimal | None:
        """Win / handle, in percent (2 decimals); ``None`` without a handle."""
        return _percent(self.win, self.handle)

    def key(self) -> tuple[Any, ...]:
        return (self.gaming_day, self.hour or datetime.min, self.casino_id, self.table_id)

    def to_json_dict(self) -> dict[str, Any]:
        """JSON-ready form: euros as strings with 2 decimals (theoretical win 4), the hour as
        UTC ISO text or null, hold ratios as percent strings or null."""
        hold, whand = self.hold_percent, self.win_percent_of_handle
        return {
            "casino_id": self.casino_id, "table_id": self.table_id, "game": self.game,
            "gaming_day": self.gaming_day.isoformat(),
            "hour": None if self.hour is None else self.hour.strftime("%Y-%m-%dT%H:00:00Z"),
            "bets": self.bets, **{k: str(getattr(self, k)) for k in MONEY},
            "theoretical_win": str(self.theoretical_win),
            "theoretical_variance": str(self.theoretical_variance),
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
        if "settlement_id" in r:
            f.bets += 1
            f.handle += r["handle"]
            f.win += r["win"]
            f.theoretical_win += r["theoretical_win"]
            f.theoretical_variance += r["theoretical_variance"]
        elif r["kind"] in MONEY_MOVEMENTS:
            name = MOVEMENT_FIGURE[r["kind"]]
            setattr(f, name, getattr(f, name) + r["amount"])
    return sorted(out.values(), key=Figures.key)


def rows_from_lines(lines: Iterable[bytes | str]) -> Iterator[dict[str, Any]]:
    """The ``settlements`` and ``movements`` rows a file of event lines gives (invalid lines and
    rejected events give none, as in the live pipeline)."""
    for _n, event, out, _error in fold_lines(lines):
        if out is None:
            continue
        for v in out.verdicts:
            yield from settlement_rows(v)
        for m in out.movements:
            yield movement_row(m, event)


def figures_from_lines(lines: Iterable[bytes | str], by_hour: bool = False) -> list[Figures]:
    """Figures per table and gaming day (``by_hour``: and UTC hour) of a file of event lines."""
    return _group(rows_from_lines(lines), by_hour)


def figures_from_warehouse(wh: Any, by_hour: bool = False, gaming_day: date | None = None,
                           table_id: str | None = None) -> list[Figures]:
    """Figures per table and gaming day (``by_hour``: and UTC hour) from ``table_hourly`` of an
    open warehouse, optionally of one ``gaming_day`` and one ``table_id``."""
    where: list[str] = ["1"]
    params: dict[str, Any] = {}
    if gaming_day is not None:
        where.append("gaming_day = %(day)s")
        params["day"] = gaming_day
    if table_id is not None:
        where.append("table_id = %(table)s")
        params["table"] = table_id
    keys = "casino_id, table_id, game, gaming_day" + (", hour" if by_hour else "")
    sums = ", ".join(f"sum({c})" for c in ("bets", *MONEY, *THEORETICAL))
    got = wh.query(f"SELECT {keys}, {sums} FROM pitwatch.table_hourly WHERE {' AND '.join(where)} "
                   f"GROUP BY {keys} ORDER BY {keys}", params)
    out = []
    n = 5 if by_hour else 4
    for r in got:
        f = Figures(r[0], r[1], r[2], r[3], r[4] if by_hour else None, int(r[n]))
        for name, v in zip(MONEY, r[n + 1:n + 1 + len(MONEY)]):
            setattr(f, name, Decimal(str(v)).quantize(_CENT))
        f.theoretical_win, f.theoretical_variance = (Decimal(str(v)).quantize(_THEO) for v in r[-2:])
        out.append(f)
    return sorted(out, key=Figures.key)
