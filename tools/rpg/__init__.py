"""Navigation tools over a Repository Planning Graph."""

from tools.rpg.navigation import explore_rpg, fetch_node, rpg_tools, search_node
from tools.rpg.workspace import RPGWorkspace

__all__ = ["RPGWorkspace", "rpg_tools", "search_node", "fetch_node", "explore_rpg"]
