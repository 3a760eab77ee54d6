"""`agent ui`: a local web dashboard over the runs folder (runs list, run pages, per-agent views, comparisons)."""
