"""``deckforge serve`` from the clone (the built dist/), as a user runs it: a free port, a temporary data directory
(SQLite, local disk), accounts made with ``deckforge accounts create``."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import httpx

REPO_ROOT = Path(__file__).resolve().parents[4]
CLI = REPO_ROOT / "bin" / "deckforge.js"
EXAMPLES = REPO_ROOT / "examples"
NODE = os.environ.get("DECKFORGE_NODE", "node")

# Plans of the suite's accounts (docs/configuration.md, DECKFORGE_PLANS): room for every test, a small monthly
# allowance for the 429 of shape B, one request a minute for the retry after 429.
PLANS = {
    "default": "Roomy",
    "plans": [
        {"name": "Roomy", "allowedSlideCount": 1_000_000, "requestsPerMinute": 100_000},
        {"name": "Tight", "allowedSlideCount": 3, "requestsPerMinute": 100_000},
        {"name": "Paced", "allowedSlideCount": 1_000, "requestsPerMinute": 1},
    ],
}


@dataclass(frozen=True)
class Account:
    email: str
    password: str
    key: str
    plan: str


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Service:
    """One ``deckforge serve`` process; more processes may serve the same data directory (``serve_more``)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        plans = data_dir / "plans.json"
        plans.write_text(json.dumps(PLANS))
        self.env: Dict[str, str] = {
            **os.environ,
            "DECKFORGE_DATA_DIR": str(data_dir),
            "DECKFORGE_PLANS": str(plans),
            "DECKFORGE_LOG_LEVEL": "warn",
            "HOST": "127.0.0.1",
            # Webhook receivers and relays of the tests listen on 127.0.0.1.
            "DECKFORGE_ALLOW_PRIVATE_URLS": "true",
            "DECKFORGE_RENDERERS": "1",
        }
        self._processes: List[subprocess.Popen[bytes]] = []
        self.base = self.serve_more({})

    def serve_more(self, extra_env: Mapping[str, str], args: Sequence[str] = ()) -> str:
        """Starts a ``deckforge serve`` on this data directory and returns its base URL once /healthz answers."""
        if not CLI.exists() or not (REPO_ROOT / "dist" / "cli" / "main.js").exists():
            raise RuntimeError(f"{REPO_ROOT / 'dist'} is not built: run `npm run build` in the clone first")
        port = free_port()
        log = open(self.data_dir / f"serve-{port}.log", "wb")
        process = subprocess.Popen(
            [NODE, str(CLI), "serve", *args],
            cwd=REPO_ROOT,
            env={**self.env, "PORT": str(port), **extra_env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self._processes.append(process)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"deckforge serve exited with {process.returncode}: {self.log(port)}")
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    return base
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"deckforge serve did not answer /healthz within 60 s: {self.log(port)}")
            time.sleep(0.05)

    def log(self, port: int) -> str:
        return (self.data_dir / f"serve-{port}.log").read_text(errors="replace")[-4000:]

    def cli(self, *args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [NODE, str(CLI), *args], cwd=REPO_ROOT, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )

    def first_account(self) -> Account:
        """The account the first start makes and prints once (the README's "A first session with curl")."""
        log = self.log(int(self.base.rsplit(":", 1)[1]))
        found = dict(re.findall(r"^\s+(e-mail|password|security key|plan):\s+(\S+)$", log, re.M))
        return Account(found["e-mail"], found["password"], found["security key"], found["plan"])

    def create_accounts(self, plans: Sequence[str], webhook_secret_for: str) -> Tuple[List[Account], str]:
        """``deckforge accounts create --json``, one process per account, and ``accounts webhook-secret`` for
        ``webhook_secret_for``, all at once."""
        secret = self.cli("accounts", "webhook-secret", "--email", webhook_secret_for, "--json")
        processes = [
            self.cli("accounts", "create", "--email", f"py-{plan.lower()}-{uuid.uuid4().hex[:10]}@example.test", "--plan", plan, "--json")
            for plan in plans
        ]
        accounts = []
        for process, plan in zip(processes, plans):
            created = json.loads(_output(process))
            accounts.append(Account(created["email"], created["password"], created["key"], plan))
        return accounts, str(json.loads(_output(secret))["webhookSecret"])

    def close(self) -> None:
        for process in self._processes:
            process.terminate()
        for process in self._processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _output(process: "subprocess.Popen[bytes]") -> bytes:
    out, err = process.communicate(timeout=120)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, process.args))} failed: {err.decode()}")  # type: ignore[arg-type]
    return out


def start_service() -> Service:
    return Service(Path(tempfile.mkdtemp(prefix="deckforge-python-")))


def remove(service: Service) -> None:
    service.close()
    shutil.rmtree(service.data_dir, ignore_errors=True)


LIBFAKETIME = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")


def faketime_env(clock_file: Path) -> Optional[Dict[str, str]]:
    """libfaketime reading its offset from ``clock_file`` at every call (so a test can move the clock of a
    running server); None where libfaketime is not installed."""
    if not LIBFAKETIME.exists():
        return None
    clock_file.write_text("+0\n")
    return {
        "LD_PRELOAD": str(LIBFAKETIME),
        "FAKETIME_TIMESTAMP_FILE": str(clock_file),
        "FAKETIME_NO_CACHE": "1",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",
    }
