"""One ``deckforge serve`` for the whole session (docs/python.md is the guide; this suite runs in `npm test`
through test/client/python-client.test.ts). Accounts are made with the CLI, as an operator makes them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Protocol, Sequence, TypeVar, Union

import pytest

import deckforge
from deckforge import Deckforge
from support.service import EXAMPLES, Account, Service, remove, start_service
from support.sound_decks import SoundDecks

SAMPLE = EXAMPLES / "sample-template.pptx"
REPORT = EXAMPLES / "report.pptx"
BRAND = EXAMPLES / "brand.pptx"

if TYPE_CHECKING:
    from _pytest.terminal import TerminalReporter

D = TypeVar("D", bound=bytes)


class Keep(Protocol):
    def __call__(self, deck: D, templates: Sequence[Union[str, "os.PathLike[str]"]]) -> D: ...


class Accounts:
    def __init__(self, service: Service) -> None:
        self.main = service.first_account()
        created, self.webhook_secret = service.create_accounts(
            ["Tight", "Paced", "Roomy"], webhook_secret_for=self.main.email
        )
        self.tight, self.paced, self.faults = created


@pytest.fixture(scope="session")
def service() -> Iterator[Service]:
    running = start_service()
    try:
        yield running
    finally:
        remove(running)


@pytest.fixture(scope="session")
def accounts(service: Service) -> Accounts:
    return Accounts(service)


def signed_in(service: Service, account: Account, **options: Any) -> Deckforge:
    return Deckforge.from_credentials(service.base, account.email, account.password, account.key, **options)


@pytest.fixture(scope="session")
def client(service: Service, accounts: Accounts) -> Iterator[Deckforge]:
    with signed_in(service, accounts.main) as deckforge:
        yield deckforge


_decks = SoundDecks()


@pytest.fixture
def keep(request: pytest.FixtureRequest) -> Keep:
    """Keeps a deck for the package checks (support/sound_decks.py) under this test's name; returns it."""

    def keep_deck(deck: D, templates: Sequence[Union[str, "os.PathLike[str]"]]) -> D:
        _decks.keep(deck, templates, request.node.nodeid)
        return deck

    return keep_deck


def pytest_terminal_summary(terminalreporter: TerminalReporter) -> None:
    terminalreporter.write_line(f"deckforge from {Path(deckforge.__file__).parent}")
    terminalreporter.write_line(
        f"{_decks.count} deck(s) kept for the package checks in {_decks.folder}"
        + ("" if os.environ.get("DECKFORGE_PYTHON_DECKS") else " (checked when npm test runs this suite)")
    )


def fixture_path(name: str) -> Path:
    return EXAMPLES / name
