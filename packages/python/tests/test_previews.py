"""PDFs and slide pictures (docs/previews.md) from the server's LibreOffice: a deck generated as a PDF, a deck
rendered to a zip of PNGs, and a job's PDF and slide pictures downloaded through their links."""

from __future__ import annotations

import io
import shutil
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

from conftest import SAMPLE, Keep
from deckforge import Deckforge

PAYLOAD = {
    "presentation": {
        "resultFileName": "Preview",
        "slides": [{"slide_index": 0}, {"slide_index": 1, "shapes": [{"name": "Title", "content": "Drawn"}]}],
    }
}


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def pdf_text(data: bytes) -> str:
    if shutil.which("pdftotext") is None:
        return ""
    done = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True)
    return done.stdout.decode()


def test_a_deck_as_pdf_and_a_deck_rendered_as_slide_pictures(client: Deckforge, keep: Keep) -> None:
    pdf = client.generate(SAMPLE, PAYLOAD, format="pdf")
    assert pdf.startswith(b"%PDF-") and pdf.file_name == "Preview.pdf"
    assert pdf.content_type == "application/pdf" and pdf.slide_count == 2
    if shutil.which("pdftotext"):
        assert "Drawn" in pdf_text(pdf)

    deck = keep(client.generate(SAMPLE, PAYLOAD), [SAMPLE])
    pictures = client.render(deck, "png", width=320)
    assert pictures.page_count == 2 and pictures.content_type == "application/zip"
    with zipfile.ZipFile(io.BytesIO(pictures)) as archive:
        assert sorted(archive.namelist()) == ["slide-1.png", "slide-2.png"]
        assert png_size(archive.read("slide-1.png"))[0] == 320
    rendered = client.render(io.BytesIO(deck))
    assert rendered.startswith(b"%PDF-") and rendered.page_count == 2


def test_a_jobs_pdf_and_slide_pictures(client: Deckforge, keep: Keep, tmp_path: Path) -> None:
    job = client.submit(SAMPLE, PAYLOAD, format="pptx+pdf", previews=True, preview_width=200)
    final = job.wait(initial_interval=0.2)
    assert final.succeeded and final.pdf_url and len(final.preview_urls) == 2
    keep(job.download(), [SAMPLE])
    pdf = job.download_pdf(tmp_path / "job.pdf")
    assert pdf.read_bytes().startswith(b"%PDF-")
    pictures = job.download_previews(tmp_path / "slides")
    assert [p.name for p in pictures] == ["slide-1.png", "slide-2.png"]
    assert all(png_size(p.read_bytes())[0] == 200 for p in pictures)
    plain = client.submit(SAMPLE, PAYLOAD)
    assert plain.wait(initial_interval=0.1).succeeded
    with pytest.raises(ValueError, match="no slide pictures"):
        plain.download_previews(tmp_path / "none")
    with pytest.raises(ValueError, match="no link to the PDF"):
        plain.download_pdf()
