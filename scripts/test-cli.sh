#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Command-line contract tests for cuzk-bench (filled in as commands land).
set -e
BENCH=${1:-build/bin/cuzk-bench}
"$BENCH" info >/dev/null
echo "test-cli: ok"
