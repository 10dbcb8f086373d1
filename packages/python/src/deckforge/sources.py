"""Templates, pictures and decks handed to the client, and the multipart body of the generation endpoints.

A file is read once, before the first attempt, so a retry sends the same bytes (the server's Idempotency-Key
stands for the request's exact files: another body under the same key would be refused as another request).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple, Union

FileSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]
"""A path (``str`` or ``Path``), bytes, or a binary file object (read from where it stands)."""

TemplateSource = Union[FileSource, None]
"""A :data:`FileSource`; or a string that names no file: a stored template's name or id, or a URL the server
fetches; or ``None``: the payload's own ``presentation.template`` says which."""

NamedFiles = Union[Mapping[str, FileSource], Sequence[Union[str, "os.PathLike[str]"]]]
"""Pictures and further templates: the name the payload uses → the file, or paths (uploaded by base name)."""

class PayloadBuilder(Protocol):
    """What builds a payload (``deckforge.Presentation``)."""

    def to_dict(self) -> Dict[str, Any]: ...


Payload = Union[Mapping[str, Any], PayloadBuilder]
"""The ``jsonData`` document (docs/payload.md): ``{"presentation": {...}}``, the presentation itself, or a
:class:`~deckforge.Presentation`."""


@dataclass(frozen=True)
class Upload:
    """One ``files`` part: the name the payload knows it by, and its bytes."""

    name: str
    content: bytes


def is_path(source: object) -> bool:
    """A ``Path`` (any ``os.PathLike``), or a string naming an existing file."""
    if isinstance(source, os.PathLike):
        return True
    return isinstance(source, str) and os.path.isfile(source)


def read_source(source: FileSource, what: str) -> Tuple[bytes, Optional[str]]:
    """The bytes of ``source`` and the base name of the file they came from, when there is one."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.is_file():
            raise FileNotFoundError(f"{what}: no file at {str(path)!r}")
        return path.read_bytes(), path.name
    if hasattr(source, "read"):
        content = source.read()
        if not isinstance(content, bytes):
            raise TypeError(f"{what}: the file object gave {type(content).__name__}, open it in binary mode ('rb')")
        name = getattr(source, "name", None)
        return content, os.path.basename(name) if isinstance(name, str) and name else None
    raise TypeError(f"{what}: expected a path, bytes or a binary file object, got {type(source).__name__}")


def _is_url(value: object) -> bool:
    return isinstance(value, str) and value.lower().startswith(("http://", "https://"))


def _presentation(payload: Dict[str, Any]) -> Dict[str, Any]:
    """The presentation object of a copy of the payload, itself copied so that the caller's stays as it was."""
    if isinstance(payload.get("presentation"), Mapping):
        payload["presentation"] = dict(payload["presentation"])
        presentation: Dict[str, Any] = payload["presentation"]
        return presentation
    return payload


def template_upload(template: TemplateSource, payload: Payload) -> Tuple[Dict[str, Any], List[Upload]]:
    """A copy of the payload naming the template, and the template's upload (none for a stored one or a URL)."""
    document = dict(payload) if isinstance(payload, Mapping) else dict(payload.to_dict())
    presentation = _presentation(document)
    named = presentation.get("template")
    several = presentation.get("template_list") is not None
    if template is None:
        return document, []
    if isinstance(template, str) and not is_path(template):
        # A stored template's name or id, or a URL the server fetches: the payload names it, nothing is uploaded.
        if named is None and not several:
            presentation["template"] = template
        elif named != template:
            raise ValueError(
                f"template {template!r} names no file here (so it stands for a stored template or a URL), but the "
                f"payload names template {named!r}: give one of them"
            )
        return document, []
    content, file_name = read_source(template, "template")
    if isinstance(named, str) and named and not _is_url(named):
        name = named
    elif named is None:
        name = file_name or "template.pptx"
        if not several:
            presentation["template"] = name
    else:
        raise ValueError(
            f"the payload's template {named!r} is a URL, but template bytes were given: pass None as the template "
            "to let the server fetch the URL, or name the uploaded file in presentation.template"
        )
    return document, [Upload(name, content)]


def named_uploads(files: Optional[NamedFiles]) -> List[Upload]:
    if files is None:
        return []
    if isinstance(files, Mapping):
        return [Upload(name, read_source(source, f"files[{name!r}]")[0]) for name, source in files.items()]
    if isinstance(files, (str, bytes)):
        raise TypeError("files: a mapping of name to file, or a list of paths (not a single string)")
    uploads = []
    for path in files:
        content, name = read_source(path, "files")
        uploads.append(Upload(name or "file", content))
    return uploads


def _json_default(value: Any) -> Any:
    """What json cannot write by itself but a payload built from data often holds: numpy scalars, dates."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def json_data(document: Mapping[str, Any]) -> str:
    """The payload serialised; NaN and infinities are refused here, as JSON has no way to write them."""
    return json.dumps(document, ensure_ascii=False, allow_nan=False, default=_json_default)
