"""PathWise: heuristic design as sequential decisions over an entailment graph of derivations."""
