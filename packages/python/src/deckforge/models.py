"""What the API answers, as Python objects: each keeps the server's fields under snake_case names, and ``raw``
keeps the JSON it came from (docs/http-api.md has every field)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

JobState = str
"""``QUEUED``, ``PROCESSING``, ``SUCCEEDED`` or ``FAILED`` (the last two are final)."""

FINAL_STATES = ("SUCCEEDED", "FAILED")


@dataclass(frozen=True)
class DeckWarning:
    """Something the server did not do as asked, with the JSON path it is about (docs/payload.md)."""

    path: str
    message: str
    #: Set on the accessibility report's warnings (docs/payload.md, "Accessibility").
    code: Optional[str] = None

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> DeckWarning:
        code = value.get("code")
        return cls(str(value.get("path", "")), str(value.get("message", "")), code if isinstance(code, str) else None)


def _warnings(values: Any) -> Tuple[DeckWarning, ...]:
    return tuple(DeckWarning.from_json(v) for v in values if isinstance(v, dict)) if isinstance(values, list) else ()


@dataclass(frozen=True)
class Progress:
    """How far a PROCESSING job is: the payload's slide entries written of how many, and pages once it renders."""

    slides_done: int
    slides_total: int
    pages_rendered: Optional[int]


@dataclass(frozen=True)
class WebhookDelivery:
    """How the webhook of a job submitted with ``callback_url`` went so far."""

    url: str
    #: ``WAITING``, ``DELIVERING``, ``DELIVERED`` or ``GAVE_UP``.
    state: str
    attempts: int
    last_status: Optional[int]
    last_error: Optional[str]


@dataclass(frozen=True)
class JobStatus:
    """A job's status (``GET /v2.0/jobs/{id}/status``), or the body of its webhook."""

    job_id: str
    status: JobState
    error_message: Optional[str]
    #: The pre-signed link of the result (15 minutes), once SUCCEEDED.
    file_url: Optional[str]
    warnings: Tuple[DeckWarning, ...]
    progress: Optional[Progress]
    #: Jobs submitted with ``format="pptx+pdf"``: the PDF's link.
    pdf_url: Optional[str]
    #: Jobs submitted with ``previews=True``: one PNG link per slide.
    preview_urls: Tuple[str, ...]
    webhook: Optional[WebhookDelivery]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @property
    def done(self) -> bool:
        """SUCCEEDED or FAILED: nothing will change any more."""
        return self.status in FINAL_STATES

    @property
    def succeeded(self) -> bool:
        return self.status == "SUCCEEDED"

    @classmethod
    def from_json(cls, value: Dict[str, Any], job_id: Optional[str] = None) -> JobStatus:
        progress = value.get("progress")
        webhook = value.get("webhook")
        return cls(
            job_id=str(value.get("job_id", job_id or "")),
            status=str(value.get("status", "")),
            error_message=value.get("error_message"),
            file_url=value.get("file_url"),
            warnings=_warnings(value.get("warnings")),
            progress=Progress(
                int(progress["slides_done"]), int(progress["slides_total"]), progress.get("pages_rendered")
            )
            if isinstance(progress, dict)
            else None,
            pdf_url=value.get("pdf_url"),
            preview_urls=tuple(value.get("preview_urls") or ()),
            webhook=WebhookDelivery(
                str(webhook.get("url", "")),
                str(webhook.get("state", "")),
                int(webhook.get("attempts", 0)),
                webhook.get("last_status"),
                webhook.get("last_error"),
            )
            if isinstance(webhook, dict)
            else None,
            raw=value,
        )


@dataclass(frozen=True)
class StoredTemplate:
    """One version of a stored template (docs/http-api.md, "Stored templates")."""

    #: This version; usable as the template of a payload for exactly this version.
    id: str
    #: Usable as the template of a payload for the latest version.
    name: str
    version: int
    sha256: str
    #: The file's size in bytes (the server's ``bytes``).
    size: int
    slides: int
    #: ISO 8601, UTC.
    created_at: str
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, value: Dict[str, Any]) -> StoredTemplate:
        return cls(
            id=str(value["id"]),
            name=str(value["name"]),
            version=int(value["version"]),
            sha256=str(value["sha256"]),
            size=int(value["bytes"]),
            slides=int(value["slides"]),
            created_at=str(value["created_at"]),
            raw=value,
        )


@dataclass(frozen=True)
class StoredTemplateDetail:
    """A stored version with every version of its name (newest first) and what inspecting it gives."""

    template: StoredTemplate
    versions: Tuple[StoredTemplate, ...]
    inspect: Dict[str, Any]

    @classmethod
    def from_json(cls, value: Dict[str, Any]) -> StoredTemplateDetail:
        return cls(
            template=StoredTemplate.from_json(value),
            versions=tuple(StoredTemplate.from_json(v) for v in value.get("versions", [])),
            inspect=value.get("inspect", {}),
        )


@dataclass(frozen=True)
class Usage:
    """The usage ``result`` of ``GET /v1.0/usage``: the plan, slides used and allowed this period, call counts."""

    plan: str
    used_slide_count: int
    allowed_slide_count: int
    #: As the interface writes it: day, month name, year ("21 December 2026").
    reset_date: str
    subscription_start_date: str
    previous_month_used_slide_count: int
    total_api_call_count: int
    successful_api_call_count: int
    failed_api_call_count: int
    subscriptions: Tuple[Dict[str, Any], ...]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, result: Dict[str, Any]) -> Usage:
        def count(name: str) -> int:
            return int(result.get(name) or 0)

        return cls(
            plan=str(result.get("plan", "")),
            used_slide_count=count("usedSlideCount"),
            allowed_slide_count=count("allowedSlideCount"),
            reset_date=str(result.get("resetDate", "")),
            subscription_start_date=str(result.get("subscriptionStartDate", "")),
            previous_month_used_slide_count=count("previousMonthUsedSlideCount"),
            total_api_call_count=count("totalApiCallCount"),
            successful_api_call_count=count("successfulApiCallCount"),
            failed_api_call_count=count("failedApiCallCount"),
            subscriptions=tuple(s for s in result.get("subscriptions", []) if isinstance(s, dict)),
            raw=result,
        )


class FileAnswer(bytes):
    """A file the server answered with: its bytes, plus its name (from Content-Disposition), its warnings and
    how many slides or pages it holds."""

    file_name: str
    content_type: str
    warnings: Tuple[DeckWarning, ...]
    _count: int

    def __new__(
        cls,
        content: bytes,
        *,
        file_name: str,
        content_type: str,
        warnings: Tuple[DeckWarning, ...] = (),
        count: int = 0,
    ) -> FileAnswer:
        answer = super().__new__(cls, content)
        answer.file_name = file_name
        answer.content_type = content_type
        answer.warnings = warnings
        answer._count = count
        return answer

    def save(self, path: Union[str, os.PathLike[str]]) -> Path:
        """Writes the bytes to ``path`` and returns it."""
        target = Path(path)
        target.write_bytes(self)
        return target

    _COUNTED = "item(s)"

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.file_name!r} {len(self):,} bytes, "
            f"{self._count} {self._COUNTED}, {len(self.warnings)} warning(s)>"
        )

    # print() shows this too, not the bytes.
    __str__ = __repr__


class Deck(FileAnswer):
    """The generated deck (``.pptx``, or its PDF with ``format="pdf"``) as bytes."""

    _COUNTED = "slide(s)"

    @property
    def slide_count(self) -> int:
        """The deck's slides (continuation slides of long tables included), from ``X-Slide-Count``."""
        return self._count


class Rendering(FileAnswer):
    """A deck drawn by ``render``: a PDF, or a zip of ``slide-1.png``, ``slide-2.png``, …"""

    _COUNTED = "page(s)"

    @property
    def page_count(self) -> int:
        """The pages drawn (the deck's visible slides), from ``X-Page-Count``; charged as slides."""
        return self._count


def warnings_from_header(value: Optional[str]) -> Tuple[DeckWarning, ...]:
    """``X-Generation-Warnings-Detail``: a JSON array of ``{path, message, code?}``."""
    if not value:
        return ()
    try:
        parsed: Any = json.loads(value)
    except ValueError:
        return ()
    return _warnings(parsed)


def list_of_templates(value: Dict[str, Any]) -> List[StoredTemplate]:
    return [StoredTemplate.from_json(t) for t in value.get("templates", [])]
