"""The part of the engine that knows no ruleset: dice, data loading, reports."""
