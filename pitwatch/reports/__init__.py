"""The regulator's surface: the monthly report of a casino (:mod:`pitwatch.reports.monthly`), rendered
as HTML, PDF and CSV (:mod:`pitwatch.reports.render`) in Spanish or English
(:mod:`pitwatch.reports.labels`), with charts (:mod:`pitwatch.reports.charts`); the CLI is
``pitwatch report monthly`` (:mod:`pitwatch.reports.commands`)."""
