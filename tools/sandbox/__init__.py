"""Sandboxed Python and shell tools (group "sandbox")."""

from tools.sandbox.exec_tools import SANDBOXED_TAG, SandboxWorkspace, make_sandbox_tools

__all__ = ["SANDBOXED_TAG", "SandboxWorkspace", "make_sandbox_tools"]
