pragma circom 2.0.0;
// x[i+1] = x[i]^2 + k for n steps: n constraints, n + 3 wires (formats.md 5.2). Public: the
// output and x0 (outputs first in public.json), private: k.
template Chain(n) {
    signal input x0;
    signal input k;
    signal output out;
    signal x[n + 1];
    x[0] <== x0;
    for (var i = 0; i < n; i++) {
        x[i + 1] <== x[i] * x[i] + k;
    }
    out <== x[n];
}
