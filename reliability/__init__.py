"""The reliability run (``make reliability``, ``python -m reliability``): a simulated evening
through the real broker (Tansu), ``pitwatch worker`` processes and Debian's ClickHouse 18.16
server, seven times, each under one kind of trouble and compared with a clean run of the same
evening. RELIABILITY.md records the figures and how each is measured.

Modules: :mod:`~reliability.servers` (the ClickHouse server and kcat's environment, shared
with ``tests/fixtures``), :mod:`~reliability.kafka` (producing with Python or kcat, group
progress), :mod:`~reliability.malformed` (the bad messages and how each must be accounted
for), :mod:`~reliability.digests` (the round digests scenarios f and g send themselves),
:mod:`~reliability.harness` (one run: broker, database, supervised workers, snapshot),
:mod:`~reliability.scenarios` (the clean run and scenarios a-g), :mod:`~reliability.figures`
(comparison with the clean run), :mod:`~reliability.report` and :mod:`~reliability.cli`.
"""
