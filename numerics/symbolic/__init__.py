"""SIGS-style symbolic PDE solving: grammar-generated building blocks, structure search, constant refinement."""
