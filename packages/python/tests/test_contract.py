"""The interface's scenarios through the client (service-interface.md, docs/http-api.md): a token, a deck in the
response, a job submitted, polled and downloaded through its pre-signed link, usage, and each error shape:
A (400), B (401, 404, 429) and C (500)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from conftest import SAMPLE, Accounts, Keep, signed_in
from deckforge import (
    AuthenticationError,
    Deckforge,
    InvalidInputError,
    JobStatus,
    NotFoundError,
    RateLimitError,
    ServerError,
)
from support.pptx import slide_texts
from support.service import Service

# The README's first session's payload ("A first session with curl").
PAYLOAD = {
    "presentation": {
        "template": "sample-template.pptx",
        "resultFileName": "Quarterly review",
        "tags": [
            {"key": "company", "value": "Acme"},
            {"key": "quarter", "value": "Q3 2026"},
            {"key": "contact", "value": "hello@acme.test"},
        ],
        "slides": [
            {"slide_index": 0},
            {
                "slide_index": 1,
                "shapes": [
                    {"name": "Title", "content": "Highlights"},
                    {"name": "Body", "content": "Revenue up 12%\nin every region\nTwo new markets"},
                ],
                "notes": "Mention the new office",
            },
            {"slide_index": 2},
        ],
    }
}


def expect_quarterly_review(deck: bytes) -> None:
    texts = slide_texts(deck)
    assert len(texts) == 3
    assert "Acme · Q3 2026" in texts[0]
    assert "Highlights" in texts[1] and "Revenue up 12%\nin every region\nTwo new markets" in texts[1]


def test_token_from_credentials_serves_every_call(service: Service, accounts: Accounts) -> None:
    with signed_in(service, accounts.main) as deckforge:
        token = deckforge.authenticate()
        assert deckforge.authenticate() == token  # kept, not made again
    # The token is the interface's bearer token: a plain HTTP client can use it too.
    answer = httpx.get(f"{service.base}/v1.0/usage", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and answer.json()["isSuccess"] is True


def test_synchronous_deck_named_after_result_file_name(client: Deckforge, keep: Keep, tmp_path: Path) -> None:
    out = tmp_path / "review.pptx"
    deck = client.generate(SAMPLE, PAYLOAD, out=out)
    keep(deck, [SAMPLE])
    assert deck.file_name == "Quarterly review.pptx"
    assert deck.content_type == "application/vnd.openxmlformats-officedocument.presentationml.presentation"
    assert deck.slide_count == 3 and deck.warnings == ()
    assert out.read_bytes() == deck
    expect_quarterly_review(deck)


def test_asynchronous_job_polled_to_the_end_and_downloaded(client: Deckforge, keep: Keep, tmp_path: Path) -> None:
    seen: list[JobStatus] = []
    job = client.submit(SAMPLE, PAYLOAD)
    final = job.wait(progress=seen.append, initial_interval=0.1)
    assert final.status == "SUCCEEDED" and final.error_message is None and final.job_id == job.id
    assert final.file_url is not None and "/v2.0/files/" in final.file_url
    assert [s.status for s in seen][-1] == "SUCCEEDED"
    assert {s.status for s in seen} <= {"QUEUED", "PROCESSING", "SUCCEEDED"}
    path = job.download(tmp_path / "from-job.pptx")
    expect_quarterly_review(keep(path.read_bytes(), [SAMPLE]))
    # Each status call issues a fresh link; the download is the same deck.
    assert job.download() == path.read_bytes()


def test_usage_counts_the_slides_of_both_styles(client: Deckforge, keep: Keep) -> None:
    before = client.usage()
    keep(client.generate(SAMPLE, PAYLOAD), [SAMPLE])
    job = client.submit(SAMPLE, PAYLOAD)
    assert job.wait().succeeded
    after = client.usage()
    assert after.plan == "Roomy" and after.allowed_slide_count == 1_000_000
    assert after.used_slide_count - before.used_slide_count == 6
    assert after.successful_api_call_count > before.successful_api_call_count
    assert after.reset_date and after.subscription_start_date and after.subscriptions


def test_shape_a_400_with_each_problem_and_its_path(client: Deckforge) -> None:
    bad = {"presentation": {"slides": [{"slide_index": "first"}, {"slide_index": -1}]}}
    with pytest.raises(InvalidInputError) as raised:
        client.generate(SAMPLE, bad)
    error = raised.value
    assert (error.status_code, error.message) == (400, "Invalid input parameters")
    assert error.details and error.detail is None and error.title is None
    assert [p.path for p in error.problems] == ["presentation.slides[0].slide_index", "presentation.slides[1].slide_index"]
    assert all(p.message for p in error.problems) and error.request_id
    assert error.code == "DECKFORGE_INVALID_PAYLOAD"


def test_shape_b_401_for_a_token_the_server_refuses(service: Service) -> None:
    with Deckforge(service.base, token="not-a-token") as deckforge:
        with pytest.raises(AuthenticationError) as raised:
            deckforge.usage()
    assert (raised.value.status_code, raised.value.message) == (401, "Unauthorized")
    assert raised.value.detail and raised.value.details is None
    assert raised.value.code == "DECKFORGE_UNAUTHORIZED"


def test_token_service_401_for_wrong_credentials(service: Service, accounts: Accounts) -> None:
    with Deckforge.from_credentials(service.base, accounts.main.email, "wrong password", accounts.main.key) as deckforge:
        with pytest.raises(AuthenticationError) as raised:
            deckforge.usage()
    assert raised.value.status_code == 401
    assert raised.value.body == {"isSuccess": False, "Message": raised.value.message, "Result": {}}
    assert raised.value.message and "invalid" in raised.value.message.lower()
    assert raised.value.code == "DECKFORGE_INVALID_CREDENTIALS"


def test_shape_b_404_for_an_unknown_job(client: Deckforge) -> None:
    with pytest.raises(NotFoundError) as raised:
        client.job("00000000-0000-4000-8000-000000000000").status()
    assert (raised.value.status_code, raised.value.message) == (404, "Not Found")
    assert raised.value.detail


def test_shape_b_429_past_the_monthly_slides_raised_at_once(service: Service, accounts: Accounts) -> None:
    # The Tight plan allows 3 slides a month: 4 are refused, and the Retry-After (the period's end, days away) is
    # far past max_retry_wait, so the client does not wait for it.
    four = {"presentation": {"slides": [{"slide_index": 0}] * 4}}
    with signed_in(service, accounts.tight) as deckforge:
        with pytest.raises(RateLimitError) as raised:
            deckforge.generate(SAMPLE, four)
    error = raised.value
    assert (error.status_code, error.message) == (429, "Too Many Requests - usage or rate limit exceeded")
    assert error.detail and error.retry_after is not None and error.retry_after > 3600
    assert error.code == "DECKFORGE_QUOTA_EXCEEDED"


def test_shape_c_500_when_a_stored_template_is_lost_on_disk(service: Service, accounts: Accounts) -> None:
    # A real fault of the server: the stored template's file vanished from its blob store (an account of its
    # own, as an account's templates share their files).
    client = signed_in(service, accounts.faults)
    stored = client.upload_template(SAMPLE, "lost-on-disk.pptx")
    files = [p for p in (service.data_dir / "blobs" / "templates").rglob("template.pptx")]
    lost = [p for p in files if stored.sha256 in str(p)]
    assert lost, f"the stored template's file is not under the data directory: {files}"
    for path in lost:
        path.unlink()
    payload = {"presentation": {"template": "lost-on-disk.pptx", "slides": [{"slide_index": 0}]}}
    with pytest.raises(ServerError) as generating:
        client.generate(None, payload)
    with pytest.raises(ServerError) as queuing:
        client.submit(None, payload)
    for raised, operation in ((generating, "generating the presentation"), (queuing, "queuing the presentation")):
        error = raised.value
        assert (error.status_code, error.title) == (500, "Error")
        assert error.detail and operation in error.detail and error.message is None
    client.close()
