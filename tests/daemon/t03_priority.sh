#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 3, priorities: one prover and one synthesis worker; NORMAL jobs of several partitions of a
# slower circuit are queued, then a HIGH job: it completes before the NORMAL jobs queued before
# it; a LOW job submitted early completes after them.
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
node_client priority "$DADDR" slow
finish
