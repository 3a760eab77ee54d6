"""BatchTopK sparse autoencoders and the choice of their L0."""
