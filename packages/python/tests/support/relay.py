"""A TCP relay between a client and the server that can fail like a network: it passes requests on, and for
the next ``cut`` connections reads the server's whole answer but closes the client's connection instead of
passing it on, as a proxy that dies or a connection reset after the server acted would."""

from __future__ import annotations

import socket
import struct
import threading
from typing import List, Tuple


class Relay:
    def __init__(self, target: Tuple[str, int]) -> None:
        self.target = target
        self.cut = 0
        #: The answers the server sent that the client never got.
        self.lost_answers: List[bytes] = []
        #: Everything clients sent, connection by connection.
        self.sent: List[bytearray] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                cut = self.cut > 0
                self.cut -= 1 if cut else 0
                sent = bytearray()
                self.sent.append(sent)
            upstream = socket.create_connection(self.target)
            threading.Thread(target=self._pump, args=(client, upstream, sent), daemon=True).start()
            answer = self._cut if cut else self._pump
            threading.Thread(target=answer, args=(upstream, client, bytearray()), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket, record: bytearray) -> None:
        try:
            while chunk := source.recv(65536):
                record.extend(chunk)
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def _cut(self, upstream: socket.socket, client: socket.socket, answer: bytearray) -> None:
        """Reads one whole answer (headers and Content-Length bytes), keeps it, then drops both connections."""
        try:
            while True:
                chunk = upstream.recv(65536)
                if not chunk:
                    break
                answer.extend(chunk)
                head, _, body = bytes(answer).partition(b"\r\n\r\n")
                if _:
                    length = next(
                        (int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")),
                        0,
                    )
                    if len(body) >= length:
                        break
        finally:
            self.lost_answers.append(bytes(answer))
            # A reset: the client sees its connection broken with no answer. shutdown() first, as another
            # thread is reading the client's socket and close() alone would not end it.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            for end in (client, upstream):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()

    def requests(self, marker: bytes) -> int:
        """How many times clients sent ``marker`` (a request line's start, such as ``b"DELETE /v1.0/templates/"``)."""
        return sum(bytes(sent).count(marker) for sent in self.sent)

    def close(self) -> None:
        self._listener.close()
