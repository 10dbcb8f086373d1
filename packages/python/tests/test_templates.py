"""Stored templates through the client (docs/http-api.md, "Stored templates"): stored from a path, versioned,
listed, read with its versions and inspection, downloaded, generated with by name and by id, deleted."""

from __future__ import annotations

import pytest

from conftest import BRAND, REPORT, SAMPLE, Keep
from deckforge import Deckforge, NotFoundError
from support.pptx import slide_texts


def test_store_version_list_read_download_generate_and_delete(client: Deckforge, keep: Keep) -> None:
    first = client.upload_template(REPORT, "quarterly.pptx")
    assert (first.name, first.version, first.slides, first.size) == ("quarterly.pptx", 1, 7, REPORT.stat().st_size)
    # The same bytes as the latest version store nothing; other bytes are the next version.
    assert client.upload_template(REPORT.read_bytes(), "quarterly.pptx") == first
    second = client.upload_template(open(BRAND, "rb"), "quarterly.pptx")
    assert second.version == 2 and second.id != first.id

    assert second in client.list_templates()
    detail = client.get_template(first.id)
    assert detail.template == first
    assert [v.version for v in detail.versions] == [2, 1]
    assert detail.inspect["slides"][0]["shapes"][0]["name"] == "Title 1"
    assert client.download_template(first.id) == REPORT.read_bytes()

    # By name: the latest version (brand.pptx); by id: exactly that version (report.pptx).
    by_name = client.generate("quarterly.pptx", {"presentation": {"slides": [{"slide_index": 0}]}})
    by_id = client.generate(first.id, {"presentation": {"slides": [{"slide_index": 0}]}})
    keep(by_name, [BRAND])
    keep(by_id, [REPORT])
    assert "Quarterly figures" in slide_texts(by_id)[0]
    assert slide_texts(by_name)[0] != slide_texts(by_id)[0]
    assert client.inspect("quarterly.pptx") == client.inspect(BRAND)

    assert client.delete_template(first.id) == 2
    with pytest.raises(NotFoundError):
        client.get_template(second.id)


def test_a_template_uploaded_with_the_request_wins_over_a_stored_one(client: Deckforge, keep: Keep) -> None:
    stored = client.upload_template(REPORT, "sample-template.pptx")
    deck = keep(client.generate(SAMPLE, {"presentation": {"slides": [{"slide_index": 0}]}}), [SAMPLE])
    assert len(slide_texts(deck)) == 1 and "Quarterly figures" not in slide_texts(deck)[0]
    client.delete_template(stored.id)
