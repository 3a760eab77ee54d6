"""Who may do what: on loopback anyone may read and actions need the token printed at start-up; on any other bind
everything needs it. The token comes in the ``X-Agentkiln-Token`` header (actions must use it, so another site's
page cannot post one), or for reading as ``?token=`` once (it is then kept in a same-site cookie)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

HEADER = "x-agentkiln-token"
COOKIE = "agentkiln_token"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass
class Access:
    """The token and whether reading needs it too (a bind beyond loopback)."""

    token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    remote: bool = False

    @classmethod
    def for_host(cls, host: str, token: str | None = None) -> "Access":
        return cls(token or secrets.token_urlsafe(18), remote=host not in LOOPBACK)

    def _matches(self, given: str | None) -> bool:
        return bool(given) and secrets.compare_digest(given.encode(), self.token.encode())

    def may_act(self, headers: Any) -> bool:
        """Actions: only with the token in the header."""
        return self._matches(headers.get(HEADER))

    def may_read(self, headers: Any, cookies: Any, query: Any) -> bool:
        """Reading: free on loopback; else the token in the header, the cookie or the query."""
        if not self.remote:
            return True
        return any(self._matches(value) for value in (headers.get(HEADER), cookies.get(COOKIE), query.get("token")))
