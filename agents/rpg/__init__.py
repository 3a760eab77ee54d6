"""RPG-Encoder: encode a repository into a Repository Planning Graph, evolve it, localise issues in it."""
