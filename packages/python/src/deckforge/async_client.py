"""The asynchronous client, :class:`AsyncDeckforge`, and its :class:`AsyncJob`: the methods of
:class:`~deckforge.Deckforge`, as coroutines (docs/python.md)."""

from __future__ import annotations

import os
import asyncio
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, TypeVar, Union, overload

import httpx

from . import calls
from .calls import Call, DeckFormat, JobFormat, RenderFormat
from .errors import NetworkError, PermissionDeniedError, error_from_response, retry_after_seconds
from .jobs import JobLinks, poll_pauses
from .models import Deck, JobStatus, Rendering, StoredTemplate, StoredTemplateDetail, Usage
from .settings import DEFAULT_TIMEOUT, ClientSettings, TimeoutSetting, describe, log
from .sources import FileSource, NamedFiles, Payload, TemplateSource
from .tokens import credentials_of

T = TypeVar("T")
PathArg = Union[str, "os.PathLike[str]"]
ProgressCallback = Callable[[JobStatus], None]


class AsyncDeckforge:
    """A client of one Deckforge server for asyncio code. Close it (``await aclose()``, or ``async with``)."""

    def __init__(
        self,
        base_url: str,
        token: Optional[str] = None,
        *,
        email: Optional[str] = None,
        password: Optional[str] = None,
        key: Optional[str] = None,
        timeout: TimeoutSetting = DEFAULT_TIMEOUT,
        max_retries: int = 2,
        max_retry_wait: float = 60.0,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        credentials = credentials_of(email, password, key)
        self._settings = ClientSettings(base_url, token, credentials, timeout, max_retries, max_retry_wait)
        self._http = http_client or httpx.AsyncClient(timeout=self._settings.timeout)
        self._owns_http = http_client is None
        # Made on first use, inside the event loop that uses it (Python 3.9 binds a lock to a loop at creation).
        self._renewal: Optional[asyncio.Lock] = None

    @classmethod
    def from_credentials(
        cls, base_url: str, email: str, password: str, key: str, **options: Any
    ) -> AsyncDeckforge:
        """A client that creates its token (``POST /v1.0/token/create``) and renews it before its 24 hours end."""
        return cls(base_url, email=email, password=password, key=key, **options)

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncDeckforge:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def authenticate(self) -> str:
        """A token valid now: the one in use, or a new one when there is none or it is 23 hours old."""
        return await self._token(None)

    async def generate(
        self,
        template: TemplateSource,
        payload: Payload,
        files: Optional[NamedFiles] = None,
        *,
        format: DeckFormat = "pptx",
        out: Optional[PathArg] = None,
        idempotency_key: Optional[str] = None,
    ) -> Deck:
        """The deck, built while the request waits (``POST /v1.0/generator/create``), also written to ``out``."""
        deck = await self._run(calls.generate(template, payload, files, format, idempotency_key))
        if out is not None:
            deck.save(out)
        return deck

    async def submit(
        self,
        template: TemplateSource,
        payload: Payload,
        files: Optional[NamedFiles] = None,
        *,
        format: JobFormat = "pptx",
        previews: bool = False,
        preview_width: Optional[int] = None,
        callback_url: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> AsyncJob:
        """Queues the deck (``POST /v2.0/generator/create-async``); a template or payload problem ends it FAILED."""
        call = calls.submit(
            template,
            payload,
            files,
            format=format,
            previews=previews,
            preview_width=preview_width,
            callback_url=callback_url,
            idempotency_key=idempotency_key,
        )
        return AsyncJob(self, await self._run(call))

    def job(self, job_id: str) -> AsyncJob:
        """The job of an id from an earlier ``submit`` (or another process)."""
        return AsyncJob(self, job_id)

    async def job_status(self, job_id: str) -> JobStatus:
        return await self._run(calls.job_status(job_id))

    async def usage(self) -> Usage:
        return await self._run(calls.usage())

    async def inspect(self, template: FileSource) -> Dict[str, Any]:
        """What ``deckforge inspect --json`` prints: slides, layouts, each shape's name, kind, box and content."""
        return await self._run(calls.inspect(template))

    async def render(
        self,
        deck: FileSource,
        format: RenderFormat = "pdf",
        *,
        width: Optional[int] = None,
        out: Optional[PathArg] = None,
    ) -> Rendering:
        """A .pptx made anywhere as a PDF, or a zip of one PNG per slide (``POST /v1.0/render``)."""
        rendering = await self._run(calls.render(deck, format, width))
        if out is not None:
            rendering.save(out)
        return rendering

    async def upload_template(self, template: FileSource, name: Optional[str] = None) -> StoredTemplate:
        """Stores a template under ``name`` (default: its file name): version 1, or the name's next version."""
        return await self._run(calls.upload_template(template, name))

    async def list_templates(self) -> List[StoredTemplate]:
        """The latest version of each stored template, by name."""
        return await self._run(calls.list_templates())

    async def get_template(self, template_id: str) -> StoredTemplateDetail:
        return await self._run(calls.get_template(template_id))

    async def download_template(self, template_id: str, out: Optional[PathArg] = None) -> bytes:
        content = await self._run(calls.download_template(template_id))
        if out is not None:
            Path(out).write_bytes(content)
        return content

    async def delete_template(self, template_id: str) -> int:
        """Deletes the template's name with every version; returns how many versions went."""
        return await self._run(calls.delete_template(template_id))

    @overload
    async def download_link(self, url: str) -> bytes: ...

    @overload
    async def download_link(self, url: str, out: PathArg) -> Path: ...

    async def download_link(self, url: str, out: Optional[PathArg] = None) -> Union[bytes, Path]:
        """The file behind a pre-signed link of a job status, fetched without the token; streamed to ``out``."""
        call = calls.download_link(url)
        if out is None:
            content: bytes = await self._run(call)
            return content
        await self._exchange(call, Path(out))
        return Path(out)

    async def _run(self, call: Call[T]) -> T:
        return call.read(await self._exchange(call, None))

    async def _exchange(self, call: Call[Any], stream_to: Optional[Path]) -> httpx.Response:
        """One call with its retries (retries.py) and, with credentials, one token renewal after a 401."""
        settings = self._settings
        attempt = 0
        renewed = False
        while True:
            token = await self._token(None) if call.authenticated else None
            request = self._http.build_request(
                call.method,
                settings.url(call),
                headers=settings.headers(call, token),
                data=dict(call.fields) or None,
                files=call.multipart(),
                timeout=settings.timeout,
            )
            try:
                response = await self._http.send(request, stream=True)
                try:
                    if response.is_success and stream_to is not None:
                        with open(stream_to, "wb") as file:
                            async for chunk in response.aiter_bytes():
                                file.write(chunk)
                    else:
                        await response.aread()
                finally:
                    await response.aclose()
            except httpx.TransportError as error:
                wait = settings.policy.after_network_error(attempt, error, call.repeatable)
                if wait is None:
                    raise NetworkError(f"no answer to {describe(call)}: {error!r}") from error
                log.info("retrying %s in %.1f s after %r", describe(call), wait, error)
                await asyncio.sleep(wait)
                attempt += 1
                continue
            if response.is_success:
                return response
            if response.status_code == 401 and settings.can_renew(token) and not renewed:
                renewed = True
                await self._token(token)
                continue
            wait = settings.policy.after_status(attempt, response.status_code, retry_after_seconds(response.headers.get("retry-after")))
            if wait is None:
                raise error_from_response(response)
            log.info("retrying %s in %.1f s after %d", describe(call), wait, response.status_code)
            await asyncio.sleep(wait)
            attempt += 1

    async def _token(self, refused: Optional[str]) -> str:
        """The token to send; a new one when there is none, it is old, or it is ``refused`` (by a 401)."""
        tokens = self._settings.tokens
        usable = tokens.usable()
        if usable is not None and usable != refused:
            return usable
        if self._renewal is None:
            self._renewal = asyncio.Lock()
        async with self._renewal:
            # Another thread may have renewed it while this one waited.
            usable = tokens.usable()
            if usable is not None and usable != refused:
                return usable
            credentials = tokens.credentials
            if credentials is None:
                assert tokens.token is not None
                return tokens.token
            tokens.store(await self._run(calls.token(credentials.email, credentials.password, credentials.key)))
            assert tokens.token is not None
            return tokens.token


class AsyncJob:
    """A submitted job: its status, a wait until it ends, and its files."""

    def __init__(self, client: AsyncDeckforge, job_id: str) -> None:
        self.id = job_id
        self._client = client
        self._links = JobLinks(job_id)

    def __repr__(self) -> str:
        return f"<AsyncJob {self.id}>"

    async def status(self) -> JobStatus:
        return self._links.seen(await self._client.job_status(self.id))

    async def wait(
        self,
        progress: Optional[ProgressCallback] = None,
        timeout: float = 600.0,
        *,
        initial_interval: float = 0.5,
        max_interval: float = 5.0,
    ) -> JobStatus:
        """Polls until SUCCEEDED or FAILED and returns that status (a failed job is no exception: see
        ``error_message``). ``progress`` gets every status read, its ``progress`` figures included; past
        ``timeout`` seconds, :class:`~deckforge.JobTimeoutError`."""
        deadline = time.monotonic() + timeout
        for pause in poll_pauses(initial_interval, max_interval):
            status = await self.status()
            if progress is not None:
                progress(status)
            if status.done:
                return status
            await asyncio.sleep(self._links.pause_before(deadline, pause, status))
        raise AssertionError("unreachable")

    @overload
    async def download(self) -> bytes: ...

    @overload
    async def download(self, path: PathArg) -> Path: ...

    async def download(self, path: Optional[PathArg] = None) -> Union[bytes, Path]:
        """The result of a succeeded job through its pre-signed link (streamed to ``path`` when given)."""
        return await self._fetch("file_url", 0, path)

    @overload
    async def download_pdf(self) -> bytes: ...

    @overload
    async def download_pdf(self, path: PathArg) -> Path: ...

    async def download_pdf(self, path: Optional[PathArg] = None) -> Union[bytes, Path]:
        """The PDF of a job submitted with ``format="pptx+pdf"`` (``pdf_url``)."""
        return await self._fetch("pdf_url", 0, path)

    async def download_previews(self, directory: PathArg) -> List[Path]:
        """The slide pictures of a job submitted with ``previews=True``, as ``slide-1.png``, … in ``directory``."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        count = len(self._links.urls(await self._current(), "preview_urls"))
        paths = [folder / f"slide-{i + 1}.png" for i in range(count)]
        for i, path in enumerate(paths):
            await self._fetch("preview_urls", i, path)
        return paths

    async def _current(self) -> JobStatus:
        return self._links.last_success() or await self.status()

    async def _fetch(self, kind: str, index: int, path: Optional[PathArg]) -> Union[bytes, Path]:
        status = await self._current()
        for attempt in range(2):
            url = self._links.urls(status, kind)[index]
            try:
                if path is None:
                    return await self._client.download_link(url)
                return await self._client.download_link(url, path)
            except PermissionDeniedError:
                if attempt:
                    raise
                status = await self.status()  # the 15-minute link ran out: the status gives a fresh one
        raise AssertionError("unreachable")
