"""The graph-alignment benchmark: seeded data sets and a ranking of GNNs across noise levels."""
