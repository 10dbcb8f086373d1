"""The synchronous client, :class:`Deckforge`, and its :class:`Job` (docs/python.md)."""

from __future__ import annotations

import os
import threading
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


class Deckforge:
    """A client of one Deckforge server. Thread-safe; close it (or use ``with``) to release its connections."""

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
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        credentials = credentials_of(email, password, key)
        self._settings = ClientSettings(base_url, token, credentials, timeout, max_retries, max_retry_wait)
        self._http = http_client or httpx.Client(timeout=self._settings.timeout)
        self._owns_http = http_client is None
        self._renewal = threading.Lock()

    @classmethod
    def from_credentials(
        cls, base_url: str, email: str, password: str, key: str, **options: Any
    ) -> Deckforge:
        """A client that creates its token (``POST /v1.0/token/create``) and renews it before its 24 hours end."""
        return cls(base_url, email=email, password=password, key=key, **options)

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Deckforge:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def authenticate(self) -> str:
        """A token valid now: the one in use, or a new one when there is none or it is 23 hours old."""
        return self._token(None)

    def generate(
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
        deck = self._run(calls.generate(template, payload, files, format, idempotency_key))
        if out is not None:
            deck.save(out)
        return deck

    def submit(
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
    ) -> Job:
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
        return Job(self, self._run(call))

    def job(self, job_id: str) -> Job:
        """The job of an id from an earlier ``submit`` (or another process)."""
        return Job(self, job_id)

    def job_status(self, job_id: str) -> JobStatus:
        return self._run(calls.job_status(job_id))

    def usage(self) -> Usage:
        return self._run(calls.usage())

    def inspect(self, template: FileSource) -> Dict[str, Any]:
        """What ``deckforge inspect --json`` prints: slides, layouts, each shape's name, kind, box and content."""
        return self._run(calls.inspect(template))

    def render(
        self,
        deck: FileSource,
        format: RenderFormat = "pdf",
        *,
        width: Optional[int] = None,
        out: Optional[PathArg] = None,
    ) -> Rendering:
        """A .pptx made anywhere as a PDF, or a zip of one PNG per slide (``POST /v1.0/render``)."""
        rendering = self._run(calls.render(deck, format, width))
        if out is not None:
            rendering.save(out)
        return rendering

    def upload_template(self, template: FileSource, name: Optional[str] = None) -> StoredTemplate:
        """Stores a template under ``name`` (default: its file name): version 1, or the name's next version."""
        return self._run(calls.upload_template(template, name))

    def list_templates(self) -> List[StoredTemplate]:
        """The latest version of each stored template, by name."""
        return self._run(calls.list_templates())

    def get_template(self, template_id: str) -> StoredTemplateDetail:
        return self._run(calls.get_template(template_id))

    def download_template(self, template_id: str, out: Optional[PathArg] = None) -> bytes:
        content = self._run(calls.download_template(template_id))
        if out is not None:
            Path(out).write_bytes(content)
        return content

    def delete_template(self, template_id: str) -> int:
        """Deletes the template's name with every version; returns how many versions went."""
        return self._run(calls.delete_template(template_id))

    @overload
    def download_link(self, url: str) -> bytes: ...

    @overload
    def download_link(self, url: str, out: PathArg) -> Path: ...

    def download_link(self, url: str, out: Optional[PathArg] = None) -> Union[bytes, Path]:
        """The file behind a pre-signed link of a job status, fetched without the token; streamed to ``out``."""
        call = calls.download_link(url)
        if out is None:
            content: bytes = self._run(call)
            return content
        self._exchange(call, Path(out))
        return Path(out)

    def _run(self, call: Call[T]) -> T:
        return call.read(self._exchange(call, None))

    def _exchange(self, call: Call[Any], stream_to: Optional[Path]) -> httpx.Response:
        """One call with its retries (retries.py) and, with credentials, one token renewal after a 401."""
        settings = self._settings
        attempt = 0
        renewed = False
        while True:
            token = self._token(None) if call.authenticated else None
            request = self._http.build_request(
                call.method,
                settings.url(call),
                headers=settings.headers(call, token),
                data=dict(call.fields) or None,
                files=call.multipart(),
                timeout=settings.timeout,
            )
            try:
                response = self._http.send(request, stream=True)
                try:
                    if response.is_success and stream_to is not None:
                        with open(stream_to, "wb") as file:
                            for chunk in response.iter_bytes():
                                file.write(chunk)
                    else:
                        response.read()
                finally:
                    response.close()
            except httpx.TransportError as error:
                wait = settings.policy.after_network_error(attempt, error, call.repeatable)
                if wait is None:
                    raise NetworkError(f"no answer to {describe(call)}: {error!r}") from error
                log.info("retrying %s in %.1f s after %r", describe(call), wait, error)
                time.sleep(wait)
                attempt += 1
                continue
            if response.is_success:
                return response
            if response.status_code == 401 and settings.can_renew(token) and not renewed:
                renewed = True
                self._token(token)
                continue
            wait = settings.policy.after_status(attempt, response.status_code, retry_after_seconds(response.headers.get("retry-after")))
            if wait is None:
                raise error_from_response(response)
            log.info("retrying %s in %.1f s after %d", describe(call), wait, response.status_code)
            time.sleep(wait)
            attempt += 1

    def _token(self, refused: Optional[str]) -> str:
        """The token to send; a new one when there is none, it is old, or it is ``refused`` (by a 401)."""
        tokens = self._settings.tokens
        usable = tokens.usable()
        if usable is not None and usable != refused:
            return usable
        with self._renewal:
            # Another thread may have renewed it while this one waited.
            usable = tokens.usable()
            if usable is not None and usable != refused:
                return usable
            credentials = tokens.credentials
            if credentials is None:
                assert tokens.token is not None
                return tokens.token
            tokens.store(self._run(calls.token(credentials.email, credentials.password, credentials.key)))
            assert tokens.token is not None
            return tokens.token


class Job:
    """A submitted job: its status, a wait until it ends, and its files."""

    def __init__(self, client: Deckforge, job_id: str) -> None:
        self.id = job_id
        self._client = client
        self._links = JobLinks(job_id)

    def __repr__(self) -> str:
        return f"<Job {self.id}>"

    def status(self) -> JobStatus:
        return self._links.seen(self._client.job_status(self.id))

    def wait(
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
            status = self.status()
            if progress is not None:
                progress(status)
            if status.done:
                return status
            time.sleep(self._links.pause_before(deadline, pause, status))
        raise AssertionError("unreachable")

    @overload
    def download(self) -> bytes: ...

    @overload
    def download(self, path: PathArg) -> Path: ...

    def download(self, path: Optional[PathArg] = None) -> Union[bytes, Path]:
        """The result of a succeeded job through its pre-signed link (streamed to ``path`` when given)."""
        return self._fetch("file_url", 0, path)

    @overload
    def download_pdf(self) -> bytes: ...

    @overload
    def download_pdf(self, path: PathArg) -> Path: ...

    def download_pdf(self, path: Optional[PathArg] = None) -> Union[bytes, Path]:
        """The PDF of a job submitted with ``format="pptx+pdf"`` (``pdf_url``)."""
        return self._fetch("pdf_url", 0, path)

    def download_previews(self, directory: PathArg) -> List[Path]:
        """The slide pictures of a job submitted with ``previews=True``, as ``slide-1.png``, … in ``directory``."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        count = len(self._links.urls(self._current(), "preview_urls"))
        paths = [folder / f"slide-{i + 1}.png" for i in range(count)]
        for i, path in enumerate(paths):
            self._fetch("preview_urls", i, path)
        return paths

    def _current(self) -> JobStatus:
        return self._links.last_success() or self.status()

    def _fetch(self, kind: str, index: int, path: Optional[PathArg]) -> Union[bytes, Path]:
        status = self._current()
        for attempt in range(2):
            url = self._links.urls(status, kind)[index]
            try:
                if path is None:
                    return self._client.download_link(url)
                return self._client.download_link(url, path)
            except PermissionDeniedError:
                if attempt:
                    raise
                status = self.status()  # the 15-minute link ran out: the status gives a fresh one
        raise AssertionError("unreachable")
