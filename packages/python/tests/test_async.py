"""AsyncDeckforge: the same calls as coroutines (docs/python.md, "Async"), several at once on one token."""

from __future__ import annotations

import asyncio
from typing import List

import httpx
import pytest

from conftest import SAMPLE, Accounts, Keep
from deckforge import AsyncDeckforge, JobStatus, NotFoundError
from support.pptx import slide_texts
from support.service import Service


def deck_payload(title: str) -> dict[str, object]:
    return {"presentation": {"slides": [{"slide_index": 1, "shapes": [{"name": "Title", "content": title}]}]}}


def test_async_generate_submit_wait_download_usage_and_errors(
    service: Service, accounts: Accounts, keep: Keep
) -> None:
    account = accounts.main
    token_requests: List[str] = []

    async def on_request(request: httpx.Request) -> None:
        if request.url.path == "/v1.0/token/create":
            token_requests.append(request.url.path)

    async def session() -> None:
        async with httpx.AsyncClient(event_hooks={"request": [on_request]}) as http:
            async with AsyncDeckforge.from_credentials(
                service.base, account.email, account.password, account.key, http_client=http
            ) as deckforge:
                decks = await asyncio.gather(*(deckforge.generate(SAMPLE, deck_payload(f"Deck {i}")) for i in range(3)))
                for i, deck in enumerate(decks):
                    assert f"Deck {i}" in slide_texts(keep(deck, [SAMPLE]))[0]
                job = await deckforge.submit(SAMPLE, deck_payload("Queued"))
                seen: List[JobStatus] = []
                final = await job.wait(progress=seen.append, initial_interval=0.05)
                assert final.succeeded and seen[-1] == final
                assert "Queued" in slide_texts(keep(await job.download(), [SAMPLE]))[0]
                assert (await deckforge.usage()).plan == "Roomy"
                stored = await deckforge.upload_template(SAMPLE, "async.pptx")
                assert stored in await deckforge.list_templates()
                assert await deckforge.delete_template(stored.id) == 1
                with pytest.raises(NotFoundError):
                    await deckforge.job_status("00000000-0000-4000-8000-000000000000")

    asyncio.run(session())
    # Three calls at once needed a token: one was made, and shared.
    assert token_requests == ["/v1.0/token/create"]
