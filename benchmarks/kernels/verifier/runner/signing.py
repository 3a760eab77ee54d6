"""The verdict signature shared by the trusted runner and the host (no torch import: the host loads it)."""

import hashlib
import hmac


def sign(nonce: str, payload: str) -> str:
    """HMAC-SHA256 of ``payload`` under ``nonce``."""
    return hmac.new(nonce.encode(), payload.encode(), hashlib.sha256).hexdigest()
