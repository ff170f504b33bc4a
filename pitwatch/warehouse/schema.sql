-- pitwatch warehouse: the one portable DDL.
--
-- Runs unchanged on Debian's ClickHouse 18.16 (clickhouse-driver), current ClickHouse
-- releases and chDB. Portable subset: no DateTime64, LowCardinality, Map, Tuple or
-- Nullable columns, no TTL or CODEC clauses, no JSONExtract, toStartOfInterval,
-- SimpleAggregateFunction or window functions. Rules kept here:
--   * money is Decimal(18,2) (euros, exact cents), never Float;
--   * times are DateTime('UTC') plus a UInt16 milliseconds column (no DateTime64);
--   * absent ids are '' (empty string), never NULL;
--   * every base table is a ReplacingMergeTree keyed on a deterministic id, the last
--     column of its ORDER BY, read with FINAL where duplicates could matter; the writer
--     (Warehouse.insert_new) inserts only ids it has not stored yet, so duplicates exist
--     only after a concurrent double write (two workers during a rebalance);
--   * so nothing sums what an insert adds: table_hourly_rows holds one row per settlement
--     and movement (a ReplacingMergeTree keyed on the source row, written by two
--     materialized views), and the view table_hourly sums it FINAL per table and hour; read
--     table_hourly with sum(...) GROUP BY. Each figure is computed once, per row, by
--     pitwatch (handle, win, theoretical win and variance, gaming day: see
--     pitwatch.rules.accounting); the views only copy and sum.
-- The code learns tables, columns and types from the database once these statements ran:
-- a table or column added here needs no code change. A row left without a column gets
-- '' / 0 / 0.00 / [] by type; <x>_ms gets the milliseconds of <x>_at; ingested_at gets
-- the time of the insert; the id and other DateTime columns are required.
-- The database is named pitwatch here; the warehouse renames it to the database it was
-- opened on. Statements are separated by a semicolon at the end of a line; lines starting
-- with -- are comments.

CREATE DATABASE IF NOT EXISTS pitwatch;

-- events_raw: every event a table accepted, as received (payload), with its link in the
-- table's hash chain: hash = sha256(prev_hash || payload bytes), both as 64 hex digits
-- (pitwatch.detectors.chain; checked by pitwatch verify). '' for a parked event (stored
-- before it was judged) and for rows stored before the chain existed.
CREATE TABLE IF NOT EXISTS pitwatch.events_raw
(
    event_id     String,
    casino_id    String,
    table_id     String,
    game         String,
    seq          UInt64,
    round_id     String,
    type         String,
    occurred_at  DateTime('UTC'),
    occurred_ms  UInt16,
    actor_role   String,
    actor_id     String,
    payload      String,
    ingested_at  DateTime('UTC'),
    prev_hash    String,
    hash         String
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(occurred_at)
ORDER BY (table_id, event_id);

CREATE TABLE IF NOT EXISTS pitwatch.settlements
(
    settlement_id        String,
    casino_id            String,
    table_id             String,
    game                 String,
    ruleset_id           String,
    ruleset_hash         String,
    round_id             String,
    bet_id               String,
    player_id            String,
    dealer_id            String,
    spot                 String,
    stake                Decimal(18, 2),
    expected_outcome     String,
    expected_returned    Decimal(18, 2),
    expected_commission  Decimal(18, 2),
    recorded             UInt8,
    recorded_outcome     String,
    recorded_returned    Decimal(18, 2),
    recorded_commission  Decimal(18, 2),
    discrepancy          Decimal(18, 2),
    citation             String,
    detail               String,
    handle               Decimal(18, 2),
    win                  Decimal(18, 2),
    theoretical_win      Decimal(18, 4),
    theoretical_variance Decimal(18, 4),
    gaming_day           Date,
    settled_at           DateTime('UTC'),
    settled_ms           UInt16
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(settled_at)
ORDER BY (table_id, settlement_id);

-- One row per alert_id (FINAL), whatever its table or month: a pair alert (chip dumping,
-- soft play...) is raised again from the other table of the pair or in a later month with the
-- same id, so neither table_id nor a partition by detected_at may be part of its key.
CREATE TABLE IF NOT EXISTS pitwatch.alerts
(
    alert_id     String,
    kind         String,
    severity     String,
    casino_id    String,
    table_id     String,
    game         String,
    round_id     String,
    bet_id       String,
    player_id    String,
    dealer_id    String,
    amount       Decimal(18, 2),
    message      String,
    citation     String,
    evidence     Array(String),
    ruleset_id   String,
    ruleset_hash String,
    detected_at  DateTime('UTC'),
    detected_ms  UInt16,
    parties      Array(String),
    score        Float64
)
ENGINE = ReplacingMergeTree()
ORDER BY alert_id;

-- Every ruleset version that judged a stored settlement or alert: ruleset_key is
-- '<ruleset_id>@<ruleset_hash>' (SHA-256 of the ruleset file), source the file's text, so a
-- round can be judged again with the law in force when it was judged live.
CREATE TABLE IF NOT EXISTS pitwatch.rulesets
(
    ruleset_key    String,
    ruleset_id     String,
    ruleset_hash   String,
    game           String,
    jurisdiction   String,
    source         String,
    first_used_at  DateTime('UTC')
)
ENGINE = ReplacingMergeTree()
ORDER BY ruleset_key;

CREATE TABLE IF NOT EXISTS pitwatch.rejected
(
    reject_id    String,
    topic        String,
    `partition`  UInt32,
    `offset`     UInt64,
    raw          String,
    reason       String,
    rejected_at  DateTime('UTC')
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(rejected_at)
ORDER BY reject_id;

-- Events of a quarantined table, kept to be applied again when the quarantine is released
-- (pitwatch quarantine release): raw bytes, position and why they were parked.
CREATE TABLE IF NOT EXISTS pitwatch.parked
(
    parked_id    String,
    table_id     String,
    seq          UInt64,
    event_id     String,
    topic        String,
    `partition`  UInt32,
    `offset`     UInt64,
    raw          String,
    reason       String,
    parked_at    DateTime('UTC')
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(parked_at)
ORDER BY (table_id, parked_id);

-- Messages the worker took in and did not apply because they had been applied before (a
-- redelivery after a crash: the offset is not after the last one applied from its
-- topic-partition and the seq not after the table's last): position, the event and why. The id
-- is the position, so a message redelivered again is stored once.
CREATE TABLE IF NOT EXISTS pitwatch.skipped
(
    skip_id      String,
    table_id     String,
    seq          UInt64,
    event_id     String,
    topic        String,
    `partition`  UInt32,
    `offset`     UInt64,
    reason       String,
    skipped_at   DateTime('UTC')
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(skipped_at)
ORDER BY (table_id, skip_id);

-- Chips and cash of a table, one row per event (id = the event's): kind is anticipo (the
-- float given at table_opened), drop (chips_bought), cashed (chips_cashed), fill, credit,
-- tip or closing_count (the chips counted at table_closed).
CREATE TABLE IF NOT EXISTS pitwatch.movements
(
    movement_id  String,
    casino_id    String,
    table_id     String,
    game         String,
    kind         String,
    amount       Decimal(18, 2),
    player_id    String,
    gaming_day   Date,
    occurred_at  DateTime('UTC'),
    occurred_ms  UInt16
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(occurred_at)
ORDER BY (table_id, movement_id);

-- The table-games figures per table, gaming day (Europe/Madrid, from 06:00 local time) and
-- UTC hour, one row per settlement or movement (source_id: 'settlement:<settlement_id>' or
-- 'movement:<movement_id>'), written by the two materialized views below. A ReplacingMergeTree
-- keyed on the source row: two sinks that raced and stored a settlement twice made the view
-- write its row twice, and FINAL keeps one, so the sums count it once (a SummingMergeTree would
-- have added both copies). Read it through the view table_hourly, never directly.
CREATE TABLE IF NOT EXISTS pitwatch.table_hourly_rows
(
    casino_id            String,
    table_id             String,
    game                 String,
    gaming_day           Date,
    hour                 DateTime('UTC'),
    bets                 UInt64,
    handle               Decimal(18, 2),
    win                  Decimal(18, 2),
    theoretical_win      Decimal(18, 4),
    theoretical_variance Decimal(18, 4),
    expected_payout      Decimal(18, 2),
    recorded_payout      Decimal(18, 2),
    commission           Decimal(18, 2),
    discrepancies        UInt64,
    discrepancy_amount   Decimal(18, 2),
    drop                 Decimal(18, 2),
    cashed               Decimal(18, 2),
    fills                Decimal(18, 2),
    credits              Decimal(18, 2),
    tips                 Decimal(18, 2),
    source_id            String
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(hour)
ORDER BY (casino_id, table_id, game, gaming_day, hour, source_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS pitwatch.table_hourly_mv TO pitwatch.table_hourly_rows
AS SELECT
    casino_id,
    table_id,
    game,
    gaming_day,
    toStartOfHour(settled_at) AS hour,
    toUInt64(1) AS bets,
    handle,
    win,
    theoretical_win,
    theoretical_variance,
    toDecimal64(expected_returned - expected_commission, 2) AS expected_payout,
    toDecimal64(recorded_returned - recorded_commission, 2) AS recorded_payout,
    recorded_commission AS commission,
    toUInt64(discrepancy != 0) AS discrepancies,
    toDecimal64(abs(discrepancy), 2) AS discrepancy_amount,
    toDecimal64(0, 2) AS drop,
    toDecimal64(0, 2) AS cashed,
    toDecimal64(0, 2) AS fills,
    toDecimal64(0, 2) AS credits,
    toDecimal64(0, 2) AS tips,
    concat('settlement:', settlement_id) AS source_id
FROM pitwatch.settlements;

CREATE MATERIALIZED VIEW IF NOT EXISTS pitwatch.table_hourly_movements_mv TO pitwatch.table_hourly_rows
AS SELECT
    casino_id,
    table_id,
    game,
    gaming_day,
    toStartOfHour(occurred_at) AS hour,
    toUInt64(0) AS bets,
    toDecimal64(0, 2) AS handle,
    toDecimal64(0, 2) AS win,
    toDecimal64(0, 4) AS theoretical_win,
    toDecimal64(0, 4) AS theoretical_variance,
    toDecimal64(0, 2) AS expected_payout,
    toDecimal64(0, 2) AS recorded_payout,
    toDecimal64(0, 2) AS commission,
    toUInt64(0) AS discrepancies,
    toDecimal64(0, 2) AS discrepancy_amount,
    toDecimal64(if(kind = 'drop', amount, toDecimal64(0, 2)), 2) AS drop,
    toDecimal64(if(kind = 'cashed', amount, toDecimal64(0, 2)), 2) AS cashed,
    toDecimal64(if(kind = 'fill', amount, toDecimal64(0, 2)), 2) AS fills,
    toDecimal64(if(kind = 'credit', amount, toDecimal64(0, 2)), 2) AS credits,
    toDecimal64(if(kind = 'tip', amount, toDecimal64(0, 2)), 2) AS tips,
    concat('movement:', movement_id) AS source_id
FROM pitwatch.movements;

-- The figures summed per table, gaming day and UTC hour over the rows above, each source row
-- once (FINAL): what every reader queries (reports, dashboards, figures), with sum(...) GROUP
-- BY as before. Hold % = win / drop (and win / handle) is computed by the reader from the sums.
CREATE VIEW IF NOT EXISTS pitwatch.table_hourly AS
SELECT
    casino_id,
    table_id,
    game,
    gaming_day,
    hour,
    sum(bets) AS bets,
    toDecimal64(sum(handle), 2) AS handle,
    toDecimal64(sum(win), 2) AS win,
    toDecimal64(sum(theoretical_win), 4) AS theoretical_win,
    toDecimal64(sum(theoretical_variance), 4) AS theoretical_variance,
    toDecimal64(sum(expected_payout), 2) AS expected_payout,
    toDecimal64(sum(recorded_payout), 2) AS recorded_payout,
    toDecimal64(sum(commission), 2) AS commission,
    sum(discrepancies) AS discrepancies,
    toDecimal64(sum(discrepancy_amount), 2) AS discrepancy_amount,
    toDecimal64(sum(drop), 2) AS drop,
    toDecimal64(sum(cashed), 2) AS cashed,
    toDecimal64(sum(fills), 2) AS fills,
    toDecimal64(sum(credits), 2) AS credits,
    toDecimal64(sum(tips), 2) AS tips
FROM pitwatch.table_hourly_rows FINAL
GROUP BY casino_id, table_id, game, gaming_day, hour;

-- What surveillance staff did with each alert or case (alert_id holds the case_id): one
-- immutable row per action (acknowledge, assign, comment, escalate, close, reopen), never an
-- update (pitwatch/lifecycle/actions.py).
CREATE TABLE IF NOT EXISTS pitwatch.alert_actions
(
    action_id     String,
    alert_id      String,
    action        String,
    actor         String,
    assignee      String,
    escalated_to  String,
    disposition   String,
    reason        String,
    comment       String,
    acted_at      DateTime('UTC'),
    acted_ms      UInt16
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(acted_at)
ORDER BY (alert_id, action_id);

-- Alerts handled together (pitwatch/lifecycle/cases.py): they share a table, a round or a
-- person (grouped_by, group_key) and were detected within a window. A case's actions are in
-- alert_actions under its case_id, and alert_status folds them like an alert's.
CREATE TABLE IF NOT EXISTS pitwatch.cases
(
    case_id      String,
    grouped_by   String,
    group_key    String,
    alert_ids    Array(String),
    opened_by    String,
    reason       String,
    opened_at    DateTime('UTC'),
    opened_ms    UInt16
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(opened_at)
ORDER BY case_id;

-- The current state of every alert with an action, folded from its actions (the same fold as
-- pitwatch/lifecycle/state.py): the state of its last acknowledge / escalate / close / reopen;
-- the last assignee and escalation; disposition and reason while closed. Times in ms since the
-- epoch (UTC), 0 when it never happened. An alert with no action is open.
CREATE VIEW IF NOT EXISTS pitwatch.alert_status AS
SELECT
    alert_id,
    multiIf(last_change = 'acknowledge', 'acknowledged', last_change = 'escalate', 'escalated',
            last_change = 'close', 'closed', 'open') AS state,
    assignee,
    escalated_to,
    if(last_change = 'close', close_disposition, '') AS disposition,
    if(last_change = 'close', close_reason, '') AS close_reason,
    acknowledged_ms,
    if(last_change = 'close', closed_ms, toUInt64(0)) AS closed_ms,
    last_acted_ms,
    actions
FROM
(
    SELECT
        alert_id,
        argMaxIf(action, t, action IN ('acknowledge', 'escalate', 'close', 'reopen')) AS last_change,
        argMaxIf(assignee, t, action = 'assign') AS assignee,
        argMaxIf(escalated_to, t, action = 'escalate') AS escalated_to,
        argMaxIf(disposition, t, action = 'close') AS close_disposition,
        argMaxIf(reason, t, action = 'close') AS close_reason,
        minIf(t, action IN ('acknowledge', 'escalate')) AS acknowledged_ms,
        maxIf(t, action = 'close') AS closed_ms,
        max(t) AS last_acted_ms,
        count() AS actions
    FROM
    (
        SELECT alert_id, action, assignee, escalated_to, disposition, reason,
               toUInt64(acted_at) * 1000 + acted_ms AS t
        FROM pitwatch.alert_actions FINAL
    )
    GROUP BY alert_id
);
