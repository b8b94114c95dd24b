#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 5, parameter tiers: COLD -> HOT (size_bytes > 0) after PreloadSRS, EvictSRS reports the
# freed bytes and the entry drops; unknown circuits are NOT_FOUND.
. "$(dirname "$0")/lib.sh"
need_node
cat >"$T/cuzk.toml" <<TOML
[[circuits]]
id = "demo"
builtin = "sha256-chain:1"

[[circuits]]
id = "c2"
builtin = "sha256-chain:2"
TOML
start_daemon d --config "$T/cuzk.toml"
node_client srs "$DADDR" c2
finish
