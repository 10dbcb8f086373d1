"""Jobs (docs/http-api.md, "Asynchronous"): the progress figures of a large job as the client polls it, a wait
that times out, and a job that fails: not an exception, but its download is."""

from __future__ import annotations

from typing import List

import pytest

from conftest import SAMPLE, Keep
from deckforge import Deckforge, JobFailedError, JobStatus, JobTimeoutError
from support.pptx import slide_parts

SLIDES = 250


def test_progress_figures_while_processing_and_a_wait_that_times_out(client: Deckforge, keep: Keep) -> None:
    slides = [{"slide_index": 1, "shapes": [{"name": "Title", "content": f"Slide {i + 1}"}]} for i in range(SLIDES)]
    job = client.submit(SAMPLE, {"presentation": {"slides": slides}})
    with pytest.raises(JobTimeoutError) as timed_out:
        job.wait(timeout=0)
    assert timed_out.value.job_id == job.id and timed_out.value.last_status in ("QUEUED", "PROCESSING")

    seen: List[JobStatus] = []
    final = job.wait(progress=seen.append, initial_interval=0.02, max_interval=0.05, timeout=240)
    assert final.status == "SUCCEEDED" and final.progress is None
    reports = [s.progress for s in seen if s.progress is not None]
    assert reports, f"no progress seen in {len(seen)} polls: {[s.status for s in seen]}"
    assert all(s.status == "PROCESSING" for s in seen if s.progress is not None)
    assert {(r.slides_total, r.pages_rendered) for r in reports} == {(SLIDES, None)}
    done = [r.slides_done for r in reports]
    assert done == sorted(done) and 0 <= done[0] and done[-1] <= SLIDES
    deck = keep(job.download(), [SAMPLE])
    assert len(slide_parts(deck)) == SLIDES


def test_a_failed_job_reports_why_and_has_nothing_to_download(client: Deckforge) -> None:
    # A template slide the template does not have is found while the job builds the deck.
    job = client.submit(SAMPLE, {"presentation": {"slides": [{"slide_index": 9}]}})
    final = job.wait(initial_interval=0.05)
    assert final.status == "FAILED" and final.file_url is None
    assert final.error_message and "slide_index 9 is out of range" in final.error_message
    with pytest.raises(JobFailedError) as raised:
        job.download()
    assert raised.value.status == "FAILED" and raised.value.error_message == final.error_message
