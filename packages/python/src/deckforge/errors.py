"""What the client raises. A refusal by the server is an :class:`APIError` of the class for its status, keeping
the interface's three error shapes (docs/http-api.md, "Errors"): shape A (400) has ``details``, shape B
(401, 403, 404, 409, 429, 503) ``detail``, shape C (500) ``title`` and ``detail``; the token endpoint's own
shape (``isSuccess``, ``Message``) is read into ``message``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple, Type

import httpx


class DeckforgeError(Exception):
    """Base of every error this package raises."""


@dataclass(frozen=True)
class Problem:
    """One problem a 400 lists: the JSON path it is about (``presentation.slides[1].shapes[0]``), if it names one."""

    path: Optional[str]
    message: str


class APIError(DeckforgeError):
    """The server answered with an error status. Subclasses name the status; the attributes keep the body."""

    status_code: int
    #: The shape's ``message`` ("Invalid input parameters", "Unauthorized", …) or the token endpoint's ``Message``.
    message: Optional[str]
    #: Shape A (400): what is wrong, every problem with its JSON path.
    details: Optional[str]
    #: Shape B and C: what happened.
    detail: Optional[str]
    #: Shape C (500): ``"Error"``.
    title: Optional[str]
    #: The body as parsed JSON, or its text when it was not JSON (a proxy's page).
    body: Any
    #: For a 400, each problem ``details`` lists.
    problems: Tuple[Problem, ...]
    #: Seconds from ``Retry-After`` (429, 503), when the server sent it.
    retry_after: Optional[float]
    #: The ``X-Request-Id`` of the answer: the server's log lines for the request carry it.
    request_id: Optional[str]
    #: The error's stable code from ``X-Deckforge-Error-Code`` (``DECKFORGE_QUOTA_EXCEEDED``, …; the server's
    #: docs/http-api.md, "Error codes"), what a program acts on; None when something else answered (a proxy).
    code: Optional[str]

    def __init__(
        self,
        status_code: int,
        body: Any,
        *,
        retry_after: Optional[float] = None,
        request_id: Optional[str] = None,
        code: Optional[str] = None,
    ) -> None:
        self.status_code = status_code
        self.body = body
        fields: Dict[str, Any] = body if isinstance(body, dict) else {}
        self.message = _text(fields.get("message", fields.get("Message")))
        self.details = _text(fields.get("details"))
        self.detail = _text(fields.get("detail"))
        self.title = _text(fields.get("title"))
        self.problems = problems_of(self.details) if status_code == 400 and self.details else ()
        self.retry_after = retry_after
        self.request_id = request_id
        self.code = code
        super().__init__(f"Deckforge answered {status_code}: {self._describe()}")

    def _describe(self) -> str:
        for text in (self.details, self.detail, self.message):
            if text:
                return text
        if isinstance(self.body, str):
            return self.body[:500] or "(no body)"
        return json.dumps(self.body)[:500]


class InvalidInputError(APIError):
    """400, shape A: the request, the payload (each problem with its JSON path) or the template."""


class AuthenticationError(APIError):
    """401: the token is missing, expired or invalid, or the credentials are wrong."""


class PermissionDeniedError(APIError):
    """403: a download link expired, altered or sent with a token; a stored template past the plan's limit."""


class NotFoundError(APIError):
    """404: an unknown or expired job, another account's or an unknown stored template."""


class ConflictError(APIError):
    """409: an Idempotency-Key used for another request, or a synchronous request repeated with its key."""


class RateLimitError(APIError):
    """429: the plan's request rate or its monthly slides; ``retry_after`` says when to try again."""


class ServerError(APIError):
    """500 (shape C) and other 5xx: a fault of the server; its log has the cause under ``request_id``."""


class ServiceUnavailableError(ServerError):
    """503: the server is shutting down, or a renderer was lost under the deck; retried by the client."""


class NetworkError(DeckforgeError):
    """No answer: the server could not be reached, or the connection broke before the answer came."""


class JobTimeoutError(DeckforgeError, TimeoutError):
    """``Job.wait`` ran out of time while the job was still QUEUED or PROCESSING."""

    def __init__(self, job_id: str, last_status: str) -> None:
        self.job_id = job_id
        self.last_status = last_status
        super().__init__(f"job {job_id} was still {last_status} when waiting for it timed out")


class JobFailedError(DeckforgeError):
    """A download from a job that did not succeed."""

    def __init__(self, job_id: str, status: str, error_message: Optional[str]) -> None:
        self.job_id = job_id
        self.status = status
        self.error_message = error_message
        what = "failed" if status == "FAILED" else f"is {status}"
        super().__init__(f"job {job_id} {what}" + (f": {error_message}" if error_message else ""))


class WebhookVerificationError(DeckforgeError, ValueError):
    """A webhook whose signature is missing, does not match, or is too old (``verify_webhook``)."""


_BY_STATUS: Dict[int, Type[APIError]] = {
    400: InvalidInputError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def error_class(status_code: int) -> Type[APIError]:
    return _BY_STATUS.get(status_code, ServerError if status_code >= 500 else APIError)


def error_from_response(response: httpx.Response) -> APIError:
    """The error for a non-2xx answer whose body has been read."""
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    return error_class(response.status_code)(
        response.status_code,
        body,
        retry_after=retry_after_seconds(response.headers.get("retry-after")),
        request_id=response.headers.get("x-request-id"),
        code=response.headers.get("x-deckforge-error-code"),
    )


def retry_after_seconds(value: Optional[str]) -> Optional[float]:
    """``Retry-After`` in seconds; Deckforge sends whole seconds (an HTTP date is not used by it)."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


def _text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) else None


# A path as the engine writes it: `presentation.slides[0].shapes[2].content`, `jsonData`, `files`.
_PATH = r"[A-Za-z_][\w.\[\]-]*"
_SEVERAL = re.compile(r"^\d+ problems[^:]*: (?=\(1\) )")
_NAMED = re.compile(rf"^({_PATH}): (.*)$", re.S)


def problems_of(details: str) -> Tuple[Problem, ...]:
    """The problems of a 400's ``details``: "path: message", or "N problems: (1) path: message; (2) …"."""
    several = _SEVERAL.match(details)
    if several:
        items = [re.sub(r"^\(\d+\) ", "", item) for item in re.split(r"; (?=\(\d+\) )", details[several.end() :])]
    else:
        items = [details]
    problems = []
    for item in items:
        named = _NAMED.match(item)
        problems.append(Problem(named.group(1), named.group(2)) if named else Problem(None, item))
    return tuple(problems)
