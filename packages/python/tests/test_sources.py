"""Where a template and the other files come from (docs/python.md, "Templates and files"): a path as a string
or a Path, bytes, a file object; pictures by name or as paths; and the mistakes refused before any request."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from conftest import BRAND, SAMPLE, Keep
from deckforge import Deckforge
from support.pptx import media_parts, slide_texts

ONE_SLIDE = {"presentation": {"slides": [{"slide_index": 1, "shapes": [{"name": "Title", "content": "From bytes"}]}]}}

PICTURES = {
    "presentation": {
        "template": "brand.pptx",
        "slides": [
            {
                "slide_index": 2,
                "shapes": [
                    {"name": "Logo", "filename": "logo.png"},
                    {"name": "Hero photo", "content": "team.jpg", "fit": "cover", "alt_text": "The Q3 team"},
                ],
            }
        ],
    }
}


def test_a_template_as_path_text_path_bytes_or_file_object(client: Deckforge, keep: Keep) -> None:
    decks = [
        client.generate(str(SAMPLE), ONE_SLIDE),
        client.generate(SAMPLE, ONE_SLIDE),
        client.generate(SAMPLE.read_bytes(), ONE_SLIDE),
        client.generate(io.BytesIO(SAMPLE.read_bytes()), ONE_SLIDE),
    ]
    for deck in decks:
        keep(deck, [SAMPLE])
        assert "From bytes" in slide_texts(deck)[0]
    # Named after the file where there is one, else "template" (the server's "<template>-generated").
    assert [d.file_name for d in decks] == ["sample-template-generated.pptx"] * 2 + ["template-generated.pptx"] * 2
    # The caller's payload is left as it was: the client names the template in a copy.
    assert "template" not in ONE_SLIDE["presentation"]


def test_pictures_by_the_name_the_payload_uses_or_as_paths(client: Deckforge, keep: Keep) -> None:
    logo, team = BRAND.parent / "logo.png", BRAND.parent / "team.jpg"
    by_name = client.generate(BRAND, PICTURES, {"logo.png": logo, "team.jpg": team.read_bytes()})
    as_paths = client.generate(BRAND, PICTURES, [logo, str(team)])
    for deck in (by_name, as_paths):
        keep(deck, [BRAND])
        assert len(media_parts(deck)) >= 2
        assert deck.warnings == ()
    assert media_parts(by_name) == media_parts(as_paths)


def test_mistakes_refused_before_any_request(client: Deckforge, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        client.generate(tmp_path / "missing.pptx", ONE_SLIDE)
    with pytest.raises(ValueError, match="names no file here"):
        client.generate("stored.pptx", {"presentation": {"template": "other.pptx", "slides": []}})
    with pytest.raises(ValueError, match="is a URL"):
        client.generate(SAMPLE, {"presentation": {"template": "https://example.com/t.pptx", "slides": []}})
    with pytest.raises(ValueError, match="not JSON compliant"):
        client.generate(SAMPLE, {"presentation": {"slides": [{"slide_index": float("nan")}]}})
    with pytest.raises(TypeError, match="binary mode"):
        client.generate(io.StringIO("text"), ONE_SLIDE)  # type: ignore[arg-type]
