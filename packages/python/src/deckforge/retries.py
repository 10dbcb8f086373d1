"""When the client tries a call again, and after how long (docs/python.md, "Retries and timeouts").

Never a retry that could charge twice:
- 429 and 503 are retried for every call, waiting ``Retry-After``: the server refuses them before doing the
  work or gives the slides back (docs/http-api.md, "Retrying safely"), so nothing was charged. A wait longer than
  ``max_retry_wait`` (a monthly allowance used up, which resets in days) is not waited for: the error is raised.
- A connection that failed before the request was sent whole (refused, a connect timeout, a broken upload) is
  retried for every call: the server cannot have acted on a request it did not receive.
- A connection that broke after the request was sent (a read timeout, a reset while waiting for the answer)
  is retried only for calls whose repeat cannot charge or act twice: reads (GET), the token, inspect, storing
  a template (the same bytes under the same name store nothing new), and generate and submit, whose retry
  carries the same ``Idempotency-Key`` (the server answers a repeated submit with the first job, and a
  repeated synchronous request with a 409 rather than a second deck). ``render`` (charged per page, no key)
  and ``delete_template`` are not retried then.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

import httpx

RETRIED_STATUSES = (429, 503)

# Raised before the request was sent whole: the server has nothing it could have acted on.
# No answer came: the network failed, a timeout passed, or the server (or a proxy) closed the connection.
_NO_ANSWER = (httpx.NetworkError, httpx.TimeoutException, httpx.RemoteProtocolError)
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.WriteError, httpx.WriteTimeout)


@dataclass(frozen=True)
class RetryPolicy:
    #: Retries after the first attempt (so at most ``max_retries + 1`` attempts).
    max_retries: int = 2
    #: The longest ``Retry-After`` waited for, in seconds; past it the error is raised at once.
    max_retry_wait: float = 60.0

    def after_status(self, attempt: int, status_code: int, retry_after: Optional[float]) -> Optional[float]:
        """Seconds to wait before attempt ``attempt + 1`` after this status, or None to raise it."""
        if status_code not in RETRIED_STATUSES or attempt >= self.max_retries:
            return None
        wait = backoff(attempt) if retry_after is None else retry_after
        return wait if wait <= self.max_retry_wait else None

    def after_network_error(self, attempt: int, error: httpx.TransportError, repeatable: bool) -> Optional[float]:
        """Seconds to wait before attempt ``attempt + 1`` after ``error``, or None to raise it."""
        if attempt >= self.max_retries or not isinstance(error, _NO_ANSWER):
            return None
        if isinstance(error, _NOT_SENT) or repeatable:
            return backoff(attempt)
        return None


def backoff(attempt: int) -> float:
    """0.5 s, 1 s, 2 s … (at most 8 s), each between half and all of that, so that clients spread out."""
    return min(8.0, 0.5 * 2.0**attempt) * (0.5 + random.random() / 2)
