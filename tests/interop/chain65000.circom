pragma circom 2.0.0;
include "chain.circom";
// 65,000 constraints + 2 public inputs: N = 2^16, the largest size a power-16 ptau serves
// (scripts/bench-vs-snarkjs.sh with SIZE=16).
component main {public [x0]} = Chain(65000);
