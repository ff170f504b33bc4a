"""pitwatch: event-sourced audit and surveillance of casino table games under Spanish regional law."""

__version__ = "0.1.0"
