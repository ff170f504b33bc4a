"""The per-table hash chain of accepted events: one link function for every path.

Each event a table accepts (stored in ``events_raw`` as judged: applied in ``seq`` order, a
sequence gap included, or refused by the rules, which changes nothing but is stored) extends
the table's chain::

    hash = sha256(prev_hash || raw)

``raw`` is the event exactly as received (a Kafka message's value; a JSONL line without its
line end), ``prev_hash`` the hash of the table's previous accepted event, or :data:`GENESIS`
(32 zero bytes) for the table's first. Duplicates (an ``event_id`` seen before), stale ``seq``
and invalid messages are not accepted and not linked; a ``seq`` never received is simply not in
the chain (the next event links to the last one accepted), so the stored chain shows it as a
gap in ``seq`` that its links span (see :mod:`pitwatch.warehouse.verify`).

:class:`~pitwatch.detectors.auditor.TableAuditor` calls :func:`chain_link` in ``feed`` (the
worker and the offline replay both feed it) and keeps the head in its state; hashes are
``bytes`` everywhere and hex only in warehouse rows, stored states and output.
"""

from __future__ import annotations

from hashlib import sha256

__all__ = ["GENESIS", "HASH_SIZE", "chain_link"]

HASH_SIZE = 32
"""Bytes of a link (SHA-256)."""

GENESIS = bytes(HASH_SIZE)
"""``prev_hash`` of a table's first chained event: 32 zero bytes (also the head of a table
whose state was written by a release before the chain, state_version 4 or older)."""


def chain_link(prev: bytes, raw: bytes) -> bytes:
    """The link (32 bytes) of an event whose raw bytes are ``raw`` after the link ``prev``
    (32 bytes): ``sha256(prev || raw)``. Pure; raises nothing for bytes."""
    return sha256(prev + raw).digest()
