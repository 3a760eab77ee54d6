"""The five AHD problems, each with the heuristic signature the literature uses."""
