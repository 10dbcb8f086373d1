"""Every .pptx the suite gets from the server is kept with the template(s) it was made from, in a manifest the
Node side reads after pytest (test/client/python-client.test.ts): there each one passes the package invariants
and the Open XML SDK validator against its templates (test/support/checks/expect-valid-pptx.ts), the check every
test of the repository runs on every deck it writes. Here the suite checks what a user would see in it."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import List, Sequence, Union

PathArg = Union[str, "os.PathLike[str]"]


class SoundDecks:
    def __init__(self) -> None:
        given = os.environ.get("DECKFORGE_PYTHON_DECKS")
        self.folder = Path(given) if given else Path(tempfile.mkdtemp(prefix="deckforge-python-decks-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.manifest = self.folder / "manifest.jsonl"
        self.count = 0

    def keep(self, deck: bytes, templates: Sequence[PathArg], test: str) -> bytes:
        """Records ``deck`` for the package checks, made from ``templates`` (paths); returns it."""
        if not deck.startswith(b"PK"):
            raise AssertionError(f"not a .pptx (no zip signature): {deck[:60]!r}")
        self.count += 1
        name = re.sub(r"[^\w.-]+", "-", test)[-80:]
        path = self.folder / f"{self.count:03d}-{name}.pptx"
        path.write_bytes(deck)
        entry = {"deck": str(path), "templates": [str(Path(t).resolve()) for t in templates], "test": test}
        with open(self.manifest, "a", encoding="utf-8") as manifest:
            manifest.write(json.dumps(entry) + "\n")
        return deck

    def kept(self) -> List[str]:
        return [json.loads(line)["deck"] for line in self.manifest.read_text().splitlines()] if self.manifest.exists() else []
