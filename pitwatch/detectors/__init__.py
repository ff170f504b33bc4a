"""Detectors: per-round checks and stream-integrity checks that turn the engine's verdicts into alerts."""
