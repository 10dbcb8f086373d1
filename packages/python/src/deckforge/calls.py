"""Every API call as data, shared by the sync and the async client: what to send (method, path, fields, files,
headers), whether a repeat after a broken connection is safe (retries.py), and how to read the answer. The
clients only send and wait; nothing here does I/O but reading the files a call uploads."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Generic, List, Literal, Mapping, Optional, Tuple, TypeVar
from urllib.parse import quote, unquote

import httpx

from .errors import DeckforgeError
from .models import (
    Deck,
    JobStatus,
    Rendering,
    StoredTemplate,
    StoredTemplateDetail,
    Usage,
    list_of_templates,
    warnings_from_header,
)
from .sources import (
    FileSource,
    NamedFiles,
    Payload,
    TemplateSource,
    Upload,
    is_path,
    json_data,
    named_uploads,
    read_source,
    template_upload,
)

T = TypeVar("T")

DeckFormat = Literal["pptx", "pdf"]
JobFormat = Literal["pptx", "pdf", "pptx+pdf"]
RenderFormat = Literal["pdf", "png"]


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    #: A path under the base URL, or (for a download link) a whole URL.
    path: str
    read: Callable[[httpx.Response], T]
    fields: Mapping[str, str] = field(default_factory=dict)
    #: (form field, upload): `files` parts of the generation endpoints, `file` of a stored template.
    uploads: Tuple[Tuple[str, Upload], ...] = ()
    headers: Mapping[str, str] = field(default_factory=dict)
    authenticated: bool = True
    #: A repeat after the request was sent cannot charge or act twice (retries.py).
    repeatable: bool = True

    def multipart(self) -> Optional[List[Tuple[str, Tuple[str, bytes, str]]]]:
        if not self.uploads:
            return None
        return [(part, (upload.name, upload.content, "application/octet-stream")) for part, upload in self.uploads]


def _json(response: httpx.Response) -> Dict[str, Any]:
    """The JSON object of a 2xx answer; anything else (a proxy's page, say) is the server's fault to report."""
    try:
        value: Any = response.json()
    except ValueError:
        value = None
    if not isinstance(value, dict):
        kind = response.headers.get("content-type", "no content type")
        raise DeckforgeError(
            f"expected a JSON object from {response.request.method} {response.request.url.path}, got {kind}: "
            f"{response.text[:200]!r}"
        )
    return value


_FILENAME_STAR = re.compile(r"filename\*=UTF-8''([^;]+)", re.I)
_FILENAME = re.compile(r'filename="([^"]*)"', re.I)


def file_name_of(response: httpx.Response, fallback: str) -> str:
    """The name of Content-Disposition (RFC 6266, with RFC 8187's ``filename*`` for names beyond ASCII)."""
    disposition = response.headers.get("content-disposition", "")
    star = _FILENAME_STAR.search(disposition)
    if star:
        return unquote(star.group(1))
    plain = _FILENAME.search(disposition)
    return plain.group(1) if plain else fallback


def _count(response: httpx.Response, header: str) -> int:
    value = response.headers.get(header, "")
    return int(value) if value.isdigit() else 0


def _deck(response: httpx.Response) -> Deck:
    return Deck(
        response.content,
        file_name=file_name_of(response, "deck.pptx"),
        content_type=response.headers.get("content-type", ""),
        warnings=warnings_from_header(response.headers.get("x-generation-warnings-detail")),
        count=_count(response, "x-slide-count"),
    )


def generation_form(
    template: TemplateSource, payload: Payload, files: Optional[NamedFiles], format: str
) -> Tuple[Dict[str, str], Tuple[Tuple[str, Upload], ...]]:
    """The form of both generation endpoints: ``jsonData``, ``format`` unless pptx, and the ``files`` parts."""
    document, uploads = template_upload(template, payload)
    uploads += named_uploads(files)
    fields = {"jsonData": json_data(document)}
    if format != "pptx":
        fields["format"] = format
    return fields, tuple(("files", upload) for upload in uploads)


def generate(
    template: TemplateSource,
    payload: Payload,
    files: Optional[NamedFiles],
    format: DeckFormat,
    idempotency_key: Optional[str],
) -> Call[Deck]:
    fields, uploads = generation_form(template, payload, files, format)
    return Call(
        "POST",
        "/v1.0/generator/create",
        _deck,
        fields=fields,
        uploads=uploads,
        headers={"idempotency-key": idempotency_key or str(uuid.uuid4())},
    )


def submit(
    template: TemplateSource,
    payload: Payload,
    files: Optional[NamedFiles],
    *,
    format: JobFormat,
    previews: bool,
    preview_width: Optional[int],
    callback_url: Optional[str],
    idempotency_key: Optional[str],
) -> Call[str]:
    fields, uploads = generation_form(template, payload, files, format)
    if previews or preview_width is not None:
        fields["previews"] = "png"
    if preview_width is not None:
        fields["preview_width"] = str(preview_width)
    if callback_url is not None:
        fields["callback_url"] = callback_url
    return Call(
        "POST",
        "/v2.0/generator/create-async",
        lambda response: str(_json(response)["job_id"]),
        fields=fields,
        uploads=uploads,
        headers={"idempotency-key": idempotency_key or str(uuid.uuid4())},
    )


def job_status(job_id: str) -> Call[JobStatus]:
    return Call(
        "GET",
        f"/v2.0/jobs/{quote(job_id, safe='')}/status",
        lambda response: JobStatus.from_json(_json(response), job_id),
    )


def download_link(url: str) -> Call[bytes]:
    """A pre-signed link: it carries its own authorization, so the token must not go with it (the interface)."""
    return Call("GET", url, lambda response: response.content, authenticated=False)


def usage() -> Call[Usage]:
    return Call(
        "GET",
        "/v1.0/usage",
        lambda response: Usage.from_json(_json(response).get("result") or {}),
        headers={"accept": "application/json"},
    )


def token(email: str, password: str, key: str) -> Call[str]:
    def read(response: httpx.Response) -> str:
        result = _json(response).get("Result") or {}
        access = result.get("Access_Token") if isinstance(result, dict) else None
        if not isinstance(access, str) or not access:
            raise ValueError("the token answer carries no Result.Access_Token")
        return access

    return Call(
        "POST",
        "/v1.0/token/create",
        read,
        fields={"username": email, "password": password, "key": key},
        authenticated=False,
    )


def inspect(template: FileSource) -> Call[Dict[str, Any]]:
    if isinstance(template, str) and not is_path(template):
        # A stored template's name or id, or a URL: the server reads it (docs/http-api.md, "Inspecting a template").
        return Call("POST", "/v1.0/template/inspect", _json, fields={"templateUrl": template})
    content, name = read_source(template, "template")
    upload = Upload(name or "template.pptx", content)
    return Call("POST", "/v1.0/template/inspect", _json, uploads=(("files", upload),))


def render(deck: FileSource, format: RenderFormat, width: Optional[int]) -> Call[Rendering]:
    content, name = read_source(deck, "deck")
    fields: Dict[str, str] = {"format": format}
    if width is not None:
        fields["preview_width"] = str(width)

    def read(response: httpx.Response) -> Rendering:
        return Rendering(
            response.content,
            file_name=file_name_of(response, f"deck.{'zip' if format == 'png' else 'pdf'}"),
            content_type=response.headers.get("content-type", ""),
            warnings=warnings_from_header(response.headers.get("x-generation-warnings-detail")),
            count=_count(response, "x-page-count"),
        )

    return Call(
        "POST",
        "/v1.0/render",
        read,
        fields=fields,
        uploads=(("files", Upload(name or "deck.pptx", content)),),
        repeatable=False,
    )


def _template_path(template_id: str) -> str:
    return f"/v1.0/templates/{quote(template_id, safe='')}"


_ACCEPT_JSON = {"accept": "application/json"}


def upload_template(template: FileSource, name: Optional[str]) -> Call[StoredTemplate]:
    content, file_name = read_source(template, "template")
    stored_name = name or file_name
    if not stored_name:
        raise ValueError("upload_template: give the template a name (bytes and unnamed file objects have none)")
    return Call(
        "POST",
        "/v1.0/templates",
        lambda response: StoredTemplate.from_json(_json(response)),
        fields={"name": stored_name},
        uploads=(("file", Upload(stored_name, content)),),
        headers=_ACCEPT_JSON,
    )


def list_templates() -> Call[List[StoredTemplate]]:
    return Call("GET", "/v1.0/templates", lambda response: list_of_templates(_json(response)), headers=_ACCEPT_JSON)


def get_template(template_id: str) -> Call[StoredTemplateDetail]:
    return Call(
        "GET",
        _template_path(template_id),
        lambda response: StoredTemplateDetail.from_json(_json(response)),
        headers=_ACCEPT_JSON,
    )


def download_template(template_id: str) -> Call[bytes]:
    return Call("GET", f"{_template_path(template_id)}/file", lambda response: response.content)


def delete_template(template_id: str) -> Call[int]:
    return Call(
        "DELETE",
        _template_path(template_id),
        lambda response: int(_json(response)["deleted_versions"]),
        headers=_ACCEPT_JSON,
        repeatable=False,
    )
