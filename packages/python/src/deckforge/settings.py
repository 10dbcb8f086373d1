"""What the sync and the async client share: the base URL, timeouts, the retry policy and the token, and the
headers and URL of each attempt."""

from __future__ import annotations

import logging
from typing import Dict, Optional, Union

import httpx

from .calls import Call
from .retries import RetryPolicy
from .tokens import Credentials, TokenState

__version__ = "0.1.0"

#: Connect and pool 10 s; reading the answer and writing the upload 180 s each, beyond the server's own
#: 120-second limit on one generation (DECKFORGE_GENERATION_TIMEOUT_SECONDS, docs/configuration.md).
DEFAULT_TIMEOUT = httpx.Timeout(180.0, connect=10.0, pool=10.0)

TimeoutSetting = Union[float, httpx.Timeout]

log = logging.getLogger("deckforge")


class ClientSettings:
    def __init__(
        self,
        base_url: str,
        token: Optional[str],
        credentials: Optional[Credentials],
        timeout: TimeoutSetting,
        max_retries: int,
        max_retry_wait: float,
    ) -> None:
        if not base_url.lower().startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.tokens = TokenState(token, credentials)
        self.timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        self.policy = RetryPolicy(max_retries=max_retries, max_retry_wait=max_retry_wait)
        self.user_agent = f"deckforge-python/{__version__} httpx/{httpx.__version__}"

    def url(self, call: Call[object]) -> str:
        return call.path if call.path.lower().startswith(("http://", "https://")) else f"{self.base_url}{call.path}"

    def headers(self, call: Call[object], token: Optional[str]) -> Dict[str, str]:
        headers = {"user-agent": self.user_agent, **call.headers}
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        return headers

    def can_renew(self, token: Optional[str]) -> bool:
        """After a 401 to ``token``: a new one can be made (once per call)."""
        return token is not None and self.tokens.credentials is not None


def describe(call: Call[object]) -> str:
    path = call.path.split("?", 1)[0]
    # A download link's query is its signature: not for logs.
    return f"{call.method} {path}"
