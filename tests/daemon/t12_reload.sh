#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 12, SIGHUP: the configuration is read again; a circuit new in it is registered and
# proves at once (the HOT set of the running one stays loaded); other changed settings, a
# changed or removed circuit are logged as needing a restart; a configuration that does not
# parse changes nothing; the daemon keeps serving throughout and stops cleanly.
. "$(dirname "$0")/lib.sh"

# hup PATTERN: SIGHUP, then waits (up to 10 s) for the next "reload: done" or "not valid" line
# and checks that the log gained a line matching PATTERN.
hup() {
    local before
    before=$(wc -l <"$DLOG")
    kill -HUP "$DPID"
    local i=0
    while [ $i -lt 100 ] && ! tail -n +"$((before + 1))" "$DLOG" | grep -qE 'reload: (done|the new configuration is not valid)'; do
        sleep 0.1
        i=$((i + 1))
    done
    tail -n +"$((before + 1))" "$DLOG" >"$T/last_reload.log"
}
logged() { grep -qE "$1" "$T/last_reload.log"; }
prove() { "$BENCH" single --addr "$DADDR" --circuit "$1" 2>&1 | grep -q '^client verify: *valid'; }

cat >"$T/cuzk.toml" <<TOML
[[circuits]]
id = "a"
builtin = "sha256-chain:1"
TOML
start_daemon d --config "$T/cuzk.toml"
check "circuit a proves before any reload" prove a
"$BENCH" preload --addr "$DADDR" --circuit a >/dev/null 2>&1
check "b is unknown before the reload" \
    sh -c "! '$BENCH' single --addr '$DADDR' --circuit b >/dev/null 2>&1"

# A circuit added, and a setting changed (queue_depth: needs a restart).
cat >"$T/cuzk.toml" <<TOML
[engine]
queue_depth = 7

[[circuits]]
id = "a"
builtin = "sha256-chain:1"

[[circuits]]
id = "b"
builtin = "poseidon-merkle:1"
TOML
hup
check "SIGHUP: b is registered ($(grep reload "$T/last_reload.log" | tr '\n' '|'))" \
    logged 'reload: circuit b added \(poseidon-merkle:1\)'
check "SIGHUP: the changed setting is named as needing a restart" \
    logged 'reload: settings outside \[\[circuits\]\] .* after a restart'
check "SIGHUP: the daemon is still running" alive "$DPID"
check "circuit b proves after the reload" prove b
S=$("$BENCH" status --addr "$DADDR" --json 2>/dev/null)
check "GetStatus lists a and b, and a is still HOT ($(jget "$S" '[(s["circuit_id"], s["tier"]) for s in d["loaded_srs"]]'))" \
    [ "$(jget "$S" 'sorted(d["circuits"]) == ["a", "b"] and [s["tier"] for s in d["loaded_srs"] if s["circuit_id"] == "a"] == ["HOT"]')" = True ]

# A configuration that does not parse: nothing changes.
printf 'garbage = [\n' >"$T/cuzk.toml"
hup
check "SIGHUP with a broken file: an error, nothing changed ($(tail -n 2 "$T/last_reload.log" | tr '\n' '|'))" \
    logged 'reload: the new configuration is not valid .*nothing changed'
check "the daemon still serves a" prove a

# b defined differently and a removed: both logged, both still served as they run.
cat >"$T/cuzk.toml" <<TOML
[[circuits]]
id = "b"
builtin = "poseidon-merkle:2"
TOML
hup
check "SIGHUP: b's new definition waits for a restart" \
    logged 'reload: circuit b .*defined differently now'
check "SIGHUP: a's removal waits for a restart" \
    logged 'reload: circuit a is not in the configuration any more'
check "a and b still prove" sh -c "$(declare -f prove); BENCH='$BENCH' DADDR='$DADDR'; prove a && prove b"

stop_daemon "$DPID" 30
check "SIGTERM after the reloads: exit 0 (got $STOP_RC)" [ "$STOP_RC" = 0 ]
finish
