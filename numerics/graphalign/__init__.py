"""Graph alignment with siamese GNNs (GIN, GCN, GAT on dense adjacency) and a spectral baseline."""
