pragma circom 2.0.0;
// circomlib Poseidon(2) (BN254 constants taken as BLS12-381 elements: a test circuit, not a real
// BLS12-381 hash; formats.md 5.4) with one public input: public.json = [hash, inputs[0]].
include "node_modules/circomlib/circuits/poseidon.circom";
template Hash2() {
    signal input inputs[2];
    signal output out;
    component h = Poseidon(2);
    h.inputs[0] <== inputs[0];
    h.inputs[1] <== inputs[1];
    out <== h.out;
}
component main {public [inputs]} = Hash2();
