"""Check a table's hash chain in the warehouse (``pitwatch verify``) and give chain heads.

Every event a table accepted is stored in ``events_raw`` with ``hash = sha256(prev_hash ||
payload)`` (:mod:`pitwatch.detectors.chain`), ``prev_hash`` being the ``hash`` of the table's
previous accepted event. :func:`verify_table` reads a table's rows in ``seq`` order and walks
the chain; the first row that does not fit is named:

- **altered**: a row whose payload (the raw bytes) no longer gives its stored ``hash``, or
  whose ``hash`` was rewritten to match new bytes (the next row's ``prev_hash`` then names a
  hash no row has, with no ``seq`` missing between them);
- **inserted**: a row that is not in the chain: the row after it links over it, or it has no
  link at all and was never parked;
- **missing**: a deleted row: the next row's ``prev_hash`` names a hash no stored row has and
  ``seq`` jumps over the deleted one(s). A deleted last event is seen only against a head
  kept elsewhere (``expected_head``: the head printed in the monthly report).

What is not a break: a ``seq`` the table never accepted (a sequence gap at intake, raised then
as a ``sequence_gap`` alert; the chain links over it) is listed in :attr:`Verification.gaps`;
rows without a link stored before the table's chain began (before the upgrade that added it)
are counted in ``unlinked_before``; a parked event (stored unjudged while its table was
quarantined, ``parked``) has no stored link: its link is recomputed from the row before it and
checked by the row after it (``parked`` counts them).

Reads ``events_raw`` (and ``parked``) with ``FINAL``; the same SQL runs on ClickHouse 18.16
and chDB. Times are UTC.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from pitwatch.detectors.chain import GENESIS, chain_link

__all__ = ["Break", "ChainHead", "Verification", "chain_heads", "verify_rows", "verify_table"]

_COLUMNS = "seq, event_id, payload, prev_hash, hash"


@dataclass(frozen=True)
class ChainHead:
    """A table's chain head for a period: ``seq`` and ``hash`` (64 hex digits) of its last
    linked event in the period, ``events`` linked events in the period."""

    table_id: str
    seq: int
    hash: str
    events: int


@dataclass(frozen=True)
class Break:
    """The first row that breaks a table's chain: ``kind`` ``altered``, ``inserted`` or
    ``missing``; ``seq`` and ``event_id`` of the row named (for ``missing``, the row after
    the deleted event(s)); ``message`` says what was found."""

    kind: str
    seq: int
    event_id: str
    message: str


@dataclass
class Verification:
    """Outcome of :func:`verify_table` for ``table_id`` between ``start`` and ``end`` (UTC,
    ``None``: unbounded). ``rows``: rows read (the period's, plus the row before and after
    it when there are some, which check its first and last link); ``linked``: rows whose link
    held; ``first_seq``/``last_seq`` of the period's rows; ``head`` ``(seq, hash)`` of the last
    linked row of the period; ``gaps``: ``[first, last]`` seq runs never accepted (spanned by
    the chain); ``unlinked_before``: rows stored before the chain began; ``parked``: parked
    rows linked by recomputation; ``broken``: the first break, ``None`` when intact."""

    table_id: str
    start: datetime | None
    end: datetime | None
    rows: int = 0
    linked: int = 0
    first_seq: int | None = None
    last_seq: int | None = None
    head: tuple[int, str] | None = None
    gaps: list[list[int]] = field(default_factory=list)
    unlinked_before: int = 0
    parked: int = 0
    broken: Break | None = None

    @property
    def intact(self) -> bool:
        """Whether no break was found."""
        return self.broken is None

    def to_json_dict(self) -> dict[str, Any]:
        """JSON-ready dict (times as ISO 8601 UTC, ``intact`` added)."""
        d = asdict(self)
        d["start"] = None if self.start is None else self.start.isoformat().replace("+00:00", "Z")
        d["end"] = None if self.end is None else self.end.isoformat().replace("+00:00", "Z")
        d["head"] = None if self.head is None else {"seq": self.head[0], "hash": self.head[1]}
        d["intact"] = self.intact
        return d


def _period(start: datetime | None, end: datetime | None) -> tuple[str, dict[str, Any]]:
    cond, params = "", {}
    if start is not None:
        cond += " AND occurred_at >= %(start)s"
        params["start"] = start
    if end is not None:
        cond += " AND occurred_at < %(end)s"
        params["end"] = end
    return cond, params


def chain_heads(wh: Any, start: datetime, end: datetime, casino_id: str | None = None) -> dict[str, ChainHead]:
    """``{table_id: ChainHead}`` for every table with a linked event that occurred in
    ``[start, end)`` (UTC datetimes): the last linked event of the period by ``seq``, its hash,
    and how many linked events the period has; only ``casino_id``'s tables when given. ``wh`` is an open
    :class:`~pitwatch.warehouse.Warehouse`. For the monthly report: a regulator who keeps the
    heads can later check the warehouse against them (``pitwatch verify --head SEQ:HASH``).
    Raises :class:`~pitwatch.warehouse.WarehouseError`."""
    cond, params = _period(start, end)
    if casino_id is not None:
        cond += " AND casino_id = %(casino)s"
        params["casino"] = casino_id
    rows = wh.query(
        "SELECT table_id, max(seq), argMax(hash, seq), count() FROM pitwatch.events_raw FINAL "
        f"WHERE hash != ''{cond} GROUP BY table_id ORDER BY table_id", params)
    return {t: ChainHead(t, int(s), h, int(n)) for t, s, h, n in rows}


def _rows(wh: Any, table_id: str, start: datetime | None, end: datetime | None) -> tuple[list[tuple], int, int]:
    """The rows to walk, in seq order: the period's and every row between its first and last
    seq (whenever they occurred); before them, the rows from the last linked row before the
    period on (every earlier row when none is linked: the chain's start is then checked); after
    them, the next row. Returns them with how many precede the period's and how many are its."""
    cond, params = _period(start, end)
    params["t"] = table_id
    [(lo, hi, n)] = wh.query(
        f"SELECT min(seq), max(seq), count() FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s{cond}", params)
    if not n:
        return [], 0, 0
    params.update(lo=lo, hi=hi)
    body = wh.query(f"SELECT {_COLUMNS} FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s "
                    "AND seq >= %(lo)s AND seq <= %(hi)s ORDER BY seq, event_id", params)
    before = wh.query(f"SELECT {_COLUMNS} FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s "
                      "AND seq < %(lo)s AND seq >= (SELECT max(seq) FROM pitwatch.events_raw FINAL "
                      "WHERE table_id = %(t)s AND seq < %(lo)s AND hash != '') ORDER BY seq, event_id", params)
    after = wh.query(f"SELECT {_COLUMNS} FROM pitwatch.events_raw FINAL WHERE table_id = %(t)s "
                     "AND seq > %(hi)s ORDER BY seq, event_id LIMIT 1", params)
    return before + body + after, len(before), len(body)


def _hex(h: str) -> bytes | None:
    try:
        b = bytes.fromhex(h)
    except ValueError:
        return None
    return b if len(b) == len(GENESIS) else None


def verify_table(wh: Any, table_id: str, start: datetime | None = None, end: datetime | None = None,
                 expected_head: tuple[int, str] | None = None) -> Verification:
    """Walk ``table_id``'s chain over the events that occurred in ``[start, end)`` (UTC;
    ``None``: unbounded) in the open warehouse ``wh`` (module doc); ``expected_head``
    ``(seq, hash hex)``, e.g. from a monthly report, must be a linked row of the walk.

    Returns a :class:`Verification` whose ``broken`` names the first altered, inserted or
    missing event (``None``: intact). Raises :class:`~pitwatch.warehouse.WarehouseError`."""
    rows, n_before, n_body = _rows(wh, table_id, start, end)
    parked: set[str] = set()
    if any(not r[4] for r in rows):
        parked = {r[0] for r in wh.query("SELECT event_id FROM pitwatch.parked FINAL WHERE table_id = %(t)s",
                                         {"t": table_id})}
    return verify_rows(table_id, rows, parked, n_before, n_body, expected_head, start, end)


def verify_rows(table_id: str, rows: list[tuple], parked: set[str] | frozenset[str] = frozenset(),
                n_before: int = 0, n_body: int | None = None, expected_head: tuple[int, str] | None = None,
                start: datetime | None = None, end: datetime | None = None) -> Verification:
    """Walk ``rows`` of ``table_id`` (tuples ``(seq, event_id, payload, prev_hash, hash)``,
    ordered by seq then event_id; hashes as hex, ``''`` when absent): the first ``n_before`` are
    read before the period (the last linked row before it, or every row when none is linked:
    the chain must then start from 64 zeros), the next ``n_body`` (default: the rest) are the
    period's, the rest after it. ``parked``: event ids stored as parked. :func:`verify_table`
    without the warehouse; pure."""
    n_body = len(rows) - n_before if n_body is None else n_body
    res = Verification(table_id, start, end)
    res.rows = len(rows)
    if n_body:
        res.first_seq, res.last_seq = int(rows[n_before][0]), int(rows[n_before + n_body - 1][0])
    res.broken = _walk(res, rows, parked, n_before, range(n_before, n_before + n_body), expected_head)
    return res


def _walk(res: Verification, rows: list[tuple], parked: set[str] | frozenset[str], n_before: int, body: range,
          expected_head: tuple[int, str] | None) -> Break | None:
    prevs: dict[bytes, list[int]] = {}  # prev_hash -> indexes of the rows naming it
    for k, r in enumerate(rows):
        p = _hex(r[3])
        if p is not None and r[4]:
            prevs.setdefault(p, []).append(k)

    def continued_after(i: int, link: bytes) -> bool:  # a later row links to ``link``
        return any(k > i for k in prevs.get(link, ()))

    expected: bytes | None = None  # link the next row must name as its prev_hash
    last: int | None = None  # index of the last linked row
    head_ok = expected_head is None
    run_end = -1  # last index of a run of parked rows already linked
    for i, (seq, event_id, payload, prev_hex, hash_hex) in enumerate(rows):
        seq = int(seq)
        raw = payload.encode("utf-8")
        if not hash_hex:  # no stored link
            if expected is None:
                res.unlinked_before += 1  # stored before the table's chain began
                continue
            if event_id not in parked:
                return Break("inserted", seq, event_id, f"seq {seq} has no link and was never parked: "
                             "not an event the table accepted")
            if i > run_end:  # a run of parked rows: linked by recomputation if the chain goes on from it
                k, link = i, chain_link(expected, raw)
                while k + 1 < len(rows) and not rows[k + 1][4] and rows[k + 1][1] in parked:
                    k += 1
                    link = chain_link(link, rows[k][2].encode("utf-8"))
                run_end = k
                if k + 1 < len(rows) and not continued_after(k, link):
                    continue  # parked events the release did not apply: not in the chain
                n = k - i + 1
                expected, last = link, k
                res.parked += n
                res.linked += n
            continue
        stored, prev = _hex(hash_hex), _hex(prev_hex)
        if stored is None or prev is None:
            return Break("altered", seq, event_id, f"seq {seq}: its stored link is not a 64-digit hash")
        if expected is None:  # the first link read
            if i < n_before:  # the last linked row before the period: taken as given
                expected = prev
            elif prev != GENESIS:  # no linked row before it: it must start the chain
                return Break("missing", seq, event_id, f"event(s) deleted before seq {seq}: the first stored link "
                             "names a hash no stored row has (a table's chain starts from 64 zeros)")
            else:
                expected = GENESIS
        skipped = prev != expected or (i + 1 < len(rows) and not continued_after(i, stored)
                                       and continued_after(i, expected))
        if skipped and continued_after(i, expected):
            return Break("inserted", seq, event_id, f"seq {seq} is not in the chain: a later row links to "
                         "the event before it")
        if chain_link(prev, raw) != stored:
            return Break("altered", seq, event_id, f"seq {seq}: its payload does not give its stored hash "
                         "(the event's raw bytes were changed)")
        if prev != expected:
            before = int(rows[last][0]) if last is not None else seq
            if seq > before + 1:
                return Break("missing", seq, event_id,
                             f"event(s) deleted between seq {before} and seq {seq}: seq {seq} links to a hash "
                             f"no stored row has (or seq {before} was rewritten with its hash)")
            return Break("altered", before, rows[last][1] if last is not None else event_id,
                         f"the link from seq {before} to seq {seq} is broken with no seq missing: seq {before}'s "
                         f"stored hash (with its bytes) or seq {seq}'s prev_hash was rewritten")
        if last is not None and seq > int(rows[last][0]) + 1:
            res.gaps.append([int(rows[last][0]) + 1, seq - 1])
        expected, last = stored, i
        res.linked += 1
        if i in body:
            res.head = (seq, hash_hex)
        if expected_head == (seq, hash_hex):
            head_ok = True
    if not head_ok:
        assert expected_head is not None
        seq, h = expected_head
        kept = [r for r in rows if int(r[0]) == seq]
        return Break("altered" if kept else "missing", seq, kept[0][1] if kept else "",
                     f"the head kept elsewhere, seq {seq} with hash {h}, is "
                     f"{'not its stored link' if kept else 'not stored'}")
    return None
