"""The demo agent: the smallest complete example of an agentkiln agent (two nodes, one model call, one tool call)."""
