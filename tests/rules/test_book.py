"""The book of standing bets (pitwatch.rules.book): states, parents, its stored form, and that it
loses no bet whatever the order of operations (hypothesis)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.rules.base import RuleError
from pitwatch.rules.book import OFF, PLACED, RESOLVED, WORKING, Book, StandingBet

D = Decimal


def bet(bet_id: str, parent: str | None = None, state: str = WORKING, stake: str = "10.00") -> StandingBet:
    return StandingBet(bet_id, "P-1", "pass_line", D(stake), D(stake), state, "R1", f"e-{bet_id}", parent)


def test_a_bet_stands_is_set_off_moved_and_resolved():
    book = Book()
    book.stand(bet("B1", state=PLACED))
    assert book.set_state("B1", WORKING).state == WORKING
    assert book.set_state("B1", OFF).state == OFF
    assert book.move("B1", "come:6").spot == "come:6"
    gone = book.resolve("B1")
    assert gone.state == RESOLVED and "B1" not in book and len(book) == 0


def test_taking_a_line_bet_down_takes_its_odds_with_it():
    """Odds ride on their line bet: taking the line bet down takes the odds down first."""
    book = Book([bet("L"), bet("O1", parent="L"), bet("X")])
    assert [b.bet_id for b in book.take_down("L")] == ["O1", "L"]
    assert [b.bet_id for b in book] == ["X"]


@pytest.mark.parametrize("act, why", [
    (lambda b: b.stand(bet("B1")), "already standing"),
    (lambda b: b.stand(bet("B9", parent="nope")), "not standing"),
    (lambda b: b.stand(bet("B9", state=RESOLVED)), "cannot stand"),
    (lambda b: b.set_state("B1", RESOLVED), "use resolve"),
    (lambda b: b.get("B9"), "not standing"),
    (lambda b: b.resolve("B1"), "still carries O1"),
])
def test_an_operation_that_cannot_apply_raises_and_changes_nothing(act, why):
    book = Book([bet("B1"), bet("O1", parent="B1")])
    before = book.to_dict()
    with pytest.raises(RuleError, match=why):
        act(book)
    assert book.to_dict() == before


def test_the_stored_form_is_versioned_json_and_round_trips():
    book = Book([bet("B1"), bet("O1", parent="B1", stake="5.50")])
    book.get("B1").detail["zeros"] = 2
    doc = json.loads(json.dumps(book.to_dict()))
    assert doc["version"] == 1 and doc["bets"][1] == {
        "bet_id": "O1", "player_id": "P-1", "spot": "pass_line", "initial": "5.50", "at_stake": "5.50",
        "state": "working", "round_id": "R1", "event_id": "e-O1", "parent": "B1", "detail": {}}
    assert Book.from_dict(doc).to_dict() == book.to_dict()
    with pytest.raises(RuleError, match="version 2"):
        Book.from_dict(dict(doc, version=2))
    assert len(Book.from_dict(None)) == 0


OPS = st.lists(st.tuples(st.sampled_from(["stand", "odds", "off", "on", "move", "resolve", "down"]),
                         st.integers(0, 7)), max_size=60)


@settings(max_examples=200, deadline=None)
@given(OPS)
def test_the_book_loses_no_bet(ops):
    """Whatever the operations, every bet put in the book is, at the end, either still standing or was
    handed back exactly once (resolved or taken down), and the stored form gives back the same book."""
    book = Book()
    stood: list[str] = []
    out: list[str] = []
    n = 0
    for op, i in ops:
        ids = [b.bet_id for b in book]
        target = ids[i % len(ids)] if ids else None
        try:
            if op == "stand" or (op == "odds" and target is None):
                n += 1
                book.stand(bet(f"B{n}"))
                stood.append(f"B{n}")
            elif op == "odds":
                n += 1
                book.stand(bet(f"B{n}", parent=target))
                stood.append(f"B{n}")
            elif target is None:
                continue
            elif op in ("off", "on"):
                book.set_state(target, OFF if op == "off" else WORKING)
            elif op == "move":
                book.move(target, "come:8")
            elif op == "resolve":
                out.append(book.resolve(target).bet_id)
            else:
                out.extend(b.bet_id for b in book.take_down(target))
        except RuleError:
            pass  # refused (a bet still carrying odds): nothing changed
        assert Book.from_dict(json.loads(json.dumps(book.to_dict()))).to_dict() == book.to_dict()
    left = [b.bet_id for b in book]
    assert sorted(left + out) == sorted(stood) and len(set(out)) == len(out)
    assert all(b.parent is None or b.parent in book for b in book)
