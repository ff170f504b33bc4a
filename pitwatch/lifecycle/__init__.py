"""The alert lifecycle, event-sourced: actions on alerts (:mod:`~pitwatch.lifecycle.actions`),
the pure fold that says where an alert stands (:mod:`~pitwatch.lifecycle.state`), and recording
and reading them (:mod:`~pitwatch.lifecycle.store`)."""
