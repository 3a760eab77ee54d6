"""The tools a chat session offers: every tool module's tools, plus the RPG navigation tools on ``--repo``.

Host files are reachable only through the session's :class:`HostPaths`: the built-in suites and the work directory."""

from __future__ import annotations

from pathlib import Path

from sandboxes.errors import UserError
from tools.hostpaths import HostPaths
from tools.registry import Toolbox, collect_tools

from agents.chat.config import ChatConfig


def session_workdir(config: ChatConfig, thread_dir: Path) -> Path:
    """The folder whose files the host-side tools may use: ``config.workdir``, else ``<thread_dir>/work`` (created)."""
    folder = Path(config.workdir).expanduser() if config.workdir else thread_dir / "work"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def chat_toolbox(config: ChatConfig, workdir: Path | None = None) -> Toolbox:
    """Collect the configured tool packages with host files limited to the built-in suites and ``workdir`` (None:
    nothing writable); bind the sandbox tools to the chosen backend and the RPG tools to the repo."""
    toolbox = collect_tools(config.tools or None, HostPaths(workdir))
    if config.sandbox and (not config.tools or "sandbox" in config.tools):
        from tools.sandbox import SandboxWorkspace, make_sandbox_tools

        for tool in make_sandbox_tools(SandboxWorkspace(config.sandbox)):
            toolbox.tools[tool.name] = tool
    if config.repo:
        toolbox.extend(repository_tools(config.repo))
    return toolbox


def repository_tools(repo: str) -> list:
    """Encode ``repo`` (offline lifting, no model calls) and bind search_node, fetch_node and explore_rpg to it."""
    from agents.rpg.build import EncodeConfig, build_rpg
    from agents.rpg.lift_offline import OfflineLifter
    from agents.rpg.source import read_directory
    from tools.rpg import RPGWorkspace, rpg_tools

    root = Path(repo).expanduser()
    if not root.is_dir():
        raise UserError(f"--repo {repo}: not a directory")
    listing = read_directory(root, EncodeConfig().max_file_bytes)
    rpg, _stats = build_rpg(listing, OfflineLifter(), name=root.resolve().name)
    return rpg_tools(RPGWorkspace(rpg, root=root))
