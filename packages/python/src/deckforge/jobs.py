"""What the sync and the async job share: the polling pauses, the deadline, and which link of a status a
download follows (docs/http-api.md, "Asynchronous")."""

from __future__ import annotations

import time
from typing import Iterator, List, Optional

from .errors import JobFailedError, JobTimeoutError
from .models import JobStatus

_LINK_FIELDS = {"file_url": "the deck", "pdf_url": 'the PDF (submit with format="pptx+pdf")'}


def poll_pauses(initial: float, maximum: float) -> Iterator[float]:
    """``initial`` seconds, then half as long again each time, up to ``maximum`` (0.5 s to 5 s by default; the
    interface recommends 2 to 5 s between polls, and a small job is often done within the first second)."""
    pause = initial
    while True:
        yield pause
        pause = min(maximum, pause * 1.5)


class JobLinks:
    def __init__(self, job_id: str) -> None:
        self.job_id = job_id
        self._success: Optional[JobStatus] = None

    def seen(self, status: JobStatus) -> JobStatus:
        if status.succeeded:
            self._success = status
        return status

    def last_success(self) -> Optional[JobStatus]:
        return self._success

    def pause_before(self, deadline: float, pause: float, status: JobStatus) -> float:
        left = deadline - time.monotonic()
        if left <= 0:
            raise JobTimeoutError(self.job_id, status.status)
        return min(pause, left)

    def urls(self, status: JobStatus, kind: str) -> List[str]:
        if not status.succeeded:
            raise JobFailedError(self.job_id, status.status, status.error_message)
        if kind == "preview_urls":
            if not status.preview_urls:
                raise ValueError(f"job {self.job_id} has no slide pictures: submit it with previews=True")
            return list(status.preview_urls)
        url = status.file_url if kind == "file_url" else status.pdf_url
        if not url:
            raise ValueError(f"job {self.job_id} has no link to {_LINK_FIELDS[kind]}")
        return [url]
