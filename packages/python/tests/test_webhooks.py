"""A webhook end to end (docs/http-api.md, "Webhooks"): a job submitted with a callback_url on 127.0.0.1, the
signed event the server POSTs there, verify_webhook accepting it from the raw body and the headers as received,
and refusing a tampered body, another secret, a stale signature and a missing header."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Iterator

import pytest

from conftest import SAMPLE, Accounts, Keep
from deckforge import Deckforge, WebhookVerificationError, verify_webhook
from support.pptx import slide_texts
from support.receiver import Receiver, delivered

PAYLOAD = {"presentation": {"slides": [{"slide_index": 1, "shapes": [{"name": "Title", "content": "Hooked"}]}]}}


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    try:
        yield running
    finally:
        running.close()


def signed(body: bytes, secret: str, at: int) -> str:
    digest = hmac.new(secret.encode(), f"{at}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={at},v1={digest}"


def test_the_signed_event_verifies_and_its_link_downloads_the_deck(
    client: Deckforge, accounts: Accounts, receiver: Receiver, keep: Keep
) -> None:
    job = client.submit(SAMPLE, PAYLOAD, callback_url=receiver.url)
    [event] = receiver.wait_for(1)
    assert event.path == "/hooks/deckforge"
    headers = {name.lower(): value for name, value in event.headers.items()}
    assert headers["content-type"].startswith("application/json")

    verified = verify_webhook(event.body, event.headers, accounts.webhook_secret)
    assert (verified.job_id, verified.status, verified.error_message) == (job.id, "SUCCEEDED", None)
    assert verified.raw == json.loads(event.body)
    assert verified.file_url is not None
    deck = keep(client.download_link(verified.file_url), [SAMPLE])
    assert "Hooked" in slide_texts(deck)[0]

    # The header alone, or a dict with the header's name in another case, as frameworks hand it over.
    header = headers["deckforge-signature"]
    assert verify_webhook(event.body.decode(), header, accounts.webhook_secret).job_id == job.id
    assert verify_webhook(event.body, {"DECKFORGE-SIGNATURE": header}, accounts.webhook_secret).job_id == job.id

    # The status says the webhook was delivered (the receiver answered 204).
    webhook = delivered(client.job(job.id)).webhook
    assert webhook is not None and (webhook.url, webhook.last_status, webhook.attempts) == (receiver.url, 204, 1)


def test_a_forged_stale_or_unsigned_event_is_refused(client: Deckforge, accounts: Accounts, receiver: Receiver) -> None:
    client.submit(SAMPLE, PAYLOAD, callback_url=receiver.url)
    [event] = receiver.wait_for(1)
    secret = accounts.webhook_secret
    tampered = event.body.replace(b'"SUCCEEDED"', b'"FAILED"')
    assert tampered != event.body
    with pytest.raises(WebhookVerificationError, match="does not match"):
        verify_webhook(tampered, event.headers, secret)
    with pytest.raises(WebhookVerificationError, match="does not match"):
        verify_webhook(event.body, event.headers, secret + "x")
    # Signed with the right secret, but ten minutes ago: a replay.
    old = signed(event.body, secret, int(time.time()) - 600)
    with pytest.raises(WebhookVerificationError, match="tolerance"):
        verify_webhook(event.body, old, secret)
    assert verify_webhook(event.body, old, secret, tolerance=900).status == "SUCCEEDED"
    with pytest.raises(WebhookVerificationError, match="no Deckforge-Signature"):
        verify_webhook(event.body, {}, secret)
    with pytest.raises(WebhookVerificationError, match="no t="):
        verify_webhook(event.body, "v1=abc", secret)
    # Signed, but not the JSON object of an event.
    now = int(time.time())
    with pytest.raises(WebhookVerificationError, match="not a JSON object"):
        verify_webhook(b"not json", signed(b"not json", secret, now), secret)
