"""Workshop packs: one folder (or zip) of a workshop's content and recordings (docs/packs.md)."""
