"""A webhook receiver on 127.0.0.1, as a user's endpoint: it keeps each request's raw body and headers and
answers 204 at once (docs/http-api.md, "Webhooks": answer with an empty body, at once)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, List

from deckforge import Job, JobStatus


@dataclass(frozen=True)
class Received:
    path: str
    body: bytes
    headers: Dict[str, str]


class Receiver:
    def __init__(self) -> None:
        self.received: List[Received] = []
        self._arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                self.send_response(204)
                self.end_headers()
                with receiver._arrived:
                    receiver.received.append(Received(self.path, body, dict(self.headers.items())))
                    receiver._arrived.notify_all()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hooks/deckforge"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def wait_for(self, count: int, timeout: float = 60.0) -> List[Received]:
        with self._arrived:
            if not self._arrived.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} webhook(s) arrived of {count} within {timeout} s")
            return list(self.received)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def delivered(job: Job, timeout: float = 30.0) -> JobStatus:
    """The job's status once its webhook is DELIVERED: the server records the receiver's answer just after
    the receiver has the event, so a status read at once may still say DELIVERING."""
    deadline = time.monotonic() + timeout
    while True:
        status = job.status()
        if status.webhook is not None and status.webhook.state == "DELIVERED":
            return status
        if time.monotonic() > deadline:
            raise AssertionError(f"the webhook of job {job.id} was not DELIVERED within {timeout} s: {status.webhook}")
        time.sleep(0.05)
