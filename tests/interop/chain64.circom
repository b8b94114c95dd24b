pragma circom 2.0.0;
include "chain.circom";
component main {public [x0]} = Chain(64);
