"""The bearer token a client sends, and when it must create a new one. The interface's tokens live 24 hours
(service-interface "Limits"); a client with credentials creates its token on the first call and a new one an
hour before that, and again once when the server answers 401 (the token was revoked, or its account's key
rotated)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

RENEW_AFTER_SECONDS = 23 * 3600.0


def _now() -> float:
    return time.time()


@dataclass(frozen=True)
class Credentials:
    email: str
    password: str
    key: str


class TokenState:
    def __init__(self, token: Optional[str], credentials: Optional[Credentials]) -> None:
        if token is None and credentials is None:
            raise ValueError("Deckforge needs a token, or an e-mail, password and security key (from_credentials)")
        self.credentials = credentials
        self.token = token
        # A token handed in is taken as new: the server's 401 says when it is not.
        self.issued_at = _now()

    def usable(self) -> Optional[str]:
        """The token when it can be sent as it is; None when a new one must be created first."""
        if self.token is None:
            return None
        if self.credentials is not None and _now() - self.issued_at >= RENEW_AFTER_SECONDS:
            return None
        return self.token

    def store(self, token: str) -> None:
        self.token = token
        self.issued_at = _now()


def credentials_of(email: Optional[str], password: Optional[str], key: Optional[str]) -> Optional[Credentials]:
    given = [value is not None for value in (email, password, key)]
    if not any(given):
        return None
    if email is None or password is None or key is None:
        raise ValueError("give email, password and key together (the token service needs all three)")
    return Credentials(email, password, key)
