"""Casino-floor simulator framework: tables, players, dealers, timing, and labelled faults.

A simulated evening is N tables, each a deterministic generator seeded from the run seed and
the table's index. Game modules (:mod:`pitwatch.sim.roulette`, :mod:`pitwatch.sim.blackjack`,
:mod:`pitwatch.sim.baccarat`) write a round's bets, outcome events and decisions; this
framework wraps them with the table lifecycle (open, dealer rotation, players coming and
going, close), records the payment of every bet that the game module computed from the
simulator's own payout table (:mod:`pitwatch.sim.payouts`, written from the regulations apart
from the rules engine, so that a wrong payout in the engine shows up as a detection error),
and injects faults at configurable rates:

======================  =========================================  ======================
fault                   what happens                               where
======================  =========================================  ======================
``wrong_payout``        one recorded settlement is off by chips    framework
``late_bet``            a bet placed after «No va más»             game module
``over_limit_bet``      a stake above the maximum of its kind      game module
``dealer_misdraw``      a draw contrary to the dealer rule         game module (cards)
``spin_direction``      wheel spun the same way as the last spin   roulette module
``illegal_decision``    e.g. a blackjack double on 12              blackjack module
``dropped_event``       an event never reaches the log (seq gap)   framework
``duplicated_event``    an event is delivered twice                framework
``chips_missing``       the closing count is short (per session)   framework (cage)
``dealer_collusion``    the ring's dealer over-pays his partner    framework
``chip_dumping``        a player loses on purpose to his partner   poker module
``soft_play``           two partners never bet into each other     poker module
``whipsaw``             two partners re-raise around a third       poker module
``wrong_cagnotte``      the cagnotte taken is off by a few chips   chemin de fer, dos paños modules
``joined_stake``        a punter joins another's stake             chemin de fer, dos paños modules
``association``         two punters stake in lockstep              chemin de fer, dos paños modules
======================  =========================================  ======================

Those are the framework's kinds (:data:`FAULT_KINDS`, :data:`FAULT_ALERTS`). A game's simulator module
declares the kinds only it injects in its ``FAULTS`` (:data:`SIMULATOR_TRAITS`): ``off_layout_bet``, a chip
on a spot the layout lacks (French roulette abreviada), ``colour_misvalued``, a colour bet paid at another
value than its marker's (American roulette). :func:`fault_kinds`
(what a rate may be given for) and :func:`fault_alerts` (what catches each) are the framework's and the games'.

A table's crew is a roster of :data:`DEALER_ROSTER` dealers taking turns, so a dealer comes back
to the table. With ``dealer_collusion`` on, each table has a ring: its first dealer
(``D-<table>-01``) and its first player (``P-<table>-001``, who then stays all evening); while that
dealer deals, each of the partner's bets is over-paid by a few chips with the fault's probability
(each one labelled, and each a payout discrepancy for the engine; the ring as a whole is what
:mod:`pitwatch.detectors.pairs` finds).

The table's chips are followed by :class:`pitwatch.sim.cage.TableChips`: fills and credits
keep the float stocked, players tip now and then, and ``table_closed`` carries the count.

Each injected fault is labelled (kind, table, round, bet) so detection can be scored
(:func:`score`).
"""

from __future__ import annotations

import heapq
import random
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Any, Callable, Iterator

from pitwatch.catalogue import JURISDICTIONS
from pitwatch.rules.base import load_ruleset
from pitwatch.rules.game import TableContext
from pitwatch.rules.registry import spec as game_spec
from pitwatch.schemas.events import EVENT_CLASS_BY_TYPE
from pitwatch.sim.cage import TableChips
from pitwatch.sim.payouts import Payment

FAULT_KINDS = (
    "wrong_payout", "late_bet", "over_limit_bet", "dealer_misdraw", "spin_direction",
    "illegal_decision", "dropped_event", "duplicated_event", "chips_missing", "dealer_collusion", "chip_dumping",
    "soft_play", "whipsaw", "wrong_cagnotte", "joined_stake", "association",
)

DEALER_ROSTER = 3
"""Dealers who take turns at a table (``D-<table>-01`` .. ``-03``)."""

FAULT_ALERTS: dict[str, frozenset[str]] = {
    "wrong_payout": frozenset({"payout_discrepancy"}),
    "late_bet": frozenset({"past_posting"}),
    "over_limit_bet": frozenset({"bet_above_maximum"}),
    "dealer_misdraw": frozenset({"dealer_misdraw"}),
    "spin_direction": frozenset({"spin_direction"}),
    "illegal_decision": frozenset({"illegal_decision"}),
    "dropped_event": frozenset({"sequence_gap"}),
    "duplicated_event": frozenset({"duplicate_event"}),
    "chips_missing": frozenset({"float_discrepancy"}),
    "dealer_collusion": frozenset({"payout_discrepancy"}),
    "chip_dumping": frozenset({"chip_dumping"}),
    "soft_play": frozenset({"soft_play"}),
    "whipsaw": frozenset({"whipsaw"}),
    "wrong_cagnotte": frozenset({"rake_discrepancy"}),
    "joined_stake": frozenset({"prohibited_play"}),
    "association": frozenset({"association"}),
}
"""The alert kinds that count as catching each of the framework's fault kinds (:data:`FAULT_KINDS`); with
the kinds the games' simulators declare: :func:`fault_alerts`."""


def fault_alerts() -> dict[str, frozenset[str]]:
    """Every fault kind -> the alert kinds that catch it: :data:`FAULT_ALERTS`, then the ``FAULTS`` of every
    catalogue game's simulator module (:data:`SIMULATOR_TRAITS`), in catalogue order. A kind two modules
    declare (or a module and the framework) must be caught by the same alerts: raises ``ValueError`` naming
    the kind and the module otherwise."""
    import importlib

    from pitwatch.rules.registry import specs

    out = dict(FAULT_ALERTS)
    for sp in specs():
        module = importlib.import_module(sp.simulator)
        for kind, catching in getattr(module, "FAULTS", {}).items():
            catching = frozenset(catching)
            if out.setdefault(kind, catching) != catching:
                raise ValueError(f"{sp.simulator}.FAULTS: fault kind {kind!r} caught by {sorted(catching)}, "
                                 f"already declared caught by {sorted(out[kind])}")
    return out


def fault_kinds() -> tuple[str, ...]:
    """Every fault kind a rate may be given for: :data:`FAULT_KINDS`, then the kinds the catalogue games'
    simulator modules declare (``FAULTS``), in catalogue order, each once (:func:`fault_alerts`)."""
    return tuple(fault_alerts())

HIDDEN_BY_DROP = frozenset({"unknown_bet_settled"})
"""Alert kinds that also catch a payout fault (``wrong_payout``, ``dealer_collusion``) on a bet whose
``bet_placed`` was dropped (a ``dropped_event`` label on the same bet): the engine cannot know what
was due on a bet it never saw, and flags its settlement as unknown instead (:func:`score`)."""

RING_FAULTS: dict[str, str] = {"dealer_collusion": "dealer_player_collusion", "chip_dumping": "chip_dumping",
                               "soft_play": "soft_play", "whipsaw": "whipsaw", "association": "association"}
"""Faults played by a ring (two parties, over many rounds) -> the cross-round detector's alert kind
that finds the ring (:func:`score_rings`). A ``chip_dumping``, ``soft_play`` or ``whipsaw`` hand, or an
``association`` coup, shows nothing by itself, so their labels are scored as a ring only; a
``dealer_collusion`` over-payment is also a payout discrepancy of its round."""
RING_ONLY = frozenset({"chip_dumping", "soft_play", "whipsaw", "association"})
"""Fault kinds scored as rings only, not round by round (:func:`score`)."""
POKER_RINGS = ("chip_dumping", "soft_play", "whipsaw")
"""The rings played at a poker table by two of its players (:mod:`pitwatch.sim.poker`)."""
BACCARAT_RINGS = ("association",)
"""The rings played at a chemin de fer or bacará a dos paños table by two of its punters
(:mod:`pitwatch.sim.chemin_de_fer`, :mod:`pitwatch.sim.dos_panos`)."""


def ring_parties(kind: str, table_id: str) -> tuple[str, str]:
    """The two parties of a table's ring: ``dealer_collusion``: the table's first dealer and first
    player; at a poker table, ``chip_dumping``: the dumper and the gainer, its second and third
    players; ``soft_play``: its fourth and fifth; ``whipsaw``: its sixth and seventh; at a chemin de
    fer or dos paños table, ``association``: its second player (who leads) and its third (who follows). Raises
    ``KeyError`` for a kind not in :data:`RING_FAULTS`."""
    parties = {"dealer_collusion": (f"D-{table_id}-01", f"P-{table_id}-001"),
               "chip_dumping": (f"P-{table_id}-002", f"P-{table_id}-003"),
               "soft_play": (f"P-{table_id}-004", f"P-{table_id}-005"),
               "whipsaw": (f"P-{table_id}-006", f"P-{table_id}-007"),
               "association": (f"P-{table_id}-002", f"P-{table_id}-003")}
    return parties[kind]

RING_MEMBERS: dict[str, tuple[int, ...]] = {"soft_play": (4, 5, 8, 10), "whipsaw": (6, 7, 9, 11)}
"""The players of a ring of more than two, by their number at the table (``P-<table>-<n>``), for the
kinds a larger ring plays (every pair of it plays the pattern); the first two are
:func:`ring_parties`'."""


def ring_members(kind: str, table_id: str, size: int = 2) -> tuple[str, ...]:
    """The ``size`` players of a table's ring of ``kind``: :func:`ring_parties` for two (and for the
    kinds only two play: chip dumping, association, a dealer and his partner), else the first
    ``size`` of :data:`RING_MEMBERS`. Raises ``ValueError`` for a size the kind cannot have."""
    if size == 2 or kind not in RING_MEMBERS:
        return ring_parties(kind, table_id)
    numbers = RING_MEMBERS[kind]
    if not 2 <= size <= len(numbers):
        raise ValueError(f"a {kind} ring has 2 to {len(numbers)} players, not {size}")
    return tuple(f"P-{table_id}-{n:03d}" for n in numbers[:size])


DEFAULT_FAULT_RATES: dict[str, float] = {
    "wrong_payout": 0.02, "late_bet": 0.01, "over_limit_bet": 0.01, "dealer_misdraw": 0.01,
    "spin_direction": 0.01, "illegal_decision": 0.01, "dropped_event": 0.002,
    "duplicated_event": 0.002, "chips_missing": 0.3,
}
"""Default per-round fault probabilities (``dropped_event``/``duplicated_event``: per event;
``chips_missing``: per table session)."""


@dataclass
class SimPlayer:
    """A player at a table. ``style``: ``cautious``, ``regular`` or ``high_roller``."""

    player_id: str
    seat: int
    style: str


@dataclass
class TableSpec:
    """How to open a simulated table: game, ruleset and limits in euros."""

    table_id: str
    casino_id: str
    game: str
    ruleset_id: str
    min_bet: Decimal
    max_bet: Decimal
    options: dict[str, str] = field(default_factory=dict)
    seats: int = 7


@dataclass
class SimTable:
    """A table as the game modules see it (see the module docstring of each game sim)."""

    table_id: str
    game: str
    ruleset_id: str
    dealer_id: str
    min_bet: Decimal
    max_bet: Decimal
    options: dict[str, str]
    players: list[SimPlayer]
    rng: random.Random
    state: dict
    ctx: TableContext
    _bet_counter: int = 0

    def stake(self, player: SimPlayer, maximum: Decimal | None = None) -> Decimal:
        """A realistic stake in whole multiples of the table minimum, within
        ``[min_bet, maximum or max_bet]`` (euros). Cautious players stay near the minimum,
        high rollers bet large, sometimes the maximum."""
        hi = self.max_bet if maximum is None else min(maximum, self.max_bet)
        lo = self.min_bet
        units_max = max(1, int(hi // lo))
        r = self.rng.random()
        if player.style == "cautious":
            units = 1 if r < 0.7 else 2
        elif player.style == "regular":
            units = self.rng.choice((1, 1, 2, 2, 3, 4, 5))
        else:
            units = units_max if r < 0.2 else max(1, int(units_max * self.rng.uniform(0.2, 0.9)))
        return lo * min(units, units_max)

    def new_bet_id(self) -> str:
        """A bet id unique on this table (``<table>-B<n>``)."""
        self._bet_counter += 1
        return f"{self.table_id}-B{self._bet_counter:06d}"


class Faults:
    """Fault injection for one table: deterministic draws and labels."""

    def __init__(self, rates: dict[str, float], rng: random.Random, table_id: str,
                 labels: list[dict], ring_size: int = 2):
        self.rates = rates
        self.rng = rng
        self.table_id = table_id
        self.labels = labels
        self.ring_size = ring_size
        """Players of each ring of :data:`RING_MEMBERS`' kinds (:func:`ring_members`)."""

    def hit(self, kind: str) -> bool:
        """True with the configured probability of ``kind`` (0 when not configured)."""
        rate = self.rates.get(kind, 0.0)
        return rate > 0 and self.rng.random() < rate

    def label(self, kind: str, round_id: str | None, bet_id: str | None = None, detail: str = "") -> None:
        """Record an injected fault for scoring."""
        self.labels.append({"kind": kind, "table_id": self.table_id, "round_id": round_id or "",
                            "bet_id": bet_id or "", "detail": detail})


class Emit:
    """Emits events for one table: fills the envelope, advances the table clock, validates the
    event against the event schema, and applies dropped/duplicated-event faults."""

    def __init__(self, runner: "_TableRunner"):
        self._r = runner
        self.round_id: str | None = None

    def __call__(self, type: str, *, actor: tuple[str, str] | None = None, dt: float = 1.0,
                 **payload: Any) -> dict:
        return self._r.emit(type, self.round_id, actor, dt, payload)

    def table_event(self, type: str, *, actor: tuple[str, str] | None = None, dt: float = 1.0,
                    **payload: Any) -> dict:
        return self._r.emit(type, None, actor, dt, payload)


def _jsonable(payload: dict) -> dict:
    out = {}
    for k, v in payload.items():
        out[k] = f"{v:.2f}" if isinstance(v, Decimal) else v
    return out


STRUCTURAL = frozenset({"round_started", "round_ended", "table_opened", "table_closed", "dealer_assigned"})

SIMULATOR_TRAITS = ("DROPPABLE", "MIN_PLAYERS", "RINGS", "PREFIX", "FAULTS", "table")
"""What a game's simulator module (its spec's ``simulator``) may define beside ``play_round``: ``DROPPABLE``, the
event types a ``dropped_event`` fault may remove (only those whose loss stays inside the round; default none);
``MIN_PLAYERS``, the players a table needs before a round (default 2); ``RINGS``, the rings of two players
its tables play (both stay all evening; default none); ``PREFIX``, two letters of its tables' ids (``RA``);
``FAULTS: dict[str, frozenset[str]]``, the fault kinds only it injects -> the alert kinds that catch each
(default none; a rate may then be given for them and :func:`score` scores them: :func:`fault_alerts`); and
``table(table_id, casino_id, ruleset_id) -> TableSpec``, a table of the game with its usual limits: a game added
on the platform puts its tables on a floor with them (:func:`catalogue_tables`)."""


class _TableRunner:
    def __init__(self, spec: TableSpec, seed: int, index: int, start: datetime, hours: float,
                 rates: dict[str, float], labels: list[dict], ring_size: int = 2):
        import importlib

        self.spec = spec
        self.rng = random.Random(f"{seed}:{index}:{spec.table_id}")
        self.clock = start + timedelta(seconds=self.rng.uniform(0, 600))
        self.end = start + timedelta(hours=hours)
        self.seq = 0
        self.rates = rates
        self.labels = labels
        self.faults = Faults(rates, self.rng, spec.table_id, labels, ring_size)
        self.game = importlib.import_module(game_spec(spec.game).simulator)
        self.out: list[tuple[datetime, int, dict]] = []
        self.dealer_n = 0
        self.player_n = 0
        ruleset = load_ruleset(spec.ruleset_id)
        ctx = TableContext(spec.casino_id, spec.table_id, spec.game, ruleset, spec.min_bet,
                           spec.max_bet, dict(spec.options))
        self.table = SimTable(spec.table_id, spec.game, spec.ruleset_id, "", spec.min_bet,
                              spec.max_bet, dict(spec.options), [], self.rng, {}, ctx)
        self.emitter = Emit(self)
        self.droppable: frozenset[str] = getattr(self.game, "DROPPABLE", frozenset())
        self.chips = TableChips(spec.min_bet * 1000)
        self.cage_rng = random.Random(f"{seed}:{index}:{spec.table_id}:cage")
        self.ring = ring_parties("dealer_collusion", spec.table_id)
        self.partner_bets: set[str] = set()
        """Bets placed by the ring's partner (the ones his dealer may over-pay)."""
        self.stay: set[str] = set()
        """Players who never leave: the rings' (``dealer_collusion``: the partner; both players of each
        ring its game's simulator plays, ``RINGS``; :func:`ring_members`)."""
        if rates.get("dealer_collusion"):
            self.stay.add(self.ring[1])
        for kind in getattr(self.game, "RINGS", ()):
            if rates.get(kind):
                self.stay |= set(ring_members(kind, spec.table_id, ring_size))
        self.min_players: int = getattr(self.game, "MIN_PLAYERS", 2)

    # -- events
    def emit(self, type: str, round_id: str | None, actor: tuple[str, str] | None, dt: float,
             payload: dict) -> dict:
        self.clock += timedelta(seconds=max(0.05, dt * self.rng.uniform(0.7, 1.3)))
        self.seq += 1
        role, aid = actor if actor is not None else ("dealer", self.table.dealer_id or "D-none")
        ev = {
            "event_id": str(uuid.UUID(int=self.rng.getrandbits(128), version=4)),
            "schema_version": 1, "casino_id": self.spec.casino_id, "table_id": self.spec.table_id,
            "game": self.spec.game, "seq": self.seq, "round_id": round_id,
            "occurred_at": self.clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.clock.microsecond // 1000:03d}Z",
            "actor": {"role": role, "id": aid}, "type": type, **_jsonable(payload),
        }
        EVENT_CLASS_BY_TYPE[type].model_validate(ev)  # a malformed event is a simulator bug: raise
        if type == "bet_placed" and payload["player_id"] == self.ring[1]:
            self.partner_bets.add(payload["bet_id"])
        self.chips.observe(type, payload)  # it happened at the table, logged or not
        if round_id is not None and type in self.droppable and self.faults.hit("dropped_event"):
            self.faults.label("dropped_event", round_id, payload.get("bet_id"), f"seq {self.seq} ({type}) dropped")
            return ev
        self.out.append((self.clock, self.seq, ev))
        if round_id is not None and type not in STRUCTURAL and self.faults.hit("duplicated_event"):
            self.faults.label("duplicated_event", round_id, payload.get("bet_id"), f"seq {self.seq} ({type}) sent twice")
            self.out.append((self.clock, self.seq, ev))
        return ev

    def new_dealer(self) -> None:
        self.dealer_n += 1
        self.table.dealer_id = f"D-{self.spec.table_id}-{(self.dealer_n - 1) % DEALER_ROSTER + 1:02d}"
        self.emitter.table_event("dealer_assigned", actor=("pit_boss", "PB-1"), dt=30,
                                 dealer_id=self.table.dealer_id)

    def seat_player(self) -> None:
        taken = {p.seat for p in self.table.players}
        free = [s for s in range(1, self.spec.seats + 1) if s not in taken]
        if not free:
            return
        self.player_n += 1
        style = self.rng.choices(("cautious", "regular", "high_roller"), (0.35, 0.5, 0.15))[0]
        p = SimPlayer(f"P-{self.spec.table_id}-{self.player_n:03d}", self.rng.choice(free), style)
        self.table.players.append(p)
        self.emitter.table_event("player_seated", actor=("player", p.player_id), dt=20,
                                 player_id=p.player_id, seat=p.seat)
        buy_in = self.spec.min_bet * self.rng.choice((20, 40, 100, 200))
        self.table.state.setdefault("bought", {})[p.player_id] = buy_in  # a poker player's first stack
        self.emitter.table_event("chips_bought", actor=("player", p.player_id), dt=10,
                                 player_id=p.player_id, amount=buy_in)

    def run(self) -> Iterator[tuple[datetime, int, dict]]:
        spec, t = self.spec, self.table
        self.emitter.table_event(
            "table_opened", actor=("pit_boss", "PB-1"), dt=1, ruleset_id=spec.ruleset_id,
            jurisdiction=t.ctx.ruleset.jurisdiction, min_bet=spec.min_bet, max_bet=spec.max_bet,
            float_amount=self.chips.anticipo, options=dict(spec.options))
        self.new_dealer()
        for _ in range(self.rng.randint(3, min(5, spec.seats))):
            self.seat_player()
        next_dealer = self.clock + timedelta(minutes=self.rng.uniform(20, 40))
        n = 0
        yield from self._drain()
        while True:
            n += 1
            round_id = f"{spec.table_id}-R{n:05d}"
            last = self.clock + timedelta(minutes=3) >= self.end
            if self.clock >= next_dealer:
                self.new_dealer()
                next_dealer = self.clock + timedelta(minutes=self.rng.uniform(20, 40))
            if self.rng.random() < 0.05 and len(t.players) > 2:
                i = self.rng.randrange(len(t.players))
                for _ in range(len(t.players)):  # the rings' players stay
                    if t.players[i].player_id not in self.stay:
                        break
                    i = (i + 1) % len(t.players)
                if t.players[i].player_id not in self.stay:
                    p = t.players.pop(i)
                    self.emitter.table_event("player_left", actor=("player", p.player_id), dt=5,
                                             player_id=p.player_id)
            if self.rng.random() < 0.06 or len(t.players) < 2:
                self.seat_player()
            while len(t.players) < min(self.min_players, spec.seats):
                self.seat_player()
            self.game.prepare(t, self.emitter)
            self.emitter.round_id = round_id
            t.state["last_of_session"] = last
            self.emitter("round_started", dt=5, last_of_session=last)
            n_labels = len(self.labels)  # this round's labels are appended synchronously below
            payments = self.game.play_round(t, round_id, self.emitter, self.faults)
            self.chips.count += t.state.pop("layout_in", Decimal("0.00"))  # e.g. a player's bank in play
            self._settle(round_id, payments)
            for lb in self.labels[n_labels:]:  # a late bet nobody settled was refused: chips back
                if lb["kind"] == "late_bet":
                    self.chips.hand_back(lb["bet_id"])
            self.emitter("round_ended", dt=2)
            self.emitter.round_id = None
            self._between_rounds()
            yield from self._drain()
            if last:
                break
        count = self.chips.count
        if self.faults.hit("chips_missing"):
            short = spec.min_bet * self.rng.choice((1, 2, 5))
            count -= short
            self.faults.label("chips_missing", None, None, f"closing count {short} short")
        self.emitter.table_event("table_closed", actor=("pit_boss", "PB-1"), dt=60, closing_count=count)
        yield from self._drain()

    def _between_rounds(self) -> None:
        """A tip now and then (its own rng: the rounds stay those of the same seed), and a
        fill or credit when the float runs low or high (:meth:`TableChips.restock`)."""
        players = self.table.players
        if players and self.cage_rng.random() < 0.03:
            p = self.cage_rng.choice(players)
            self.emitter.table_event("tip_received", actor=("player", p.player_id), dt=2,
                                     player_id=p.player_id, amount=self.spec.min_bet / 2)
        move = self.chips.restock()
        if move is not None:
            kind, amount = move
            self.emitter.table_event(kind, actor=("pit_boss", "PB-1"), dt=30, amount=amount)

    def _settle(self, round_id: str, expected: list[Payment]) -> None:
        """Record ``expected`` (the game module's payments of the round), one of them off by
        a few chips when the ``wrong_payout`` fault hits."""
        wrong = None
        if expected and self.faults.hit("wrong_payout"):
            wrong = self.rng.randrange(len(expected))
        ring = self.table.dealer_id == self.ring[0]
        for i, e in enumerate(expected):
            returned, commission = e.returned, e.commission
            if ring and e.bet_id in self.partner_bets and self.faults.hit("dealer_collusion"):
                returned += self.spec.min_bet * self.rng.choice((1, 2, 5))
                self.faults.label("dealer_collusion", round_id, e.bet_id,
                                  f"{self.ring[0]} over-paid {self.ring[1]}: {returned} instead of {e.returned}")
            elif i == wrong:
                chips = self.spec.min_bet * self.rng.choice((1, 2, 5))
                if returned > 0 and self.rng.random() < 0.5:
                    returned = max(Decimal("0.00"), returned - chips)
                    how = "under"
                else:
                    returned = returned + chips
                    how = "over"
                if returned == e.returned:
                    returned += chips
                self.faults.label("wrong_payout", round_id, e.bet_id,
                                  f"{how}-paid: {returned} instead of {e.returned}")
            if returned == 0 and commission == 0 and e.outcome in ("lose", "en_prison") and self.rng.random() < 0.3:
                continue  # losing bets are often just collected, with nothing recorded
            self.emitter("settlement_recorded", dt=0.8, bet_id=e.bet_id, outcome=e.outcome,
                         returned=returned, commission=commission)

    def _drain(self) -> Iterator[tuple[datetime, int, dict]]:
        out, self.out = self.out, []
        yield from out


CHEMIN_DE_FER_TABLES: tuple[tuple[str, str], ...] = (("gal-coruna", "chemin_de_fer.galicia"),
                                                     ("and-marbella", "chemin_de_fer.andalucia"))
"""The chemin de fer tables :func:`default_floor` can add, in turn: (casino, ruleset)."""


def chemin_de_fer_table(table_id: str, casino_id: str, ruleset_id: str) -> TableSpec:
    """A chemin de fer table: punto minimum 20.00 EUR; the punto maximum is the bank, at most 100 times
    the minimum (000 L592-L596; 004 L2081-L2083), hence the table maximum 2,000.00 EUR; nine seats."""
    return TableSpec(table_id, casino_id, "chemin_de_fer", ruleset_id, Decimal("20.00"), Decimal("2000.00"), seats=9)


DOS_PANOS_TABLES: tuple[tuple[str, str, str], ...] = (
    ("gal-coruna", "bacara_dos_panos.galicia", "limitada"), ("and-marbella", "bacara_dos_panos.andalucia", "libre"),
    ("gal-coruna", "bacara_dos_panos.galicia", "libre"), ("and-marbella", "bacara_dos_panos.andalucia", "limitada"))
"""The bacará a dos paños tables :func:`default_floor` can add, in turn: (casino, ruleset, modality)."""
DOS_PANOS_BANK_MAXIMUM = Decimal("4000.00")
"""The most a limited bank of the simulator's tables is constituted with (the authorisation's, 000 L793)."""


def dos_panos_table(table_id: str, casino_id: str, ruleset_id: str, bank: str = "limitada") -> TableSpec:
    """A bacará a dos paños table: stakes from 20.00 to 2,000.00 EUR (the authorisation's, 000 L791; at a
    free bank the maximum is not enforced, 000 L795), ten seats (five per paño), the modality ``bank``
    (``limitada``, with the bank's maximum :data:`DOS_PANOS_BANK_MAXIMUM`, or ``libre``)."""
    options = {"bank": bank, **({"bank_maximum": f"{DOS_PANOS_BANK_MAXIMUM}"} if bank == "limitada" else {})}
    return TableSpec(table_id, casino_id, "bacara_dos_panos", ruleset_id, Decimal("20.00"), Decimal("2000.00"),
                     options, seats=10)


def default_floor(tables: int, chemin_de_fer: int = 0, dos_panos: int = 0) -> list[TableSpec]:
    """A realistic mix of ``tables`` tables over three casinos (Galicia, Andalucía,
    Asturias): French roulette, blackjack and punto y banca under each jurisdiction's ruleset, and a
    hold'em table in Andalucía (from the eighth table on); then ``chemin_de_fer`` chemin de fer
    tables (:data:`CHEMIN_DE_FER_TABLES` in turn, numbered after the others: ``GAL-CF-09`` ...); then
    ``dos_panos`` bacará a dos paños tables (:data:`DOS_PANOS_TABLES` in turn, numbered after those:
    ``GAL-DP-11`` ...). The tables before are the same whatever the counts after them (their seeds
    depend on their place)."""
    catalogue: list[tuple[str, str, str, str, str, dict[str, str]]] = [
        ("gal-coruna", "french_roulette", "french_roulette.galicia", "5.00", "900.00", {}),
        ("gal-coruna", "blackjack", "blackjack.galicia", "10.00", "200.00", {}),
        ("gal-coruna", "punto_banca", "punto_banca.galicia", "20.00", "2000.00", {}),
        ("and-marbella", "french_roulette", "french_roulette.andalucia", "5.00", "900.00", {}),
        ("and-marbella", "blackjack", "blackjack.andalucia", "10.00", "200.00", {}),
        ("and-marbella", "punto_banca", "punto_banca.andalucia", "20.00", "2000.00", {}),
        ("ast-gijon", "punto_banca", "punto_banca.asturias", "20.00", "2000.00", {}),
        ("and-marbella", "poker", "poker.andalucia", "2.00", "1000.00", {}),
    ]
    prefix = {"french_roulette": "RF", "blackjack": "BJ", "punto_banca": "PB", "poker": "PK"}
    specs = []
    for i in range(tables):
        casino, game, ruleset, lo, hi, opts = catalogue[i % len(catalogue)]
        tid = f"{casino.split('-')[0].upper()}-{prefix[game]}-{i + 1:02d}"
        specs.append(TableSpec(tid, casino, game, ruleset, Decimal(lo), Decimal(hi), dict(opts),
                               seats=9 if game == "poker" else 7))
    for j in range(chemin_de_fer):
        casino, ruleset = CHEMIN_DE_FER_TABLES[j % len(CHEMIN_DE_FER_TABLES)]
        specs.append(chemin_de_fer_table(f"{casino.split('-')[0].upper()}-CF-{tables + j + 1:02d}", casino, ruleset))
    for j in range(dos_panos):
        casino, ruleset, bank = DOS_PANOS_TABLES[j % len(DOS_PANOS_TABLES)]
        n = tables + chemin_de_fer + j + 1
        specs.append(dos_panos_table(f"{casino.split('-')[0].upper()}-DP-{n:02d}", casino, ruleset, bank))
    return specs


JURISDICTION_CASINOS = {j.id: j.casino for j in JURISDICTIONS}
"""The simulated casino of each jurisdiction (the catalogue's; ``espana``: a casino under the state catalogue
of 1979)."""


def catalogue_tables(first: int, rulesets: list[str] | None = None) -> list[TableSpec]:
    """A table for each shipped ruleset (``rulesets``: only those) of every game whose simulator module
    places its own tables (``table``, :data:`SIMULATOR_TRAITS`: the games added on the platform; the first
    six are on :func:`default_floor`), in catalogue and ruleset order, numbered from ``first``
    (``GAL-RA-13``...): in the casino of the ruleset's jurisdiction (:data:`JURISDICTION_CASINOS`). Raises
    ``KeyError`` for a jurisdiction without a casino."""
    import importlib

    from pitwatch.rules.base import list_rulesets
    from pitwatch.rules.registry import specs

    out: list[TableSpec] = []
    shipped = list_rulesets()
    for sp in specs():
        module = importlib.import_module(sp.simulator)
        make = getattr(module, "table", None)
        if make is None:
            continue
        for rid in shipped:
            game, jurisdiction = rid.split(".", 1)
            if game != sp.game or (rulesets is not None and rid not in rulesets):
                continue
            casino = JURISDICTION_CASINOS[jurisdiction]
            prefix = getattr(module, "PREFIX", sp.game[:2].upper())
            out.append(make(f"{casino.split('-')[0].upper()}-{prefix}-{first + len(out):02d}", casino, rid))
    return out


def simulate(tables: int | list[TableSpec], hours: float, seed: int,
             fault_rates: dict[str, float] | None = None,
             start: datetime = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc),
             ring_size: int = 2) -> tuple[Iterator[dict], list[dict]]:
    """Simulate an evening. Returns ``(events, labels)``: ``events`` yields event dicts in
    time order across tables (JSON-ready: money as strings, UTC times); ``labels`` fills with
    one dict per injected fault as the iterator advances. Deterministic for a seed. ``ring_size``:
    the players of each soft-play and whipsaw ring (:func:`ring_members`)."""
    specs = default_floor(tables) if isinstance(tables, int) else tables
    rates = DEFAULT_FAULT_RATES if fault_rates is None else fault_rates
    labels: list[dict] = []
    runners = [_TableRunner(s, seed, i, start, hours, rates, labels, ring_size) for i, s in enumerate(specs)]
    def keyed(i: int, runner: _TableRunner) -> Iterator[tuple[tuple, dict]]:
        for ts, seq, ev in runner.run():
            yield (ts, i, seq), ev

    merged = heapq.merge(*(keyed(i, r) for i, r in enumerate(runners)), key=lambda x: x[0])
    return (ev for _, ev in merged), labels


def score(labels: list[dict], alerts: list[dict]) -> dict[str, Any]:
    """Score alerts against injected fault labels.

    A label is *caught* when an alert of a kind in :func:`fault_alerts` for its fault kind
    exists on the same table and round. An alert is *explained* when its table and round
    carry at least one label (faults in a round can cause several alerts: a dropped bet
    also makes its settlement unknown); a ``float_discrepancy`` (one per session, with no
    round) when its table carries any label. A payout fault on a bet whose ``bet_placed`` was
    dropped is caught by the unknown settlement (:data:`HIDDEN_BY_DROP`). Returns recall per fault
    kind, overall precision,
    and the alerts on clean rounds (should be none). Rings are scored by :func:`score_rings`: the
    labels of :data:`RING_ONLY` kinds and the cross-round detectors' alerts (kinds of
    :data:`RING_FAULTS`, about a pair, not a round) are left out here. Raises ``ValueError`` naming a
    label's kind that is no fault kind (:func:`fault_kinds`).
    """
    known = fault_alerts()
    unknown = sorted({lb["kind"] for lb in labels} - set(known))
    if unknown:
        raise ValueError(f"labels of unknown fault kinds {unknown}; known: {', '.join(known)}")
    labels = [lb for lb in labels if lb["kind"] not in RING_ONLY]
    alerts = [a for a in alerts if a["kind"] not in RING_FAULTS.values()]
    by_round: dict[tuple[str, str], set[str]] = {}
    for a in alerts:
        by_round.setdefault((a["table_id"], a["round_id"]), set()).add(a["kind"])
    dropped = {(lb["table_id"], lb["bet_id"]) for lb in labels if lb["kind"] == "dropped_event" and lb.get("bet_id")}
    labelled = {(lb["table_id"], lb["round_id"]) for lb in labels}
    # the float reconciles a whole session: any money fault of the table can put it off
    labelled |= {(a["table_id"], a["round_id"]) for a in alerts if a["kind"] == "float_discrepancy"
                 and any(lb["table_id"] == a["table_id"] for lb in labels)}
    recall: dict[str, dict[str, int]] = {}
    for lb in labels:
        r = recall.setdefault(lb["kind"], {"injected": 0, "caught": 0})
        r["injected"] += 1
        catching = known[lb["kind"]]
        if lb["kind"] in ("wrong_payout", "dealer_collusion") and (lb["table_id"], lb.get("bet_id")) in dropped:
            catching = catching | HIDDEN_BY_DROP
        if by_round.get((lb["table_id"], lb["round_id"]), set()) & catching:
            r["caught"] += 1
    explained = sum(1 for a in alerts if (a["table_id"], a["round_id"]) in labelled)
    clean = [a for a in alerts if (a["table_id"], a["round_id"]) not in labelled]
    return {
        "recall": {k: (v["caught"] / v["injected"], v["caught"], v["injected"]) for k, v in sorted(recall.items())},
        "precision": explained / len(alerts) if alerts else 1.0,
        "alerts": len(alerts),
        "alerts_on_clean_rounds": clean,
    }


def score_rings(labels: list[dict], alerts: list[dict]) -> list[dict[str, Any]]:
    """One row per injected ring (a table with labels of a :data:`RING_FAULTS` kind): ``table_id``,
    ``kind``, ``parties`` (:func:`ring_parties`), ``rounds`` labelled, ``found`` (an alert of the
    ring's detector names both parties, in its ``parties``: ``role:id``), ``other_kinds``: the other
    detectors' alerts on the ring's pair (a chip-dumping ring's raises are a whipsaw too: the pair is
    a ring, the kind another), and ``false``: the detectors' alerts on a pair that is no ring (the same
    list on every row)."""
    def pair(a: dict) -> tuple[str, str]:
        first, second = (str(x).partition(":")[2] for x in a["parties"])
        return first, second

    found = {(a["kind"], pair(a)) for a in alerts if a["kind"] in RING_FAULTS.values()}
    rings: dict[tuple[str, str], int] = {}
    for lb in labels:
        if lb["kind"] in RING_FAULTS:
            rings[(lb["table_id"], lb["kind"])] = rings.get((lb["table_id"], lb["kind"]), 0) + 1
    pairs = {frozenset(ring_parties(k, t)) for t, k in rings}
    false = sorted(f"{kind}: {a} -> {b}" for kind, (a, b) in found if frozenset((a, b)) not in pairs)
    return [{"table_id": t, "kind": k, "parties": ring_parties(k, t), "rounds": n,
             "found": (RING_FAULTS[k], ring_parties(k, t)) in found,
             "other_kinds": sorted(kind for kind, pair in found
                                   if kind != RING_FAULTS[k] and frozenset(pair) == frozenset(ring_parties(k, t))),
             "false": false}
            for (t, k), n in sorted(rings.items())]


ProgressFn = Callable[[int], None]
