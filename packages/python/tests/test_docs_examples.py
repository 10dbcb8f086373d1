"""The examples of docs/python.md and of the README's "A first session in Python", run as a reader runs them:
the scripts with this Python against the session's server (only the server's address changed), the Flask
webhook receiver serving a real job's event on 127.0.0.1."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import deckforge
from conftest import SAMPLE, Accounts, Keep
from deckforge import Deckforge
from support.pptx import slide_texts
from support.receiver import delivered
from support.service import REPO_ROOT, Service

DEFAULT_BASE = "http://127.0.0.1:8080"
# The README's session reads PORT, as its curl session does.
READS_PORT = "os.environ.get('PORT', '8080')"


def python_block(page: str, heading: str) -> str:
    text = (REPO_ROOT / page).read_text()
    section = text[text.index(f"\n{heading}\n") :]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block, f"{page}: no python block under {heading!r}"
    return block.group(1)


def run_script(script: str, service: Service, accounts: Accounts, cwd: Path) -> str:
    assert DEFAULT_BASE in script or READS_PORT in script
    account = accounts.main
    env = {
        **os.environ,
        "PORT": service.base.rsplit(":", 1)[1],
        "DECKFORGE_EMAIL": account.email,
        "DECKFORGE_PASSWORD": account.password,
        "DECKFORGE_KEY": account.key,
        # The deckforge this suite tests (installed, or the source tree), wherever the script runs from.
        "PYTHONPATH": os.pathsep.join(
            [str(Path(deckforge.__file__).resolve().parents[1])]
            + [str(Path(p).resolve()) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        ),
    }
    # Run from a folder of its own with the clone's examples/ in it, as from the clone, without writing into it.
    (cwd / "examples").symlink_to(REPO_ROOT / "examples")
    done = subprocess.run(
        [sys.executable, "-c", script.replace(DEFAULT_BASE, service.base)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_first_deck_of_docs_python(service: Service, accounts: Accounts, tmp_path: Path, keep: Keep) -> None:
    out = run_script(python_block("docs/python.md", "## A first deck"), service, accounts, tmp_path)
    assert re.match(r"<Deck 'sample-template-generated.pptx' [\d,]+ bytes, 2 slide\(s\), 0 warning\(s\)>", out)
    deck = keep((tmp_path / "first-deck.pptx").read_bytes(), [SAMPLE])
    assert "Highlights" in slide_texts(deck)[1] and "Revenue up 12%" in slide_texts(deck)[1]


def test_the_readme_session_in_python(service: Service, accounts: Accounts, tmp_path: Path, keep: Keep) -> None:
    out = run_script(python_block("README.md", "## A first session in Python"), service, accounts, tmp_path)
    lines = out.strip().splitlines()
    assert lines[-1].startswith("<Deck 'Quarterly review.pptx'") and "3 slide(s)" in lines[-1]
    assert "SUCCEEDED" in lines and lines[-2].startswith("Usage(plan='Roomy'")
    scratch = Path(lines[-1].rsplit(" in ", 1)[1])
    for name in ("Quarterly review.pptx", "from-job.pptx"):
        texts = slide_texts(keep((scratch / name).read_bytes(), [SAMPLE]))
        assert len(texts) == 3 and "Acme · Q3 2026" in texts[0]
        assert "Revenue up 12%\nin every region\nTwo new markets" in texts[1]


def test_the_flask_webhook_receiver_of_docs_python(
    client: Deckforge, accounts: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.environ.get("CI") != "true":
        pytest.importorskip("flask", reason="Flask is not installed (Debian: python3-flask)")
    from werkzeug.serving import make_server

    monkeypatch.setenv("DECKFORGE_WEBHOOK_SECRET", accounts.webhook_secret)
    saved: List[Tuple[str, str]] = []
    arrived = threading.Event()

    def save_link(job_id: str, url: str) -> None:
        saved.append((job_id, url))
        arrived.set()

    namespace: Dict[str, Any] = {"__name__": "webhook_example", "save_link": save_link}
    exec(compile(python_block("docs/python.md", "## Webhooks"), "docs/python.md", "exec"), namespace)
    app = namespace["app"]
    server = make_server("127.0.0.1", 0, app)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        job = client.submit(SAMPLE, {"presentation": {"slides": [{"slide_index": 0}]}},
                            callback_url=f"http://127.0.0.1:{server.server_port}/hooks/deckforge")
        assert arrived.wait(60), "the webhook did not arrive"
        [(job_id, url)] = saved
        assert job_id == job.id and url.startswith(client._settings.base_url)
        webhook = delivered(job).webhook
        assert webhook is not None and webhook.last_status == 204
        # A forged request is answered 400 and saves nothing.
        forged = app.test_client().post("/hooks/deckforge", data=b"{}", headers={"Deckforge-Signature": "t=1,v1=00"})
        assert forged.status_code == 400 and len(saved) == 1
    finally:
        server.shutdown()
