#!/bin/sh
# demo.sh - set up (Debian 12: as root, installs the packages scripts/setup.sh
# lists; as a normal user, says which are missing), build csumcheck into
# build/analyzer/csumcheck, and run it on the bundled demo capture.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh --cli >&2
exec build/analyzer/csumcheck -v captures/demo.pcapng "$@"
