"""Property: the verdict of a round does not depend on the path that derives it.

Simulated evenings (1-3 tables of different games drawn from every game the simulator plays, and
at times both poker tables of a casino; every fault kind of the simulator drawn on or off) with
rule-breaking events and invalid lines injected are judged three ways:

1. **live**: the lines as Kafka messages (keyed by table, spread over partitions, consumed
   with the partitions interleaved) through the stream processor in batches, the table states
   kept between batches, now and then a batch redelivered after a crash; every batch's rows
   sunk into a fresh chDB warehouse through the idempotent ``insert_new``. The messages the table
   stage puts on ``pitwatch.round-digests`` (round digests and ``table_closed`` marks, in the order
   produced, again when a crashed batch comes back without its states) then go through the watch
   stage (:class:`pitwatch.streams.watch.WatchProcessor`) the same way: keyed by casino, partitions
   interleaved, batches, states stored between them, crashes; its rows sunk into the same
   warehouse. The live verdicts are what the warehouse then holds (``settlements`` and ``alerts``).
2. ``pitwatch replay round TABLE ROUND --format json`` from that warehouse, for every round
   with a stored event.
3. ``pitwatch replay file --format json`` of the same lines, in the order the live pipeline
   consumed them (each table's lines in their own order).

The oracle is the agreement of the three, never one path alone. What each path is defined to
produce, and so what is compared:

- **settlements** of a round (bet, spot, stake, expected outcome/returned/commission, what
  was recorded, discrepancy, citation, detail): equal across the three.
- **the round verdict's violations** (payout discrepancies, past-posting, limits, invalid
  bets, illegal decisions, misdraws, spin direction, procedure; compared by alert id, kind,
  bet, player, amount, citation and message): equal across the three. ``replay round``
  reports only these: it replays one round from the stored events, so the alerts raised on
  single messages as they arrived (``sequence_gap``, ``duplicate_event``, ``rejected_event``)
  are outside what it is defined to produce (the warehouse keeps one copy of a duplicated
  event and none of an invalid or stale message, so it could not see them anyway).
- **every alert of a round** (the above plus the per-message ones), **the table-level
  alerts** (no round) of each table, and **the rejected messages** (their reasons): live ==
  ``replay file``, which both read the whole stream. The live pipeline also stores the bytes of
  every duplicated event (not applied) in ``rejected``, with the ``duplicate_event`` alert's
  message and ": not applied": ``replay file`` reports those copies by that alert alone.
- The warehouse keeps one alert per alert id, the first: ids are stable (table, round, kind,
  bet, evidence), so a second ``duplicate_event`` for the same duplicated event id in the same
  round (a forged copy with another seq) is the same alert there, while ``replay file`` prints
  both. The JSON output is therefore read keeping the first alert of each id.
- **the cross-round alerts** (``dealer_player_collusion``, ``chip_dumping``, ``soft_play``,
  ``whipsaw``, ``association``, and the ``prohibited_play`` of a player at two poker tables):
  live == ``replay file``, every field (ids, parties, amount, message, citation, evidence, score,
  ``detected_at`` to the millisecond). The watch releases rounds in event-time order behind
  per-table watermarks, the replay the same way and everything at the end of its input; the live
  watches still holding rounds at the end are flushed likewise (:func:`run_watch`). The watch must
  judge no round late (outside the release's bounds), but where its casino had stopped waiting for
  its table (a table closed and opened again, or first seen once the others were all closed:
  :func:`closed_before`); the replay reads the rounds in the same order and must agree even then.
- A warehouse alert has no null amount (it stores ``0.00``), so a null amount in the JSON
  output compares as ``0.00``; absent ids compare as ``''``.

Examples take a second or two each (a warehouse, a CLI run per round), so hypothesis does not
shrink a failure (that could outlast the test timeout): the falsifying example it prints can
be pasted into an ``@example`` to reproduce it, and the assertion names what differs first
(the round, or the table, and what only some paths produced). ``ALL_ON``, always run first,
has every fault kind on and every injection and invalid line in (checked by the last test).
"""

from __future__ import annotations

import json
import random
import uuid
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from pitwatch.catalogue import GAME_IDS
from pitwatch.cli import app
from pitwatch.detectors import association, chip_dumping, pairs, soft_play, two_tables, whipsaw
from pitwatch.detectors.digest import TableMark, read_watch_message
from pitwatch.detectors.watch import CasinoWatch
from pitwatch.replay import replay_lines
from pitwatch.sim.base import FAULT_KINDS, POKER_RINGS, TableSpec, catalogue_tables, default_floor, simulate
from pitwatch.streams.processor import BatchProcessor, BatchResult, InMessage, OutMessage
from pitwatch.streams.topics import TOPIC_ROUND_DIGESTS
from pitwatch.streams.watch import WatchProcessor
from pitwatch.warehouse import open_warehouse
from typer.testing import CliRunner

runner = CliRunner()

FLOOR: dict[str, list[TableSpec]] = defaultdict(list)
_DEFAULT = default_floor(16, chemin_de_fer=2, dos_panos=4)  # tables numbered 01-22
for _table in _DEFAULT + catalogue_tables(len(_DEFAULT) + 1):  # the games added on the platform: 23 on
    FLOOR[_table.game].append(_table)
assert len({s.table_id for ss in FLOOR.values() for s in ss}) == sum(len(ss) for ss in FLOOR.values())
GAMES = tuple(sorted(GAME_IDS))
"""Every game of the catalogue (:data:`pitwatch.catalogue.GAME_IDS`): french roulette, blackjack and punto
y banca (each under the rulesets of Galicia, Andalucía and Asturias), póquer en círculo (two hold'em tables
of Andalucía), chemin de fer (Galicia, Andalucía), bacará a dos paños (both jurisdictions, a limited and a
free bank), and the games added on the platform, a table for each of their shipped rulesets
(:func:`pitwatch.sim.base.catalogue_tables`): american roulette, ruleta francesa abreviada, boule and the
wheel of fortune."""
assert set(FLOOR) == set(GAMES), set(GAMES) ^ set(FLOOR)
assert {"french_roulette", "blackjack", "punto_banca", "poker", "chemin_de_fer", "bacara_dos_panos"} <= set(GAMES)

PER_EVENT_FAULTS = frozenset({"dropped_event", "duplicated_event"})
"""Fault kinds whose rate is per event (the others: per round)."""

INJECTIONS = (
    "late_bet", "off_layout_bet", "over_maximum_bet", "below_minimum_bet", "illegal_decision",
    "insurance_over_half", "withdrawn_after_close", "unknown_bet_settled", "duplicate_event_id",
    "stale_seq", "reopen_wrong_ruleset", "reopen_same_ruleset", "closed_and_reopened", "limits_changed",
    "two_tables",
)
"""Schema-valid events injected into a round (or just before one): each breaks a rule, or
(re-openings, a session closed and opened again) moves the table's state in a way the rules
allow. ``two_tables`` is of the evening, not of a round: one of a poker table's players plays at
another poker table of the same casino too (his id in place of one of that table's players'), which
the rules allow each table and the two-tables detector of the watch stage flags (004 L4274-L4275)."""

LAYOUT_GAMES = tuple(g for g in GAMES if g != "poker")
"""The games whose players stake with ``bet_placed`` on a spot and are paid by a ``settlement_recorded``
of that bet: every game but póquer en círculo (the banked games, the stakes against the bank at chemin
de fer and dos paños, and the games added on the platform)."""

FIRST_LAYOUT_GAMES = ("french_roulette", "blackjack", "punto_banca", "chemin_de_fer", "bacara_dos_panos")
"""The layout games of the first floor, for which :func:`inject` has a fixed spot (any round, with bets
or not); at the others an injected bet copies the spot of a bet already placed in the round."""

OFF_LAYOUT = {"french_roulette": ("split:1-5", {}), "blackjack": ("main", {"box": 9}), "punto_banca": ("red", {}),
              "chemin_de_fer": ("pano1", {}), "bacara_dos_panos": ("punto", {}),
              "american_roulette": ("split:1-5", {}), "french_roulette_abreviada": ("red", {}),
              "boule": ("split:1-2", {}), "wheel_of_fortune": ("red", {})}
"""A well-formed spot (of the contract's grammar, another game's word) that is not on each layout game's
layout, and what else the bet carries. A table, as no game says what is *not* on its layout: 1 and 5 are
not adjacent on the roulette cloth, the abreviada has no even chances, the boule no splits, the wheel of
fortune no colours; punto y banca has no red, chemin de fer no paño, dos paños no punto (its ``banco``, the
whole bank on both paños, is a stake of the game: it was the entry here until ``ALL_ON`` put an off-layout
bet at dos paños and found nothing), blackjack no ninth box."""

LAYOUT_INJECTIONS = ("late_bet", "off_layout_bet", "over_maximum_bet", "below_minimum_bet", "withdrawn_after_close",
                     "unknown_bet_settled")
"""The injections of a bet on the layout, or its settlement: they fit every game of :data:`LAYOUT_GAMES`."""

ONLY: dict[str, tuple[str, ...]] = {
    **{k: LAYOUT_GAMES for k in LAYOUT_INJECTIONS},
    "illegal_decision": FIRST_LAYOUT_GAMES,
    "insurance_over_half": ("blackjack",),
    "two_tables": ("poker",),
}
"""Injections that fit some games only. Insurance is a blackjack bet. The illegal decisions are those
of the first floor (a double on one card, en prison off zero, a blackjack decision at the baccarat
games); the games added on the platform have no player decision to get wrong. A póquer en círculo hand has no
bet on a layout, no «No va más» and no settlement of a bet: its stakes are ``poker_action`` events in
turn and the pot is awarded (``pot_awarded``), so a bet placed late, off the layout, above the maximum
or below the minimum, withdrawn after the close or settled unknown, and a decision of another game, are
not rule breaks of a hand but events a poker table does not have: every such ``bet_placed`` is one
finding, ``invalid_bet`` («poker has no layout»), whatever the injection meant. At a poker table the injections are the
ones of the table's stream and state: a reused event id, a stale seq, re-openings, a session closed and
opened again, limits changed."""

INVALID_LINES = ("truncated", "seq_not_a_number", "wrong_field_type", "not_an_object")
"""Lines that are not valid events (each inserted before, or in place of, a real event)."""

CROSS_ROUND = frozenset((str(m.KIND), m.CITATION) for m in (pairs, chip_dumping, soft_play, whipsaw, two_tables,
                                                           association))
"""The cross-round detectors' alerts, by (kind, citation): ``dealer_player_collusion``, ``chip_dumping``,
``soft_play``, ``whipsaw``, ``association`` and the ``prohibited_play`` of one player at two poker tables
(the citation tells it from a chemin de fer or dos paños punter's joined stake, a verdict's)."""

PER_MESSAGE_KINDS = frozenset({"sequence_gap", "duplicate_event", "rejected_event",
                               "table_quarantined", "quarantine_released"})
"""Alerts raised on a single message as it arrives, not by a round's verdict."""

CLOCK = datetime(2026, 11, 22, 3, 0, tzinfo=timezone.utc)


# --------------------------------------------------------------------------- the evening


@dataclass
class Evening:
    """What one example draws."""

    seed: int
    specs: list[TableSpec]
    hours: float
    rates: dict[str, float]
    injections: list[tuple[str, int, int]]  # (kind, table pick, round pick)
    invalid: list[tuple[str, int, int, bool]]  # (kind, table pick, position pick, replace the event)
    partitions: int
    batch: int
    flush_every: int
    crashes: frozenset[int]  # batch numbers after which the worker crashes
    crash_stores_state: bool
    order_seed: int


@st.composite
def evenings(draw: Any) -> Evening:
    games = draw(st.lists(st.sampled_from(GAMES), min_size=1, max_size=3, unique=True))
    specs = [draw(st.sampled_from(FLOOR[g])) for g in games]
    if "poker" in games and draw(st.booleans()):  # both poker tables (one casino's): a player may play at both
        specs += [s for s in FLOOR["poker"] if s not in specs]
    on = draw(st.sets(st.sampled_from(FAULT_KINDS)))
    rates = {k: (draw(st.sampled_from((0.005, 0.02))) if k in PER_EVENT_FAULTS
                 else draw(st.sampled_from((0.1, 0.3)))) if k in on else 0.0 for k in FAULT_KINDS}
    pick = st.integers(0, 10_000)
    return Evening(
        seed=draw(st.integers(0, 2**32 - 1)),
        specs=specs,
        hours=draw(st.sampled_from((0.3, 0.4, 0.5))),
        rates=rates,
        injections=draw(st.lists(st.tuples(st.sampled_from(INJECTIONS), pick, pick), max_size=10)),
        invalid=draw(st.lists(st.tuples(st.sampled_from(INVALID_LINES), pick, pick, st.booleans()), max_size=3)),
        partitions=draw(st.integers(1, 4)),
        batch=draw(st.sampled_from((1, 7, 50, 400, 10_000))),
        flush_every=draw(st.sampled_from((1, 5, 1000))),
        crashes=frozenset(draw(st.sets(st.integers(0, 30), max_size=3))),
        crash_stores_state=draw(st.booleans()),
        order_seed=draw(st.integers(0, 2**32 - 1)),
    )


ALL_ON = Evening(
    seed=11, specs=[FLOOR[g][0] for g in GAMES] + FLOOR["poker"][1:], hours=0.5,
    rates={k: (0.02 if k in PER_EVENT_FAULTS else 1.0 if k in ("chips_missing", *POKER_RINGS) else 0.3)
           for k in FAULT_KINDS},
    injections=[(k, t, r) for i, k in enumerate(INJECTIONS) for t, r in ((i, 2 * i + 1), (i + 1, 3 * i + 2))]
    + [(k, t, 5 * t + i) for i, k in enumerate(LAYOUT_INJECTIONS) for t in range(len(LAYOUT_GAMES))],
    invalid=[(k, i, 40 * i + 7, i % 2 == 0) for i, k in enumerate(INVALID_LINES)],
    partitions=2, batch=50, flush_every=5, crashes=frozenset({3, 8}), crash_stores_state=True, order_seed=1)
"""Every fault kind on, every injection (twice), every layout injection at every layout game, every kind
of invalid line, every game (and a second poker table: a player at two tables). The poker rings play
every hand they can (else half an hour of hold'em, a dozen hands, may not deal a soft-play or whipsaw
pattern at all)."""


def _spec(table_id: str) -> TableSpec:
    return next(s for ss in FLOOR.values() for s in ss if s.table_id == table_id)


ALL_CLOSED_FIRST = Evening(
    seed=789, specs=[_spec("AND-PK-08"), _spec("AND-BJ-13"), _spec("AST-PB-07"), _spec("AND-PK-16")], hours=0.3,
    rates={k: 0.3 if k == "whipsaw" else 0.0 for k in FAULT_KINDS},
    injections=[("two_tables", 1265, 797), ("illegal_decision", 176, 3644), ("illegal_decision", 4058, 3076),
                ("below_minimum_bet", 578, 39)],
    invalid=[("truncated", 292, 205, False), ("not_an_object", 668, 950, True)],
    partitions=4, batch=7, flush_every=5, crashes=frozenset({20, 23, 30}), crash_stores_state=True,
    order_seed=3_994_109_167)
"""Found by the property: each table in its own partition, AND-PK-08's consumed whole (its
``table_closed`` too) before AND-BJ-13's first round, so the watch of and-marbella, every table it had
seen closed, released everything and judged 19 of AND-BJ-13's rounds late; the replay reads them in the
same order and agrees (:func:`closed_before`)."""


# --------------------------------------------------------------------------- injections


class Table:
    """One table's events, in order, as entries ``[how, event]``: ``how`` is ``sim`` (from the
    simulator: keeps its seq, shifted past the events injected before it), ``new`` (takes the
    next seq) or ``stale`` (a seq already used)."""

    def __init__(self, spec: TableSpec, events: list[dict], rng: random.Random):
        self.spec = spec
        self.entries: list[list[Any]] = [["sim", e] for e in events]
        self.rng = rng
        self.opened = next(e for e in events if e["type"] == "table_opened")

    def rounds(self) -> list[str]:
        return [e["round_id"] for how, e in self.entries if how == "sim" and e["type"] == "round_started"]

    def find(self, round_id: str, type: str, **match: Any) -> int | None:
        for i, (how, e) in enumerate(self.entries):
            if how == "sim" and e.get("round_id") == round_id and e.get("type") == type and \
                    all(e.get(k) == v for k, v in match.items()):
                return i
        return None

    def round_events(self, round_id: str, type: str) -> list[dict]:
        return [e for how, e in self.entries if how == "sim" and e.get("round_id") == round_id and e["type"] == type]

    def event(self, near: dict, type: str, actor: tuple[str, str] | None = None, **payload: Any) -> dict:
        return {
            "event_id": str(uuid.UUID(int=self.rng.getrandbits(128), version=4)), "schema_version": 1,
            "casino_id": near["casino_id"], "table_id": near["table_id"], "game": near["game"], "seq": 0,
            "round_id": near.get("round_id"), "occurred_at": near["occurred_at"],
            "actor": {"role": actor[0], "id": actor[1]} if actor else dict(near["actor"]), "type": type, **payload}

    def insert(self, index: int, event: dict, how: str = "new") -> None:
        self.entries.insert(index, [how, event])

    def renumber(self) -> list[bytes]:
        """The table's lines: simulator events keep their seq gaps (dropped events) and
        duplicates (same event id, same seq), injected events take the next seq."""
        out: list[bytes] = []
        shift, last = 0, 0
        assigned: dict[str, int] = {}
        for how, e in self.entries:
            e = dict(e)
            if how == "sim":
                e["seq"] = assigned.setdefault(e["event_id"], e["seq"] + shift)
                last = e["seq"]
            elif how == "stale":
                e["seq"] = max(1, last - 2)
            else:
                shift += 1
                last = e["seq"] = last + 1
            out.append(json.dumps(e).encode())
        return out


def stake_of(spec: TableSpec, units: int) -> str:
    return f"{spec.min_bet * units:.2f}"


def inject(t: Table, kind: str, round_id: str) -> bool:
    """Insert one ``kind`` rule break into ``round_id`` of table ``t``; False if it cannot go
    there (e.g. a round without bets)."""
    spec, game, rng = t.spec, t.spec.game, t.rng
    start = t.find(round_id, "round_started")
    assert start is not None
    started = t.entries[start][1]
    closed = t.find(round_id, "bets_closed")
    ended = t.find(round_id, "round_ended")
    bets = t.round_events(round_id, "bet_placed")
    player = ("player", "P-INJECTED")
    if game in FIRST_LAYOUT_GAMES or game == "poker":
        spot = {"french_roulette": "red", "blackjack": "main", "punto_banca": "banca", "chemin_de_fer": "punto",
                "bacara_dos_panos": "pano1", "poker": ""}[game]
        box = {"box": 1 + rng.randrange(spec.seats)} if game in ("blackjack", "chemin_de_fer",
                                                                 "bacara_dos_panos") else {}
        straight = "straight:17" if game == "french_roulette" else spot
    else:  # the spot (and box: a boule paño) of a bet of the round: on the layout, whatever the game
        if not bets:
            return False
        spot, straight = bets[0]["spot"], bets[0]["spot"]
        box = {"box": bets[0]["box"]} if bets[0].get("box") is not None else {}

    def bet(near: dict, spot: str, stake: str, **extra: Any) -> dict:
        bid = f"{spec.table_id}-X{rng.randrange(10**6):06d}"
        return t.event(near, "bet_placed", player, bet_id=bid, player_id=player[1], spot=spot, stake=stake,
                       **{**box, **extra})

    if kind == "late_bet":  # after «No va más»: past-posting
        if closed is None:
            return False
        t.insert(closed + 1, bet(t.entries[closed][1], spot, stake_of(spec, 1)))
    elif kind == "off_layout_bet":  # well-formed spot that is not on the game's layout
        bad = OFF_LAYOUT[game]
        t.insert(start + 1, bet(started, bad[0], stake_of(spec, 1), **bad[1]))
    elif kind == "over_maximum_bet":  # far above the table maximum
        t.insert(start + 1, bet(started, straight, f"{spec.max_bet * 10:.2f}"))
    elif kind == "below_minimum_bet":  # half the table minimum
        t.insert(start + 1, bet(started, straight, f"{spec.min_bet / 2:.2f}"))
    elif kind == "illegal_decision":
        if game == "blackjack":  # a double on a hand holding one card
            first = next((i for i, (how, e) in enumerate(t.entries) if how == "sim" and e.get("round_id") == round_id
                          and e["type"] == "card_dealt" and e["hand"] != "dealer"), None)
            if first is None:
                return False
            card = t.entries[first][1]
            t.insert(first + 1, t.event(card, "player_decision", player, decision="double", hand=card["hand"]))
        elif game == "french_roulette":  # en prison although the ball did not land on zero (or no such bet)
            landed = t.find(round_id, "ball_landed")
            if landed is None or t.entries[landed][1]["number"] == 0:
                return False
            target = bets[0]["bet_id"] if bets else "NO-SUCH-BET"
            t.insert(landed + 1, t.event(t.entries[landed][1], "player_decision", player, decision="en_prison",
                                         bet_id=target))
        else:  # a blackjack decision at punto y banca, chemin de fer or dos paños
            if closed is None:
                return False
            t.insert(closed + 1, t.event(t.entries[closed][1], "player_decision", player, decision="hit",
                                         hand="pano1" if game == "bacara_dos_panos" else "punto"))
    elif kind == "insurance_over_half":  # insurance of the whole stake (half at most)
        dealer = t.find(round_id, "card_dealt", hand="dealer")
        main = [b for b in bets if b.get("box")]
        if game != "blackjack" or dealer is None or not main:
            return False
        t.insert(dealer + 1, t.event(t.entries[dealer][1], "player_decision", ("player", main[0]["player_id"]),
                                     decision="insurance", bet_id=main[0]["bet_id"], amount=main[0]["stake"]))
    elif kind == "withdrawn_after_close":
        if closed is None or not bets:
            return False
        t.insert(closed + 1, t.event(t.entries[closed][1], "bet_withdrawn", ("player", bets[-1]["player_id"]),
                                     bet_id=bets[-1]["bet_id"]))
    elif kind == "unknown_bet_settled":  # money handed over for a bet nobody placed
        if ended is None:
            return False
        t.insert(ended, t.event(t.entries[ended][1], "settlement_recorded", bet_id=f"{spec.table_id}-GHOST",
                                outcome="win", returned=stake_of(spec, 3)))
    elif kind == "duplicate_event_id":  # another event under the id of one already received
        if game == "poker":  # the hand's next event (a button, a stack count), under the start's id
            copy = dict(t.entries[start + 1][1]) if len(t.entries) > start + 1 else dict(started)
        else:
            copy = bet(started, spot, stake_of(spec, 2))
        copy["event_id"] = started["event_id"]
        t.insert(start + 2 if len(t.entries) > start + 2 else start + 1, copy)
    elif kind == "stale_seq":  # a seq the table already used, with a new event id
        stale = t.event(started, "round_ended") if game == "poker" else bet(started, spot, stake_of(spec, 1))
        t.insert(start + 1, stale, how="stale")
    elif kind in ("reopen_wrong_ruleset", "reopen_same_ruleset", "closed_and_reopened"):  # between two rounds
        before = t.entries[start - 1][1] if start > 0 else started
        opened = t.event(before, "table_opened", ("pit_boss", "PB-1"),
                         **{k: t.opened[k] for k in ("ruleset_id", "jurisdiction", "min_bet", "max_bet",
                                                     "float_amount", "options")})
        opened["round_id"] = None
        if kind == "reopen_wrong_ruleset":
            other = [s for g, ss in FLOOR.items() if g != game for s in ss]
            opened["ruleset_id"] = rng.choice([s.ruleset_id for s in other] + [f"{game}.murcia"])
        t.insert(start, opened)
        if kind == "closed_and_reopened":
            closed_ = t.event(before, "table_closed", ("pit_boss", "PB-1"))
            closed_["round_id"] = None
            t.insert(start, closed_)
    elif kind == "limits_changed":  # between two rounds: minimum and maximum doubled
        before = t.entries[start - 1][1] if start > 0 else started
        changed = t.event(before, "limits_changed", ("pit_boss", "PB-1"), min_bet=f"{spec.min_bet * 2:.2f}",
                          max_bet=f"{spec.max_bet * 2:.2f}")
        changed["round_id"] = None
        t.insert(start, changed)
    else:  # pragma: no cover
        raise AssertionError(kind)
    return True


def share_player(first: Table, other: Table, pick: int) -> bool:
    """One of ``first``'s players plays at ``other`` too: every event of ``other`` naming one of its
    players names him instead (``pick`` chooses both). False if a table has no player."""
    def seated(t: Table) -> list[str]:
        return sorted({e["player_id"] for how, e in t.entries if e["type"] == "player_seated"})

    mine, theirs = seated(first), [p for p in seated(other) if p not in seated(first)]
    if not mine or not theirs:
        return False
    old, new = json.dumps(theirs[pick % len(theirs)]), json.dumps(mine[pick % len(mine)])
    for entry in other.entries:
        entry[1] = json.loads(json.dumps(entry[1]).replace(old, new))
    return True


def invalid_line(kind: str, event: dict, rng: random.Random) -> bytes:
    raw = json.dumps(event)
    if kind == "truncated":
        return raw[:rng.randrange(1, len(raw) - 1)].encode()
    if kind == "seq_not_a_number":
        return json.dumps(dict(event, seq=f"#{event['seq']}")).encode()
    if kind == "wrong_field_type":
        return json.dumps(dict(event, occurred_at=12345, round_id=7)).encode()
    return json.dumps([event["table_id"], event["seq"]]).encode()


def build(ev: Evening) -> tuple[dict[str, list[bytes]], Counter]:
    """The evening's lines per table (injections and invalid lines in place), and what was
    actually injected."""
    events, _labels = simulate(ev.specs, ev.hours, ev.seed, fault_rates=ev.rates)
    per_table: dict[str, list[dict]] = defaultdict(list)
    for e in events:
        per_table[e["table_id"]].append(e)
    rng = random.Random(ev.seed)
    tables = [Table(s, per_table[s.table_id], rng) for s in ev.specs]
    done: Counter = Counter()
    for kind, tpick, rpick in ev.injections:
        fit = [t for t in tables if t.spec.game in ONLY.get(kind, GAMES)]
        if kind == "two_tables":
            pairs_ = [(a, b) for a in fit for b in fit if a is not b and a.spec.casino_id == b.spec.casino_id]
            if pairs_ and share_player(*pairs_[tpick % len(pairs_)], rpick):
                done[kind] += 1
            continue
        if not fit:
            continue
        t = fit[tpick % len(fit)]
        rounds = t.rounds()
        for k in range(len(rounds)):  # the picked round, else the next one where it fits
            if inject(t, kind, rounds[(rpick + k) % len(rounds)]):
                done[kind] += 1
                break
    lines = {t.spec.table_id: t.renumber() for t in tables}
    for kind, tpick, ppick, replace in ev.invalid:
        tid = ev.specs[tpick % len(ev.specs)].table_id
        i = ppick % len(lines[tid])
        try:
            event = json.loads(lines[tid][i])
        except ValueError:
            continue  # already damaged
        if not isinstance(event, dict):
            continue
        lines[tid][i:i + replace] = [invalid_line(kind, event, rng)]
        done[kind] += 1
    return lines, done


# --------------------------------------------------------------------------- the three paths


def consume(lines: dict[str, list[bytes]], partitions: int, order_seed: int) -> list[InMessage]:
    """The lines as a consumer sees them: keyed by table, partition by CRC-32 of the key,
    offsets per partition; partitions interleaved in chunks (each table's lines stay in order)."""
    queues: dict[int, list[InMessage]] = defaultdict(list)
    for tid, tlines in lines.items():  # a table's lines all go to one partition
        p = zlib.crc32(tid.encode()) % partitions
        queues[p].extend(InMessage(tid.encode(), ln, p, 0) for ln in tlines)
    rng = random.Random(order_seed)
    for p, q in queues.items():  # a partition is a log: interleave its tables too
        by_table: dict[bytes, list[InMessage]] = defaultdict(list)
        for m in q:
            by_table[m.key or b""].append(m)
        rng.shuffle(q)
        merged = [by_table[m.key or b""].pop(0) for m in q]
        for off, m in enumerate(merged):
            m.offset = off
        queues[p] = merged
    for tid, tlines in lines.items():
        p = zlib.crc32(tid.encode()) % partitions
        mine = [m.value for m in queues[p] if m.key == tid.encode()]
        assert mine == tlines
    out: list[InMessage] = []
    heads = {p: 0 for p in queues}
    while heads:
        p = rng.choice(sorted(heads))
        n = rng.randint(1, 60)
        out.extend(queues[p][heads[p]:heads[p] + n])
        heads[p] += n
        if heads[p] >= len(queues[p]):
            del heads[p]
    return out


def run_live(messages: list[InMessage], ev: Evening, url: str) -> list[OutMessage]:
    """The stream processor over ``messages`` in batches; rows sunk into ``url``. Returns the
    messages it put on ``pitwatch.round-digests`` (round digests and ``table_closed`` marks), in
    the order produced: a batch redelivered after a crash without its states stored produces its
    digests again (at new offsets), as the worker, which stores a batch's rows, then produces its
    outputs, then stores its states, does when it dies between the last two."""
    store: dict[str, bytes] = {}
    proc = BatchProcessor(store.get, clock=lambda: CLOCK)
    pending: dict[str, list[dict]] = defaultdict(list)
    digests: list[OutMessage] = []
    wh = open_warehouse(url)
    try:
        wh.ensure_schema()

        def flush() -> None:
            for table, rows in pending.items():
                wh.insert_new(table, rows)
            pending.clear()

        batches = [messages[i:i + ev.batch] for i in range(0, len(messages), ev.batch)]
        for n, batch in enumerate(batches):
            res = proc.process(batch)
            for table, rows in res.rows.items():
                pending[table].extend(rows)
            if n in ev.crashes:
                # the worker dies after storing the batch's rows (and producing its outputs, if it
                # stored its states or on every other crash); the batch is redelivered to a new
                # worker, with or without the states it had stored
                flush()
                if ev.crash_stores_state or n % 2 == 0:
                    digests.extend(m for m in res.messages if m.topic == TOPIC_ROUND_DIGESTS)
                if ev.crash_stores_state:
                    store.update(res.states)
                proc = BatchProcessor(store.get, clock=lambda: CLOCK)
                res = proc.process(batch)
                for table, rows in res.rows.items():
                    pending[table].extend(rows)
            digests.extend(m for m in res.messages if m.topic == TOPIC_ROUND_DIGESTS)
            store.update(res.states)
            if n % ev.flush_every == 0:
                flush()
        flush()
    finally:
        wh.close()
    return digests


def closed_before(digests: list[OutMessage]) -> list[str]:
    """The digests, in the order produced, that come after their casino stopped waiting for their
    table: a table's round after its own ``table_closed`` (a session closed and opened again), or a
    table's first round after every table its casino had seen was closed (the release then let
    everything go). Each can reach the watch after rounds released with later ends, so it may be
    judged late (:mod:`pitwatch.detectors.release`, «Closing»); the others cannot."""
    seen: dict[str, set[str]] = defaultdict(set)
    closed: dict[str, set[str]] = defaultdict(set)
    out: list[str] = []
    for m in digests:
        msg = read_watch_message(m.value)
        cid, tid = msg.casino_id, msg.table_id
        if isinstance(msg, TableMark):
            closed[cid].add(tid)
            continue
        if tid in closed[cid]:
            out.append(f"{tid}/{msg.round_id}: after its table's table_closed")
            closed[cid].discard(tid)
        elif tid not in seen[cid] and seen[cid] and seen[cid] <= closed[cid]:
            out.append(f"{tid}/{msg.round_id}: its table's first, after every table of {cid} seen was closed")
        seen[cid].add(tid)
    return out


def run_watch(digests: list[OutMessage], ev: Evening, url: str) -> tuple[int, int]:
    """The watch stage over ``digests``, rows sunk into ``url``: keyed by casino, partition by
    CRC-32 of the key (``ev.partitions`` of them), offsets per partition in the order produced,
    consumed with the partitions interleaved in chunks, cut into batches of ``ev.batch``, the
    casinos' states stored between batches, a batch of ``ev.crashes`` redelivered (states stored or
    not, ``ev.crash_stores_state``). Returns ``(late, pending)``: the rounds the watch judged out of
    event-time order (``BatchResult.late``) and the rounds still pending at the end.

    At the end every casino's stored watch is flushed (:meth:`CasinoWatch.flush`, every pending
    round released) and those alerts sunk too: the live watch releases a casino's last rounds when
    every table it has seen is closed (a ``table_closed`` dropped, damaged or past the end leaves
    them waiting for more rounds), ``replay file`` at the end of its input, so the comparison is of
    the same rounds read in the same order."""
    queues: dict[int, list[InMessage]] = defaultdict(list)
    for m in digests:
        p = zlib.crc32(m.key) % ev.partitions
        queues[p].append(InMessage(m.key, m.value, p, len(queues[p])))
    rng = random.Random(ev.order_seed + 1)
    order: list[InMessage] = []
    heads = {p: 0 for p in queues}
    while heads:
        p = rng.choice(sorted(heads))
        n = rng.randint(1, 60)
        order.extend(queues[p][heads[p]:heads[p] + n])
        heads[p] += n
        if heads[p] >= len(queues[p]):
            del heads[p]
    store: dict[str, bytes] = {}
    late = 0
    with open_warehouse(url) as wh:
        def sink(res: BatchResult) -> None:
            assert res.rows["rejected"] == [] and res.parked == 0, (res.rows["rejected"], res.rows["parked"])
            for table, rows in res.rows.items():
                wh.insert_new(table, rows)

        proc = WatchProcessor(store.get, clock=lambda: CLOCK)
        for n, batch in enumerate(order[i:i + ev.batch] for i in range(0, len(order), ev.batch)):
            res = proc.process(batch)
            sink(res)
            late += res.late
            if n in ev.crashes:  # the worker dies after storing the rows; the batch comes again
                if ev.crash_stores_state:
                    store.update(res.states)
                proc = WatchProcessor(store.get, clock=lambda: CLOCK)
                res = proc.process(batch)
                sink(res)
                late += res.late
            store.update(res.states)
        pending = 0
        for blob in store.values():
            watch = CasinoWatch.load(blob)
            pending += len(watch.release.pending)
            wh.insert_new("alerts", [a.to_row() for a in watch.flush()])
    return late, pending


def replay_json(args: list[str]) -> list[dict]:
    res = runner.invoke(app, ["replay", *args, "--format", "json"], env={"COLUMNS": "200"})
    assert res.exit_code in (0, 1, 2), (args, res.output, res.exception)
    return [json.loads(ln) for ln in res.stdout.splitlines()]


def _money(v: Any) -> str:
    return "0.00" if v is None or v == "" else f"{Decimal(str(v)):.2f}"


def settlement_key(r: dict) -> tuple:
    return (r["bet_id"], r["player_id"], r["spot"], _money(r["stake"]), r["expected_outcome"],
            _money(r["expected_returned"]), _money(r["expected_commission"]), bool(r["recorded"]),
            r["recorded_outcome"] or "", _money(r["recorded_returned"]), _money(r["recorded_commission"]),
            _money(r["discrepancy"]), r["citation"], r["detail"])


def alert_key(r: dict) -> tuple:
    kind = r.get("violation_kind") or r["kind"]
    return (r["alert_id"], kind, r["bet_id"] or "", r["player_id"] or "", _money(r["amount"]), r["citation"],
            r["message"], tuple(r["evidence"]))


def is_cross_round(r: dict) -> bool:
    return (r.get("violation_kind") or r["kind"], r["citation"]) in CROSS_ROUND


def cross_key(r: dict) -> tuple:
    """A cross-round alert, every field: ids, kind, severity, parties, money, message, citation,
    evidence, score and ``detected_at`` to the millisecond (the warehouse's ``detected_at`` and
    ``detected_ms``, or the JSON's time)."""
    kind = r.get("violation_kind") or r["kind"]
    at = r["detected_at"]
    if isinstance(at, datetime):
        at = f"{at:%Y-%m-%dT%H:%M:%S}.{r['detected_ms']:03d}Z"
    return (r["alert_id"], kind, r["severity"], r["table_id"], r["round_id"] or "", r["bet_id"] or "",
            r["player_id"] or "", r["dealer_id"] or "", _money(r["amount"]), r["message"], r["citation"],
            tuple(r["evidence"]), tuple(r["parties"]), float(r["score"]), at)


@dataclass
class Verdicts:
    """One path's findings: per round (table, round) its settlements, its verdict's violations
    and every alert of the round; per table its alerts outside rounds; rejected reasons; the
    cross-round alerts by id (:func:`cross_key`)."""

    settlements: dict[tuple[str, str], set] = field(default_factory=lambda: defaultdict(set))
    verdict_alerts: dict[tuple[str, str], set] = field(default_factory=lambda: defaultdict(set))
    round_alerts: dict[tuple[str, str], set] = field(default_factory=lambda: defaultdict(set))
    table_alerts: dict[str, set] = field(default_factory=lambda: defaultdict(set))
    rounds: set[tuple[str, str]] = field(default_factory=set)
    rejected: Counter = field(default_factory=Counter)
    alert_ids: set[str] = field(default_factory=set)
    cross: dict[str, tuple] = field(default_factory=dict)


def from_warehouse(url: str) -> tuple[Verdicts, list[tuple[str, str]]]:
    """The live verdicts (what the warehouse holds) and the rounds with a stored event."""
    v = Verdicts()
    with open_warehouse(url) as wh:
        for r in wh.rows("settlements"):
            key = (r["table_id"], r["round_id"])
            v.settlements[key].add(settlement_key(r))
            v.rounds.add(key)
        for r in wh.rows("alerts"):
            if is_cross_round(r):
                v.cross[r["alert_id"]] = cross_key(r)
                continue
            if not r["round_id"]:
                v.table_alerts[r["table_id"]].add(alert_key(r))
                continue
            key = (r["table_id"], r["round_id"])
            v.round_alerts[key].add(alert_key(r))
            if r["kind"] not in PER_MESSAGE_KINDS:
                v.verdict_alerts[key].add(alert_key(r))
                v.rounds.add(key)
        v.rejected.update(r["reason"] for r in wh.rows("rejected"))
        stored = sorted({(r[0], r[1]) for r in wh.query(
            "SELECT DISTINCT table_id, round_id FROM pitwatch.events_raw FINAL WHERE round_id != ''")})
    return v, stored


def parse_records(records: list[dict], into: Verdicts) -> list[dict]:
    """Fold ``replay --format json`` records into ``into``; returns the invalid_line records."""
    assert records and records[-1]["kind"] == "summary", records[-3:]
    invalid = []
    i = 0
    while i < len(records) - 1:
        r = records[i]
        if r["kind"] == "round":
            key = (r["table_id"], r["round_id"])
            assert key not in into.rounds, f"round {key} judged twice"
            into.rounds.add(key)
            sets = records[i + 1:i + 1 + r["bets"]]
            viols = records[i + 1 + r["bets"]:i + 1 + r["bets"] + r["violations"]]
            assert {s["kind"] for s in sets} <= {"settlement"} and {x["kind"] for x in viols} <= {"violation"}
            into.settlements[key].update(settlement_key(s) for s in sets)
            for x in viols:
                assert (x["table_id"], x["round_id"]) == key
                if x["alert_id"] in into.alert_ids:
                    continue  # the warehouse keeps the first alert of an id
                into.alert_ids.add(x["alert_id"])
                into.verdict_alerts[key].add(alert_key(x))
                into.round_alerts[key].add(alert_key(x))
            i += 1 + r["bets"] + r["violations"]
            continue
        if r["kind"] == "violation":
            if r["violation_kind"] == "duplicate_event":  # the live pipeline keeps the copy's bytes
                into.rejected[f"{r['message']}: not applied"] += 1
            if r["alert_id"] in into.alert_ids:
                pass  # the warehouse keeps the first alert of an id
            elif is_cross_round(r):
                into.cross[r["alert_id"]] = cross_key(r)
            elif r["round_id"] is None:
                into.table_alerts[r["table_id"]].add(alert_key(r))
            else:
                into.round_alerts[(r["table_id"], r["round_id"])].add(alert_key(r))
            into.alert_ids.add(r["alert_id"])
        elif r["kind"] == "invalid_line":
            invalid.append(r)
            into.rejected[r["reason"]] += 1
        else:  # pragma: no cover
            raise AssertionError(r)
        i += 1
    return invalid


def _first_difference(what: str, keys: list, paths: dict[str, dict]) -> str | None:
    for key in keys:
        got = {name: p.get(key, set()) for name, p in paths.items()}
        values = list(got.values())
        if any(v != values[0] for v in values[1:]):
            lines = [f"{what} differ first at {key}:"]
            union = set().union(*values)
            for item in sorted(union, key=repr):
                where = [n for n, v in got.items() if item in v]
                if len(where) != len(got):
                    lines.append(f"  only in {'+'.join(where)}: {item}")
            if len(lines) > 13:
                lines[13:] = [f"  ... and {len(lines) - 13} more"]
            return "\n".join(lines)
    return None


def judge_three_ways(ev: Evening, url: str, tmp: Path, every: int = 1
                     ) -> tuple[Verdicts, Verdicts, Verdicts, Counter, set[tuple[str, str]]]:
    """The three paths' verdicts of ``ev``, what was injected, and the rounds replayed one by one
    from the warehouse: every ``every``-th round with a stored event (a CLI run each: a long evening
    replays a sample; :func:`compare` compares the others live against ``replay file``)."""
    lines, done = build(ev)
    messages = consume(lines, ev.partitions, ev.order_seed)
    digests = run_live(messages, ev, url)
    late, _pending = run_watch(digests, ev, url)
    # Within the release's bounds the watch's alerts do not depend on the delivery: an open table
    # lagging the others holds the release back, so a round is late only if its casino had stopped
    # waiting for its table (:func:`closed_before`: a table closed and opened again, or first seen
    # after the casino's other tables had all closed, their partitions consumed first). The replay
    # file reads the rounds in the same order, so it judges the same rounds late and must still
    # agree; any other late round is outside the bounds.
    assert late == 0 or closed_before(digests), f"the watch judged {late} rounds late"
    live, stored = from_warehouse(url)

    path = tmp / "evening.jsonl"
    path.write_bytes(b"".join(m.value + b"\n" for m in messages))
    file = Verdicts()
    parse_records(replay_json(["file", str(path)]), file)

    one = Verdicts()
    replayed = set(stored[::every])
    for tid, rid in stored[::every]:
        records = replay_json(["round", tid, rid, "--warehouse", url])
        if not records:
            continue  # not found: the round reached no verdict
        bad = parse_records(records, one)
        assert bad == [], f"replay round {tid} {rid}: stored events it cannot replay: {bad}"
    return live, one, file, done, replayed


def compare(live: Verdicts, one: Verdicts, file: Verdicts, replayed: set[tuple[str, str]] | None = None) -> None:
    """Assert the paths agree (module docstring); ``replayed``: the rounds ``replay round`` was run on
    (``None``: all), the others' settlements and violations are compared live against ``replay file``."""
    rounds = sorted(live.rounds | one.rounds | file.rounds | set(live.round_alerts) | set(file.round_alerts))
    three = rounds if replayed is None else [r for r in rounds if r in replayed]
    two = [] if replayed is None else [r for r in rounds if r not in replayed]
    judged = {"live": live, "replay round": one, "replay file": file}
    pair = {"live": live, "replay file": file}
    problems = [
        _first_difference("round verdicts (which rounds were judged)", [None],
                          {"replay round": {None: one.rounds},
                           "replay file": {None: file.rounds if replayed is None else file.rounds & replayed}}),
        _first_difference("settlements", three, {n: p.settlements for n, p in judged.items()}),
        _first_difference("verdict violations", three, {n: p.verdict_alerts for n, p in judged.items()}),
        _first_difference("settlements", two, {n: p.settlements for n, p in pair.items()}),
        _first_difference("verdict violations", two, {n: p.verdict_alerts for n, p in pair.items()}),
        _first_difference("alerts of the round", rounds, {"live": live.round_alerts, "replay file": file.round_alerts}),
        _first_difference("table-level alerts", sorted(set(live.table_alerts) | set(file.table_alerts)),
                          {"live": live.table_alerts, "replay file": file.table_alerts}),
        _first_difference("rejected messages", [None], {"live": {None: set(live.rejected.items())},
                                                         "replay file": {None: set(file.rejected.items())}}),
        _first_difference("cross-round alerts (every field)", [None], {"live": {None: set(live.cross.values())},
                                                                      "replay file": {None: set(file.cross.values())}}),
    ]
    found = [p for p in problems if p]
    assert not found, "\n".join(found)


# --------------------------------------------------------------------------- the property


def _fresh_url(chdb_path: str) -> str:
    return f"chdb://{chdb_path}?database=t_{uuid.uuid4().hex[:12]}"


@settings(max_examples=20, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@example(ev=ALL_ON)
@example(ev=ALL_CLOSED_FIRST)
@given(ev=evenings())
def test_live_replay_round_and_replay_file_agree_on_every_round(ev, chdb_path, tmp_path):
    url = _fresh_url(chdb_path)
    try:
        live, one, file, _, _ = judge_three_ways(ev, url, tmp_path)
        compare(live, one, file)
    finally:
        with open_warehouse(url) as wh:
            wh.drop_database()



def test_the_explicit_example_exercises_every_fault_rule_break_and_invalid_line():
    """``ALL_ON``, which the property always runs, does exercise what it claims: every game's tables
    play, the simulator injects every fault kind but one, every injection (every layout injection at every
    layout game) and kind of invalid line goes in, and each kind of finding they should cause is there, a
    cross-round alert among them (the comparison is not one of empty sets)."""
    events, labels = simulate(ALL_ON.specs, ALL_ON.hours, ALL_ON.seed, fault_rates=ALL_ON.rates)
    assert len(list(events)) > 1000
    # a whipsaw needs the ring's two partners and a third player raising around each other, which a
    # dozen hands of half an hour do not deal (their cross-round alerts: tests/test_soft_play_whipsaw.py)
    assert {lb["kind"] for lb in labels} == set(FAULT_KINDS) - {"whipsaw"}
    lines, done = build(ALL_ON)
    assert set(done) == set(INJECTIONS) | set(INVALID_LINES)
    kinds: Counter = Counter()
    cross: Counter = Counter()
    games: set[str] = set()
    at: dict[str, set[str]] = defaultdict(set)
    invalid = 0
    for item in replay_lines(ln for table in lines.values() for ln in table):
        kinds.update(a.kind for a in item.alerts)
        cross.update(a.kind for a in item.alerts if (a.kind, a.citation) in CROSS_ROUND)
        games.update([item.verdict.game] if item.verdict else [])
        if item.verdict:
            at[item.verdict.game].update(a.kind for a in item.alerts)
        invalid += item.error is not None
    assert games == set(GAMES)
    # every layout injection went in at every layout game (each game's first table), and was found there:
    # the late bet and the withdrawal after «No va más», the bet off the layout, the limits, the ghost paid
    assert done["off_layout_bet"] >= len(LAYOUT_GAMES), done
    for game in LAYOUT_GAMES:
        assert {"past_posting", "invalid_bet", "bet_above_maximum", "bet_below_minimum",
                "unknown_bet_settled"} <= at[game], (game, at[game])
    assert {"payout_discrepancy", "past_posting", "bet_above_maximum", "dealer_misdraw", "spin_direction",
            "illegal_decision", "sequence_gap", "duplicate_event", "invalid_bet", "unknown_bet_settled",
            "rejected_event", "bet_below_minimum", "procedure", "float_discrepancy", "rake_discrepancy",
            "prohibited_play"} <= set(kinds), kinds
    # the player at two poker tables, found by the watch stage (the two injections: one each way)
    assert cross == {"prohibited_play": 2}, cross
    assert invalid >= len(INVALID_LINES) + 2  # the invalid lines and the stale seqs
