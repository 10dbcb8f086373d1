"""What the client retries, and that no retry charges twice (docs/python.md, "Retries and timeouts"): a 429
answered by the real server and then a 202 after its Retry-After, on a submit; a submit whose answer was lost
on the way, retried with its Idempotency-Key; a delete whose answer was lost, not retried; a server that is not
there; tokens renewed after a 401 and before they expire."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Iterator, List

import httpx
import pytest

from conftest import SAMPLE, Accounts, signed_in
from deckforge import Deckforge, NetworkError, NotFoundError, tokens
from support.relay import Relay
from support.service import Service, faketime_env, free_port

PAYLOAD = {"presentation": {"slides": [{"slide_index": 0}, {"slide_index": 2}]}}


@pytest.fixture(scope="module")
def clocked(service: Service) -> Iterator[tuple[str, Path]]:
    """A second ``deckforge serve --no-worker`` on the session's data directory whose clock the test can move
    (libfaketime): the plan's request rate is counted in windows of a clock minute, and waiting for a minute to
    end takes up to a minute unless the server is moved near the end of one."""
    clock = service.data_dir / "clock"
    env = faketime_env(clock)
    if env is None:
        if os.environ.get("CI") == "true":
            pytest.fail("libfaketime (Debian's faketime) is missing; CI installs it")
        pytest.skip("libfaketime (Debian's faketime) is not installed: the 429-then-200 test needs it")
    yield service.serve_more(env, ["--no-worker"]), clock


class ServerClock:
    """The clocked server's time: ours plus an offset that only grows (the server never sees time go back)."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.offset = 0.0

    def seconds_left_in_minute(self) -> float:
        return 60 - (time.time() + self.offset) % 60

    def to_minute_end(self, seconds_left: float) -> None:
        self.offset += (self.seconds_left_in_minute() - seconds_left) % 60
        self.file.write_text(f"+{self.offset:.3f}\n")


def test_a_429_then_202_after_retry_after_charged_once(
    clocked: tuple[str, Path], service: Service, accounts: Accounts, caplog: pytest.LogCaptureFixture
) -> None:
    base, clock_file = clocked
    clock = ServerClock(clock_file)
    account = accounts.paced  # its plan takes one request a minute
    with signed_in(service, account) as watcher, Deckforge(base, watcher.authenticate()) as paced:
        # This minute's one request, late in the minute; again in the next minute if the machine was too slow.
        for _ in range(3):
            clock.to_minute_end(1.8)
            before = paced.usage()
            if clock.seconds_left_in_minute() > 0.8:
                break
        caplog.set_level(logging.INFO, logger="deckforge")
        started = time.monotonic()
        job = paced.submit(SAMPLE, PAYLOAD)  # 429 with Retry-After: 1 or 2, then 202 in the next minute
        waited = time.monotonic() - started
        retries = [r.getMessage() for r in caplog.records if r.name == "deckforge" and "retrying" in r.getMessage()]
        assert len(retries) == 1, retries
        assert "POST /v2.0/generator/create-async" in retries[0] and "after 429" in retries[0]
        assert 0.8 <= waited < 10
        # The job runs on the session's server (the clocked one takes no jobs), and is charged once.
        assert watcher.job(job.id).wait(initial_interval=0.1).succeeded
        assert watcher.usage().used_slide_count - before.used_slide_count == 2


def test_a_submit_whose_answer_was_lost_is_retried_with_its_key_and_charged_once(
    service: Service, accounts: Accounts
) -> None:
    relay = Relay(("127.0.0.1", int(service.base.rsplit(":", 1)[1])))
    try:
        with signed_in(service, accounts.main) as direct, Deckforge(relay.base, direct.authenticate(), timeout=20) as relayed:
            before = direct.usage().used_slide_count
            relay.cut = 1  # the server's answer to the next connection never reaches the client
            job = relayed.submit(SAMPLE, PAYLOAD)
            [lost] = relay.lost_answers
            assert b" 202 " in lost.split(b"\r\n", 1)[0] and job.id.encode() in lost  # the same job, not a second
            assert relay.requests(b"POST /v2.0/generator/create-async") == 2
            assert direct.job(job.id).wait(initial_interval=0.1).succeeded
            assert direct.usage().used_slide_count - before == 2
    finally:
        relay.close()


def test_a_delete_whose_answer_was_lost_is_not_repeated(service: Service, accounts: Accounts) -> None:
    relay = Relay(("127.0.0.1", int(service.base.rsplit(":", 1)[1])))
    try:
        with signed_in(service, accounts.main) as direct, Deckforge(relay.base, direct.authenticate(), timeout=20) as relayed:
            stored = direct.upload_template(SAMPLE, "deleted-once.pptx")
            relay.cut = 1
            with pytest.raises(NetworkError):
                relayed.delete_template(stored.id)
            assert relay.requests(b"DELETE /v1.0/templates/") == 1
            with pytest.raises(NotFoundError):  # it was deleted, once
                direct.get_template(stored.id)
    finally:
        relay.close()


def test_no_server_is_a_network_error_after_the_retries() -> None:
    with Deckforge(f"http://127.0.0.1:{free_port()}", token="t", max_retries=1) as nowhere:
        started = time.monotonic()
        with pytest.raises(NetworkError, match="no answer to GET /v1.0/usage"):
            nowhere.usage()
    assert time.monotonic() - started < 5


def test_tokens_renewed_after_a_401_and_an_hour_before_they_expire(
    service: Service, accounts: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    requests: List[str] = []
    hooks = {"request": [lambda request: requests.append(f"{request.method} {request.url.path}")]}
    account = accounts.main
    with httpx.Client(event_hooks=hooks) as http:
        # A token the server refuses (revoked, or of a restarted server's past): one new token, one retry.
        refused = Deckforge(
            service.base, "not-a-token", email=account.email, password=account.password, key=account.key, http_client=http
        )
        assert refused.usage().plan == "Roomy"
        assert requests == ["GET /v1.0/usage", "POST /v1.0/token/create", "GET /v1.0/usage"]
        first = refused.authenticate()
        # 23.5 hours later (the client's clock): a new token before the old one's 24 hours end, without a 401.
        later = time.time() + 23.5 * 3600
        monkeypatch.setattr(tokens, "_now", lambda: later)
        requests.clear()
        refused.usage()
        assert requests == ["POST /v1.0/token/create", "GET /v1.0/usage"]
        assert refused.authenticate() != first
