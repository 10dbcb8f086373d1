#!/usr/bin/env python3
"""Moves the shared test helpers into rooms by purpose under test/support/ and rewrites every import of them.

    python3 scripts/test-helper-rooms.py        # from the repository root; then npm run typecheck

It can be run again on a branch that added test files importing the old paths: files already moved stay where
they are, and every relative import (`from '…'`, `import('…')`, `vi.mock('…')`, `new URL('…', import.meta.url)`)
in src/, test/, scripts/ and bench/ that resolves to an old path is rewritten to the new one, as are mentions of
an old path (`test/support/x.ts`, `support/x.ts`) in comments and docs.
"""
import os
import re
import subprocess
import sys

ROOMS = {
    # Decks, templates and inputs the tests build.
    'decks': [
        'test/support/chart-ex-deck.ts', 'test/support/chart-ex-deck.test.ts', 'test/support/chart-ex-templates.ts',
        'test/support/chart-templates.ts', 'test/support/chart-templates.test.ts', 'test/support/chart-workbook.ts',
        'test/support/example-templates.ts', 'test/support/example-templates.test.ts',
        'test/support/generate-with-images.ts', 'test/support/harbour-template.ts',
        'test/support/harbour-template.test.ts', 'test/support/heavy-template.ts', 'test/support/hostile-images.ts',
        'test/support/hostile-inputs.ts', 'test/support/hostile-inputs.test.ts', 'test/support/layouts-template.ts',
        'test/support/layouts-template.test.ts', 'test/support/namespace-prefixes.ts',
        'test/support/one-slide-deck.ts', 'test/support/package-edit.ts', 'test/support/picture-decks.ts',
        'test/support/picture-decks.test.ts', 'test/support/preview-decks.ts', 'test/support/report-template.ts',
        'test/support/table-decks.ts', 'test/support/table-decks.test.ts', 'test/support/table-style-deck.ts',
        'test/support/test-images.ts', 'test/support/zip-writer.ts',
    ],
    # What every written .pptx must pass, and the other checks tests make.
    'checks': [
        'test/support/engine-error.ts', 'test/support/expect-valid-pptx.ts', 'test/support/expect-valid-pptx.test.ts',
        'test/support/package-invariants.ts', 'test/support/package-invariants.test.ts',
        'test/support/part-sources.ts', 'test/support/part-sources.test.ts', 'test/support/part-xml-invariants.ts',
        'test/support/presentation-invariants.ts', 'test/support/source-guard.ts', 'test/support/validator.ts',
        'test/support/validator.test.ts',
    ],
    # Reading outputs back as a user would check them, independently of src/.
    'readers': [
        'test/support/chart-reading.ts', 'test/support/namespaces.ts', 'test/support/opc-package.ts',
        'test/support/render.ts', 'test/support/render.test.ts', 'test/support/table-reading.ts',
        'test/support/table-reading.test.ts', 'test/support/xml-tree.ts', 'test/support/zip-file.ts',
        'test/engine/picture-reading.ts', 'test/http/pptx-reading.ts', 'test/http/preview-files.ts',
    ],
    # Servers and processes the tests start, and what they need (ports, data directories, a built CLI).
    'servers': [
        'test/support/free-port.ts', 'test/support/libreoffice.ts', 'test/support/local-cluster.ts',
        'test/support/mail-catcher.ts', 'test/support/postgres-server.ts', 'test/support/redis-server.ts',
        'test/support/s3-server.ts', 'test/support/shared-store-notice.ts', 'test/support/shared-stores.ts',
        'test/support/tcp-relay.ts', 'test/support/test-password-hasher.ts', 'test/adapters/temp-dir.ts',
        'test/http/build-once.ts', 'test/http/http-harness.ts', 'test/http/http-harness-paths.ts',
        'test/http/picture-hosts.ts', 'test/http/serve-process.ts', 'test/http/template-host.ts',
    ],
    # The shared corpus: where it is, what it holds, the notice when it is missing.
    'corpus': ['test/support/corpus.ts', 'test/support/corpus.test.ts', 'test/support/corpus-location.ts',
               'test/support/corpus-notice.ts'],
    # HTTP clients and what they send.
    'http': ['test/http/jobs-polling.ts', 'test/http/payloads.ts', 'test/http/raw-http.ts',
             'test/http/real-clients.ts'],
}
MOVES = {old: f'test/support/{room}/{os.path.basename(old)}' for room, files in ROOMS.items() for old in files}
SCANNED = ('src', 'test', 'scripts', 'bench', 'docs', '.ci')
ROOT_FILES = ('README.md', 'vitest.config.ts', 'package.json', 'eslint.config.js', '.dependency-cruiser.cjs')
TEXT = ('.ts', '.mts', '.js', '.mjs', '.cjs', '.md', '.json')
SPECIFIER = re.compile(
    r"""((?:\bfrom|\bimport|\bimport\(|vi\.mock\(|new URL\()\s*)(['"])(\.{1,2}/[^'"]+)\2""")
REPO_ROOT_FROM_HERE = re.compile(r"resolve\(dirname\(fileURLToPath\(import\.meta\.url\)\)((?:, '\.\.')+)\)")


def tracked_files() -> list[str]:
    out = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard'],
                         capture_output=True, text=True, check=True).stdout.split('\n')
    return [f for f in out if f and os.path.exists(f) and (f in ROOT_FILES or f.startswith(
        tuple(d + '/' for d in SCANNED))) and (f.endswith(TEXT) or f == '.ci/run')]


def moved(path: str) -> str:
    return MOVES.get(path, path)


def new_target(source: str, spec: str) -> str:
    """Where `spec`, written in `source` (its old place), points once the helpers have moved."""
    target = os.path.normpath(os.path.join(os.path.dirname(source), spec))
    as_ts = target[:-3] + '.ts' if target.endswith('.js') else target
    if as_ts in MOVES:
        return MOVES[as_ts][:-3] + ('.js' if target.endswith('.js') else '.ts')
    return MOVES.get(target, target)


def rewrite(path: str, text: str) -> str:
    here = moved(path)

    def specifier(match: re.Match) -> str:
        spec = match.group(3)
        target = new_target(path, spec)
        if here == path and target == os.path.normpath(os.path.join(os.path.dirname(path), spec)):
            return match.group(0)  # neither end moved: left as written
        relative = os.path.relpath(target, os.path.dirname(here)) + ('/' if spec.endswith('/') else '')
        if not relative.startswith('.'):
            relative = './' + relative
        return f'{match.group(1)}{match.group(2)}{relative}{match.group(2)}'

    text = SPECIFIER.sub(specifier, text)
    if here != path:
        # A moved file that finds the repository root from its own place needs one '..' per folder it is in.
        text = REPO_ROOT_FROM_HERE.sub(
            lambda _m: 'resolve(dirname(fileURLToPath(import.meta.url))' + ", '..'" * here.count('/') + ')', text)
    for old, new in MOVES.items():
        text = re.sub(rf'(?<![\w/.-]){re.escape(old)}\b', new, text)
        if old.startswith('test/support/'):
            short_old, short_new = old[len('test/'):], new[len('test/'):]
            text = re.sub(rf'(?<![\w/.-]){re.escape(short_old)}\b', short_new, text)
    return text


def main() -> None:
    if not os.path.isdir('.git') and not os.path.isfile('.git'):
        sys.exit('run from the repository root')
    files = tracked_files()
    changed = []
    for path in files:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        new = rewrite(path, text)
        if new != text:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(new)
            changed.append(moved(path))
    for old, new in MOVES.items():
        if os.path.exists(old):
            os.makedirs(os.path.dirname(new), exist_ok=True)
            subprocess.run(['git', 'mv', old, new], check=True)
            print(f'{old} -> {new}')
    # Longer paths can push a line past the width: the formatter lays the touched files out again.
    formatted = [f for f in changed if f.endswith(('.ts', '.mjs', '.js', '.md')) and os.path.exists(f)]
    if formatted:
        subprocess.run(['npx', 'prettier', '--write', '--log-level=warn', *formatted], check=True)


if __name__ == '__main__':
    main()
