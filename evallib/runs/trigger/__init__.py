"""A run of the trigger eval page: `bundle` (the run as data and as a run bundle, and back) and `cli` (its command and gate)."""
