"""The agents, the shared LangGraph runtime and the `agent` CLI. Nothing but the CLI imports this."""
