#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 4, cancellation: a pending job (CANCELLED at once), a running one (was_running, stops at a
# partition boundary), AwaitProof timeout_ms on a long job (TIMEOUT, the job completes later).
. "$(dirname "$0")/lib.sh"
need_node
cat >"$T/cuzk.toml" <<TOML
[engine]
prover_workers = 1
synthesis_workers = 1

[[circuits]]
id = "slow"
builtin = "sha256-chain:2"
TOML
start_daemon d --config "$T/cuzk.toml"
node_client cancel "$DADDR" slow
finish
