"""Ruleta francesa abreviada (004_5c9c19b250457762.txt L441-L454): French roulette's round on the abbreviated layout.

Game value ``french_roulette_abreviada``; ruleset ``french_roulette_abreviada.andalucia``. I.1.1.B plays
«con los mismos elementos de juego, personal y normas de funcionamiento que la ruleta francesa ordinaria»
(004 L443-L446): the round is French roulette's (:class:`pitwatch.rules.roulette.RouletteRound`, I.1.1.A,
004 L109-L439: payouts, limits, «no va más», spin direction, tirada nula), on a layout that «carecerá de
lugares para colocar las apuestas sencillas, docenas y columnas» (004 L447-L450), where «solo será posible
apostar a seisena o doble fila transversal, fila transversal, cuadro o jugar a cuatro primeros, caballo o
pareja y a pleno o número entero» (004 L452-L454).

Spot codes: French roulette's ``straight:N`` (35:1), ``split:A-B`` (17:1, also 0-1, 0-2, 0-3),
``street:A-B-C`` (11:1, also 0-1-2, 0-2-3), ``corner:A-B-C-D`` (8:1, also ``corner:0-1-2-3``, «cuatro
primeros»), ``sixline:A-...-F`` (5:1). A simple chance (``red`` ...), a ``column:N``, ``dozen:N``,
``columns:A-B`` or ``dozens:A-B`` is well formed but off this layout: ``invalid_bet`` citing 004 L447-L454
(refused: the chips are handed back). Without simple chances there is no zero rule: a zero wins the bets
that cover it and loses every other; nothing goes «en prison».
"""

from __future__ import annotations

from functools import lru_cache

from pitwatch.rules.base import Bet, RuleError, Violation, ViolationKind
from pitwatch.rules.french_roulette_abreviada.model import ALLOWED_KINDS, GAME
from pitwatch.rules.game import TableContext
from pitwatch.rules.roulette import SPOTS, RouletteRound, Spot, tier
from pitwatch.rules.roulette import parse_spot as parse_roulette_spot
from pitwatch.schemas.envelope import EventBase
from pitwatch.schemas.events import PlayerDecision, TableOpened

LAYOUT: dict[str, Spot] = {code: s for code, s in SPOTS.items() if s.kind in ALLOWED_KINDS}
"""Every spot code of the abbreviated layout -> its :class:`~pitwatch.rules.roulette.Spot`: French
roulette's spots of the kinds of 004 L452-L454 (37 straight-ups, 60 splits, 14 streets, 23 corners,
11 sixlines)."""


@lru_cache(maxsize=1024)
def parse_spot(code: str) -> Spot:
    """Parse a spot code of the abbreviated layout (see the module docstring).

    Returns the :class:`~pitwatch.rules.roulette.Spot`. Raises :class:`RuleError`: a code French roulette
    refuses (malformed, or not on its layout: ``split:1-5``) with French roulette's reason; a code of French
    roulette whose kind the abbreviated layout lacks (``red``, ``dozen:1``, ``column:2``, ``dozens:1-2``...)
    saying so (:func:`off_layout`). Source: 004 L447-L454; I.1.1.A's combinations 004 L211-L264.
    """
    found = LAYOUT.get(code)
    if found is not None:
        return found
    spot = parse_roulette_spot(code)
    raise RuleError(off_layout(spot))


def off_layout(spot: Spot) -> str:
    """Why French roulette's ``spot`` is not a bet of the abbreviated layout (004 L447-L454)."""
    what = {"simple": "a simple chance", "column": "a column", "dozen": "a dozen", "columns": "two columns",
            "dozens": "two dozens"}.get(spot.kind, spot.kind)
    return (f"{spot.code!r} is {what}: the abbreviated layout has no place for simple chances, dozens or "
            "columns; only sixline, street, corner (or 0-1-2-3), split and straight-up may be played")


class AbreviadaRound(RouletteRound):
    """One spin of ruleta francesa abreviada: French roulette's round (004 L443-L446) with the spots of
    the abbreviated layout only (004 L447-L454) and no zero rule (no simple chances).

    Violations emitted: French roulette's (``bet_below_minimum`` / ``bet_above_maximum`` per kind,
    ``past_posting``, ``spin_direction`` when the wheel is not turned «cada vez en sentido opuesto»
    (004 L386-L390), ``procedure``), and ``invalid_bet`` for a spot off the abbreviated layout, citing
    ``abbreviated_layout``; a ``player_decision`` is an ``illegal_decision`` (no bet can go «en prison»).
    """

    game = GAME

    def on_bet(self, bet: Bet) -> list[Violation]:
        """A spot of French roulette whose kind the abbreviated layout lacks is ``invalid_bet`` citing
        004 L447-L454 (the engine refuses it: no wager, chips handed back); any other bet is judged by
        French roulette's rules (malformed spot, limits of its kind, past-posting)."""
        if bet.spot not in LAYOUT:
            try:
                spot = parse_roulette_spot(bet.spot)
            except RuleError:
                spot = None
            if spot is not None:
                return [Violation(ViolationKind.INVALID_BET, f"bet {bet.bet_id}: {off_layout(spot)}",
                                  self._cite("abbreviated_layout"), (bet.event_id,), bet.bet_id, bet.player_id,
                                  bet.stake)]
        return super().on_bet(bet)

    def player_decision(self, event: PlayerDecision) -> list[Violation]:
        """A ``player_decision`` (``en_prison``, ``half_back``; French roulette's ``on_event`` hands it here,
        and ``wheel_spun`` and ``ball_landed`` to French roulette's own operations) is an ``illegal_decision``:
        those choices belong to the simple chances, which the abbreviated layout lacks (004 L447-L450)."""
        player = self.bets[event.bet_id].player_id if event.bet_id in self.bets else None
        return [Violation(ViolationKind.ILLEGAL_DECISION,
                          f"decision {event.decision} on {event.bet_id}: no bet of the abbreviated roulette "
                          "has a choice to make (no simple chances, no «en prison»)",
                          self._cite("abbreviated_layout"), (str(event.event_id),), event.bet_id, player)]

    @staticmethod
    def on_table_event(ctx: TableContext, event: EventBase) -> list[Violation]:
        """``table_opened``: the options ``max_tier`` (1, 2 or 3) and ``max_rule`` are checked as French
        roulette checks them (procedure violation out of the law's range, 004 L328-L352); an option of the
        simple chances (``simple_chance_min_multiple``, ``zero_default``) is a procedure violation (no
        simple chances, 004 L447-L450). ``limits_changed`` and ``table_closed``: French roulette's (a limit
        may «variar» during the session, 004 L362-L367)."""
        if type(event) is TableOpened:
            return table_opened(ctx, event)
        return RouletteRound.on_table_event(ctx, event)


def table_opened(ctx: TableContext, event: TableOpened) -> list[Violation]:
    """The options of an abbreviated roulette table just opened: ``max_tier`` and ``max_rule`` checked as
    French roulette checks them, and a ``procedure`` violation for an option of the simple chances; see
    :meth:`AbreviadaRound.on_table_event`."""
    rs, eid = ctx.ruleset, str(event.event_id)
    out: list[Violation] = []
    try:
        tier(ctx)
    except RuleError as exc:
        out.append(Violation(ViolationKind.PROCEDURE, f"table option: {exc}", rs.cite("limit_multiple"), (eid,)))
    rule = ctx.option("max_rule")
    if rule != "tiers" and not (rule == "authorisation" and "limit_authorisation" in rs.model.citations):
        out.append(Violation(ViolationKind.PROCEDURE, f"max_rule={rule!r} not available in {rs.id}",
                             rs.cite("limit_multiple"), (eid,)))
    for name in ("simple_chance_min_multiple", "zero_default"):
        if name in ctx.options:
            out.append(Violation(ViolationKind.PROCEDURE,
                                 f"table option {name}={ctx.options[name]!r}: the abbreviated roulette has no "
                                 "simple chances", rs.cite("abbreviated_layout"), (eid,)))
    return out


__all__ = ["LAYOUT", "AbreviadaRound", "off_layout", "parse_spot"]
