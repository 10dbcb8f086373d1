#!/usr/bin/env bash
# Runs a command on a system clock over two years ahead: 31 January of the year after next (three years on),
# 23:59:30 UTC at the start, so that a day and a month end half a minute in, and a period starting on the 31st
# ends on a shorter month (docs/development.md, "CI"). libfaketime is given the distance from now in seconds,
# not a starting time: with a starting time ("@…") every process would start that clock anew when it starts, and
# a server started ten minutes into the run would be ten minutes behind the test that started it. With the
# distance, every process the command starts agrees on the time.
set -euo pipefail
target="$(date -u -d "$(($(date -u +%Y) + 3))-01-31 23:59:30" +%s)"
exec env TZ=UTC faketime -f "+$((target - $(date -u +%s)))" "$@"
