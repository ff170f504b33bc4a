"""Malformed and rule-breaking messages interleaved into a simulated evening, each with the way
the pipeline must account for it.

Every bad message is derived from an event of the evening (its *original*) and is placed after
that original in the stream, under the same Kafka key unless the kind says otherwise: the
original has then been applied when the bad message arrives, so the bad message can neither
excuse a future ``seq`` nor reorder the table. Each one is distinct (its bytes identify it in
the ``rejected`` table).

Accounting, per kind (:data:`KINDS`):

- ``rejected``: one row in the warehouse's ``rejected`` table (and one message on
  ``pitwatch.rejected``) holding the message's bytes, with a reason containing ``reason``;
  nothing else.
- ``alert``: schema-valid, so not rejected: it breaks a rule and raises exactly one alert of
  kind ``alert`` whose evidence is the message's ``event_id``. ``duplicate_event``: the copy is
  not applied, ``events_raw`` keeps one row for the id (the first) and the copy's bytes are
  also stored in ``rejected`` (``also_rejected``: a forged copy must leave a trace);
  ``unknown_table``: stored in ``events_raw`` (a new id) and not judged.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from pitwatch.streams.quarantine import release_message

from reliability.kafka import Message

#: Length of the "1 MB strings".
HUGE_STRING = 1_000_000


@dataclass(frozen=True)
class Kind:
    """A kind of bad message: what it is, how it must be accounted for (``outcome`` is
    ``rejected`` or ``alert``; ``reason``: a substring of the rejection reason; ``alert``:
    the alert kind), and its share of the mix (``weight``; ``at_most``: a cap on the count;
    ``default``: part of the mix unless kinds are chosen, see :data:`DEFAULT_KINDS`;
    ``also_rejected``: for an ``alert`` kind whose bytes are also kept in ``rejected``, a
    substring of the reason stored with them)."""

    description: str
    outcome: str
    reason: str = ""
    alert: str = ""
    weight: float = 1.0
    at_most: int | None = None
    default: bool = True
    also_rejected: str = ""


KINDS: dict[str, Kind] = {
    "truncated_json": Kind("an event's bytes cut short", "rejected", "Invalid JSON"),
    "wrong_type": Kind("a field of the wrong JSON type (seq 1.5 or text, actor a string, a time true, "
                       "game a number, schema_version text, a stake a list)", "rejected", "should be"),
    "unknown_type": Kind('"type": "teleport"', "rejected", "does not match any of the expected tags"),
    "unknown_table": Kind("a valid bet on a table id no table_opened ever named (seq 1)", "alert",
                          alert="procedure"),
    "release_unknown_table": Kind("a quarantine release control message for a table that does not exist",
                                  "rejected", "refused"),
    "negative_amount": Kind("a stake, amount or returned below zero", "rejected", "greater than or equal to 0"),
    "huge_amount": Kind("a stake, amount or returned above 1,000,000,000 euros (1e12, 1e300)", "rejected",
                        "less than or equal to 1000000000"),
    "huge_string": Kind(f"actor.id a string of {HUGE_STRING:,} characters (a 1 MB message)", "rejected",
                        "at most 64 characters", weight=0.0, at_most=20),
    "duplicate_event": Kind("an event sent again with its event_id (half exact copies, half with another "
                            "actor id)", "alert", alert="duplicate_event", also_rejected="received again"),
    "stale_seq": Kind("an event sent again under a new event_id: out of sequence", "rejected",
                      "is not after the table's last seq"),
    "not_utf8": Kind("bytes that are not UTF-8 (inside a JSON string, or random bytes)", "rejected",
                     "Invalid JSON"),
    "missing_field": Kind("a required envelope field left out (event_id, seq, occurred_at, actor, casino_id, "
                          "table_id)", "rejected", "Field required"),
    "no_key": Kind("an event sent again without a Kafka key", "rejected", "Kafka key"),
    "wrong_key": Kind("an event cut short after its seq (table_id and seq still readable), under another "
                      "table's Kafka key", "rejected", "Invalid JSON"),
    # The schema bounds table_opened.options (RELIABILITY.md, "Bugs the run found": unbounded,
    # the table's state held the string and was too large for the Faust changelog).
    "huge_option": Kind(f"a table_opened of a new table whose options hold a string of "
                        f"{HUGE_STRING:,} characters (a 1 MB message)", "rejected", "options", weight=0.0,
                        at_most=20),
}

#: The kinds of the mix unless others are chosen (``--kinds``).
DEFAULT_KINDS: tuple[str, ...] = tuple(k for k, spec in KINDS.items() if spec.default)

_AMOUNT_FIELDS = {"bet_placed": "stake", "settlement_recorded": "returned", "chips_bought": "amount"}


@dataclass(frozen=True)
class Bad:
    """One bad message: its ``kind`` (:data:`KINDS`), Kafka ``key`` (None: no key), bytes, and
    for the ``alert`` outcome the ``event_id`` its alert must name."""

    kind: str
    key: bytes | None
    value: bytes
    event_id: str = ""

    @property
    def spec(self) -> Kind:
        return KINDS[self.kind]


def counts(total: int, kinds: Sequence[str] = DEFAULT_KINDS) -> dict[str, int]:
    """How many of each kind make up ``total`` bad messages: capped kinds first (``huge_string``:
    one in 500, at least 1, at most 20; when only capped kinds are chosen, up to their cap), the
    rest shared by weight, remainders to the first kinds."""
    out: dict[str, int] = {}
    left = total
    shared = [k for k in kinds if KINDS[k].at_most is None]
    for k in kinds:
        cap = KINDS[k].at_most
        if cap is not None:
            out[k] = min(left, cap, max(1, total // 500) if shared else total)
            left -= out[k]
    weight = sum(KINDS[k].weight for k in shared) or 1.0
    for k in shared:
        out[k] = int(left * KINDS[k].weight / weight)
    rest = left - sum(out[k] for k in shared)
    for k in shared[:rest]:
        out[k] += 1
    return out


def interleave(evening: Sequence[bytes], total: int, seed: int,
               kinds: Sequence[str] = DEFAULT_KINDS) -> tuple[list[Message], list[Bad]]:
    """``evening`` (JSON event lines, in order) with ``total`` bad messages of ``kinds`` put
    in, each 1-200 messages after its original. Returns the stream as ``(key, value)`` (events
    keyed by table id) and the bad messages. Deterministic for a seed."""
    rng = random.Random(seed)
    docs = [json.loads(ln) for ln in evening]
    seen_ids: dict[str, int] = {}
    for d in docs:
        seen_ids[d["event_id"]] = seen_ids.get(d["event_id"], 0) + 1
    used: set[int] = set()  # originals of duplicates (each event duplicated at most once)
    made: set[bytes] = set()
    inserts: list[tuple[int, Bad]] = []
    wanted = counts(total, kinds)
    opened = [i for i, d in enumerate(docs) if d.get("type") == "table_opened"]
    for kind, n in wanted.items():
        for _ in range(n):
            for _attempt in range(1000):
                # huge_option is made from a table_opened: a few dozen in an evening of thousands
                i = rng.choice(opened) if kind == "huge_option" and opened else rng.randrange(len(docs))
                bad = _make(kind, docs[i], evening[i], i, rng, seen_ids, used)
                if bad is not None and bad.value not in made:
                    made.add(bad.value)
                    inserts.append((min(len(docs), i + 1 + rng.randrange(200)), bad))
                    break
            else:
                raise RuntimeError(f"could not make a {kind} message from this evening")
    inserts.sort(key=lambda t: t[0])
    stream: list[Message] = []
    bads: list[Bad] = []
    j = 0
    for pos, (d, line) in enumerate(zip(docs, evening)):
        while j < len(inserts) and inserts[j][0] == pos:
            stream.append((inserts[j][1].key, inserts[j][1].value))
            bads.append(inserts[j][1])
            j += 1
        stream.append((d["table_id"].encode(), line))
    for _pos, bad in inserts[j:]:
        stream.append((bad.key, bad.value))
        bads.append(bad)
    return stream, bads


def _dump(d: dict) -> bytes:
    return json.dumps(d, separators=(",", ":")).encode()


def _make(kind: str, d: dict, line: bytes, i: int, rng: random.Random, seen_ids: dict[str, int],
          used: set[int]) -> Bad | None:
    """A ``kind`` message from the original ``d`` (bytes ``line``, index ``i``), or None when
    this original does not suit the kind."""
    key = d["table_id"].encode()
    if kind == "truncated_json":
        return Bad(kind, key, line[:rng.randrange(1, len(line))])
    if kind == "wrong_type":
        choices: list[tuple[str, object]] = [("seq", 1.5), ("seq", "twelve"), ("actor", "dealer"),
                                             ("occurred_at", True), ("game", 7), ("schema_version", "one")]
        if d["type"] in _AMOUNT_FIELDS:
            choices.append((_AMOUNT_FIELDS[d["type"]], [1]))
        field, value = rng.choice(choices)
        return Bad(kind, key, _dump(dict(d, **{field: value})))
    if kind == "unknown_type":
        return Bad(kind, key, _dump(dict(d, type=rng.choice(["teleport", "bet_teleported", "TABLE_OPENED", ""]))))
    if kind == "unknown_table":
        if d["type"] != "bet_placed":
            return None
        ghost = f"ZZ-GHOST-{rng.randrange(10**8):08d}"
        eid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        return Bad(kind, ghost.encode(), _dump(dict(d, table_id=ghost, seq=1, event_id=eid)), eid)
    if kind == "release_unknown_table":
        ghost = f"ZZ-NOWHERE-{rng.randrange(10**8):08d}"
        return Bad(kind, ghost.encode(), release_message(ghost, "reliability-run", datetime(2026, 11, 21, tzinfo=timezone.utc)))
    if kind in ("negative_amount", "huge_amount"):
        amount_field = _AMOUNT_FIELDS.get(d["type"])
        if amount_field is None:
            return None
        if kind == "negative_amount":
            value = f"-{rng.randrange(1, 100000) / 100:.2f}"
        else:
            value = rng.choice(["1000000000000.00", "1e300", f"{rng.randrange(10**10, 10**15)}.00"])
        return Bad(kind, key, _dump(dict(d, **{amount_field: value})))
    if kind == "huge_string":
        return Bad(kind, key, _dump(dict(d, actor=dict(d["actor"], id="X" * HUGE_STRING))))
    if kind == "duplicate_event":
        if seen_ids[d["event_id"]] != 1 or i in used:
            return None  # duplicated by the simulator already, or by us
        used.add(i)
        if rng.random() < 0.5:
            return Bad(kind, key, line, d["event_id"])
        return Bad(kind, key, _dump(dict(d, actor=dict(d["actor"], id=d["actor"]["id"] + "-dup"))), d["event_id"])
    if kind == "stale_seq":
        return Bad(kind, key, _dump(dict(d, event_id=str(uuid.UUID(int=rng.getrandbits(128), version=4)))))
    if kind == "not_utf8":
        if rng.random() < 0.5:
            # 0xff is never part of UTF-8: the bytes stay invalid whatever follows
            junk = b"\xff" + bytes(rng.randrange(128, 256) for _ in range(rng.randrange(0, 8)))
            return Bad(kind, key, line.replace(b'"id":"', b'"id":"' + junk, 1))
        return Bad(kind, key, b"\x80" + bytes(rng.choice([b for b in range(256) if b != 10])
                                            for _ in range(rng.randrange(10, 300))))
    if kind == "missing_field":
        field = rng.choice(["event_id", "seq", "occurred_at", "actor", "casino_id", "table_id"])
        return Bad(kind, key, _dump({k: v for k, v in d.items() if k != field}))
    if kind == "no_key":
        if seen_ids[d["event_id"]] != 1 or i in used:
            return None
        used.add(i)
        return Bad(kind, None, line + b" " * rng.randrange(1, 50))
    if kind == "wrong_key":
        after = line.find(b'"round_id"')
        if after < 0:
            return None
        other = "ZZ-OTHER-TABLE" if rng.random() < 0.5 else "GAL-RF-01"
        return Bad(kind, other.encode() if other != d["table_id"] else b"", line[:after + rng.randrange(1, 20)])
    if kind == "huge_option":
        if d["type"] != "table_opened":
            return None
        ghost = f"ZZ-OPTIONS-{rng.randrange(10**8):08d}"
        eid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        return Bad(kind, ghost.encode(), _dump(dict(d, table_id=ghost, seq=1, event_id=eid,
                                                    options={"note": "X" * HUGE_STRING})), eid)
    raise ValueError(f"unknown kind {kind!r}")
