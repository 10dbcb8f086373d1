"""Checking a webhook Deckforge sent (docs/http-api.md, "Webhooks"): ``Deckforge-Signature: t=<Unix seconds>,
v1=<hex>``, the HMAC-SHA256 of ``<t>.<raw body>`` keyed with the account's webhook secret. Check the raw body
as received, before parsing it, and refuse a ``t`` far from now: an old request could be replayed."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any, List, Mapping, Optional, Tuple, Union

from .errors import WebhookVerificationError
from .models import JobStatus

SIGNATURE_HEADER = "Deckforge-Signature"

Headers = Union[Mapping[str, str], str, None]
"""The request's headers (any mapping: Flask's, Starlette's, a dict), or the signature header's value."""


def _signature_header(headers: Headers) -> Optional[str]:
    if headers is None or isinstance(headers, str):
        return headers
    value = headers.get(SIGNATURE_HEADER)
    if value is None:
        # A plain dict keeps the case the server sent (or a framework lower-cased it).
        wanted = SIGNATURE_HEADER.lower()
        value = next((v for k, v in headers.items() if k.lower() == wanted), None)
    return value


def _parse(header: str) -> Tuple[int, List[str]]:
    timestamp: Optional[int] = None
    signatures = []
    for item in header.split(","):
        name, _, value = item.strip().partition("=")
        if name == "t" and value.isdigit():
            timestamp = int(value)
        elif name == "v1" and value:
            signatures.append(value.lower())
    if timestamp is None or not signatures:
        raise WebhookVerificationError(f"the {SIGNATURE_HEADER} header has no t=… and v1=… entries")
    return timestamp, signatures


def verify_webhook(
    body: Union[bytes, str], headers: Headers, secret: str, tolerance: float = 300
) -> JobStatus:
    """The event (the job's status plus its ``job_id``) when the signature matches the body and the secret and
    its time is within ``tolerance`` seconds of now; :class:`~deckforge.WebhookVerificationError` otherwise. The
    comparison takes the same time wherever a forged signature differs (``hmac.compare_digest``)."""
    header = _signature_header(headers)
    if not header:
        raise WebhookVerificationError(f"the request has no {SIGNATURE_HEADER} header")
    timestamp, signatures = _parse(header)
    age = abs(time.time() - timestamp)
    if age > tolerance:
        raise WebhookVerificationError(
            f"the signature's time is {age:.0f} s away from now, beyond the {tolerance:g} s tolerance"
        )
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    expected = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + raw, hashlib.sha256).hexdigest()
    # Every signature is compared, so the time taken does not tell which one (or which byte) was wrong.
    matches = [hmac.compare_digest(expected, signature) for signature in signatures]
    if not any(matches):
        raise WebhookVerificationError("the signature does not match the body and the secret")
    try:
        event: Any = json.loads(raw)
    except ValueError:
        event = None
    if not isinstance(event, dict):
        raise WebhookVerificationError("the webhook body is not a JSON object")
    return JobStatus.from_json(event)
