#!/bin/sh
# demo.sh - set up, build, and run csumcheck on the bundled demo capture.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh >&2
exec build/analyzer/csumcheck -v captures/demo.pcapng "$@"
