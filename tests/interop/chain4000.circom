pragma circom 2.0.0;
include "chain.circom";
// About 2^12 constraints (N = 4096): the size of scripts/bench-vs-snarkjs.sh.
component main {public [x0]} = Chain(4000);
