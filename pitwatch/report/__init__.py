"""The regulator's surface: the monthly report of a casino (:mod:`pitwatch.report.monthly`), rendered
as HTML, PDF and CSV (:mod:`pitwatch.report.render`) in Spanish or English
(:mod:`pitwatch.report.labels`), with charts (:mod:`pitwatch.report.charts`); the CLI is
``pitwatch report monthly`` (:mod:`pitwatch.report.commands`)."""
