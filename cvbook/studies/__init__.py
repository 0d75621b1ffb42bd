"""Each chapter's experiments: the trials, studies and distributions made only for them."""
