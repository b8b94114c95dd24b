pragma circom 2.0.0;
// c = a*b: one constraint, public output c, private inputs a, b.
template Multiplier() {
    signal input a;
    signal input b;
    signal output c;
    c <== a * b;
}
component main = Multiplier();
