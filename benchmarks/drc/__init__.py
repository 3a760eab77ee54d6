"""The Rule2DRC benchmark: rule specs, a rule-family generator, labelled layouts, paper-exact scoring."""
