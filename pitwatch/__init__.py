"""pitwatch: event-sourced audit and surveillance of casino table games under Spanish regional law."""

from pitwatch import native

__version__ = "0.1.0"

native.install()  # the compiled fold when its build matches the sources (pitwatch.native)
