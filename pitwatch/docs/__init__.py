"""Documentation generated from the code: :mod:`pitwatch.docs.games` renders ``docs/games/``
(one Markdown page per ruleset, and an index) from the ruleset files (``pitwatch docs games``)."""
