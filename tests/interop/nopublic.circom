pragma circom 2.0.0;
// No public signals at all (nPublic = 0, IC has one point, public.json is []).
template NoPublic() {
    signal input a;
    signal input b;
    signal c;
    c <== a * b;
    c === 35;
}
component main = NoPublic();
