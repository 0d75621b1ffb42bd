"""Each chapter's experiments, one module per question (floor 4 of the package plan)."""
