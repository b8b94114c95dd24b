#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The whole test suite: installs missing packages, then `make test` (normal build, CUZK_VERIFY
# build, ASan+UBSan build; unit, vector and command-line tests in each).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
make test
