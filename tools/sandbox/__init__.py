"""Sandboxed Python and shell tools (group "sandbox")."""

from tools.sandbox.exec_tools import SandboxWorkspace, make_sandbox_tools

__all__ = ["SandboxWorkspace", "make_sandbox_tools"]
