"""The names the pipeline shares with Kafka: topics, the Faust app id, the state table.

The only place they are defined; every producer, consumer, test and benchmark imports them
from here.

=================================  ======================================================
``pitwatch.table-events``          input: raw JSON table events, key = table_id
``pitwatch.settlements``           output: one settlement per bet (expected vs recorded)
``pitwatch.alerts``                output: violations and sequence alerts
``pitwatch.rejected``              output: messages not applied, with raw bytes and reason
``pitwatch.round-digests``         the table stage's digest of each judged round, key =
                                   casino_id; input of the watch stage (the detectors)
``pitwatch.alert-actions``         what staff did with alerts (pitwatch.lifecycle), key = alert_id
``pitwatch-table-state``           Faust Table of per-table states (in-memory store)
``pitwatch-pitwatch-table-state-   its changelog topic, as Faust names it; as many
changelog``                        partitions as ``pitwatch.table-events``
``pitwatch-watch-state``           Faust Table of per-casino watch states (the detectors';
                                   changelog ``pitwatch-pitwatch-watch-state-changelog``)
=================================  ======================================================

The app id ``pitwatch`` is also the workers' consumer group.
"""

from __future__ import annotations

APP_ID = "pitwatch"
TOPIC_EVENTS = "pitwatch.table-events"
TOPIC_SETTLEMENTS = "pitwatch.settlements"
TOPIC_ALERTS = "pitwatch.alerts"
TOPIC_REJECTED = "pitwatch.rejected"
TOPIC_ALERT_ACTIONS = "pitwatch.alert-actions"
TOPIC_ROUND_DIGESTS = "pitwatch.round-digests"
OUTPUT_TOPICS = (TOPIC_SETTLEMENTS, TOPIC_ALERTS, TOPIC_REJECTED, TOPIC_ROUND_DIGESTS)
"""Topics the worker produces to (the round digests are also the watch stage's input)."""
ALL_TOPICS = (TOPIC_EVENTS, *OUTPUT_TOPICS, TOPIC_ALERT_ACTIONS)
#: Partitions of the topics a worker creates when they do not exist yet (an existing
#: ``pitwatch.table-events`` keeps its own count, and the changelog follows it).
DEFAULT_PARTITIONS = 8
TABLE_STATE = "pitwatch-table-state"
#: Faust names a table's changelog ``{app id}-{table name}-changelog``.
TABLE_STATE_CHANGELOG = f"{APP_ID}-{TABLE_STATE}-changelog"
WATCH_STATE = "pitwatch-watch-state"
WATCH_STATE_CHANGELOG = f"{APP_ID}-{WATCH_STATE}-changelog"
