"""`agent mcp`: the typed tools served over the Model Context Protocol (official ``mcp`` SDK; stdio, streamable HTTP)."""
