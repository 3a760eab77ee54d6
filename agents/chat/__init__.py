"""`agent chat`: an interactive tool-calling agent with approval, streaming and resumable threads."""
