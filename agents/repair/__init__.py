"""The repository repair agent and `agent bench resolve`: patches scored by whether they fix the issue."""
