#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0 OR MIT
//
// An independent cuzk.v1 client for the daemon tests (tests/daemon): @grpc/grpc-js with
// @grpc/proto-loader reading our proto/cuzk/v1/proving.proto, so the wire contract is checked by
// code that shares nothing with the C server or cuzk-bench.
//
// usage: node tests/interop/grpc_client.mjs COMMAND ADDR [ARGS...]
//   ADDR is unix:///abs/path.sock or 127.0.0.1:PORT. Scenario commands print "ok: ..." /
//   "not ok: ..." lines and exit 1 when a check fails; the seed of their random inputs comes from
//   CUZK_TEST_SEED (decimal or 0x hex) or is drawn fresh, and is printed.
//   call ADDR METHOD [JSON]        one RPC; prints the response as JSON (bytes as hex), or
//                                  {"error": {"code", "name", "details"}} and exit 3
//   tojson PROOF INPUTS PROOF_JSON PUBLIC_JSON  the daemon's proof + inputs as snarkjs JSON
//   raw ADDR PATH HEX              raw request bytes to a method path; prints the outcome as JSON
//   wire ADDR OUTDIR               every RPC, field by field (test 1); writes vk/proof/inputs files
//   idem ADDR                      idempotency of request_id (test 2)
//   priority ADDR CIRCUIT          HIGH overtakes queued NORMAL jobs, LOW goes last (test 3)
//   cancel ADDR CIRCUIT            cancel pending/running jobs, AwaitProof timeout (test 4)
//   srs ADDR CIRCUIT               preload / evict and the tiers in GetStatus (test 5)
//   load ADDR N CLIENTS OUTDIR     N proofs from CLIENTS channels; writes files for verification
//   faults ADDR                    malformed bytes, unknown methods, bad requests (test 7)
//   oversize ADDR LIMIT            a request larger than the daemon's max message size
//   drain ADDR CLIENTS STOPFILE OUT [LONG]  submit+await in a loop until the daemon goes away
//                                  (test 8), plus one job of LONG partitions; JSON summary to OUT
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PROTO = path.join(ROOT, 'proto/cuzk/v1/proving.proto');
const PHASES = ['queue_wait', 'srs_load', 'synthesis', 'witness', 'matvec', 'ntt_h', 'msm_h',
    'batch_add', 'tail_msm', 'msm_b_g2', 'assemble', 'verify', 'gpu_compute', 'total'];
const BYTES_FIELDS = new Set(['witness', 'vanilla_proof', 'vanilla_proofs', 'randomness',
    'comm_r_old', 'comm_r_new', 'comm_d_new']);
const CODE_NAMES = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k]));

const def = protoLoader.loadSync(PROTO, {
    keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
});
const Engine = grpc.loadPackageDefinition(def).cuzk.v1.ProvingEngine;

// ---- small helpers ----------------------------------------------------------------------------

let failures = 0;
function ok(desc) { console.log(`ok: ${desc}`); }
function notOk(desc, detail) {
    failures++;
    console.log(`not ok: ${desc}${detail === undefined ? '' : `: ${detail}`}`);
}
function check(cond, desc, detail) {
    if (cond) ok(desc); else notOk(desc, typeof detail === 'function' ? detail() : detail);
    return !!cond;
}
function eq(got, want, desc) {
    return check(got === want, desc, () => `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const num = (s) => Number(s); // uint64 fields arrive as decimal strings (longs: String)

// Test seed: CUZK_TEST_SEED or fresh; every random input below derives from it (splitmix64).
function makeRng() {
    const env = process.env.CUZK_TEST_SEED;
    let s = env ? BigInt(env) : randomBytes(8).readBigUInt64LE(0);
    console.log(`# seed ${s} (replay with CUZK_TEST_SEED=${s})`);
    const M = (1n << 64n) - 1n;
    return () => {
        s = (s + 0x9e3779b97f4a7c15n) & M;
        let z = s;
        z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
        z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
        return z ^ (z >> 31n);
    };
}
let rng = null;
const nextU64 = () => (rng ??= makeRng())();
function seedBytes(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(v); return b; }
function freshSeed() { return nextU64() & ((1n << 62n) - 1n); } // room for seed + partitions
function freshId(prefix) { return `${prefix}-${nextU64().toString(16)}`; }

function connect(addr, extra = {}) {
    return new Engine(addr, grpc.credentials.createInsecure(), {
        'grpc.max_receive_message_length': -1,
        'grpc.max_send_message_length': -1,
        ...extra,
    });
}

// rpc(client, 'Method', req, deadlineMs) -> response; rejects with the grpc error (code, details).
function rpc(client, method, req, deadlineMs = 120000) {
    return new Promise((resolve, reject) => {
        client[method](req, { deadline: Date.now() + deadlineMs }, (err, res) => {
            if (err) reject(err); else resolve(res);
        });
    });
}
// Same, but resolves {err} instead of rejecting.
async function tryRpc(client, method, req, deadlineMs) {
    try { return { res: await rpc(client, method, req, deadlineMs) }; } catch (err) { return { err }; }
}
const codeName = (err) => CODE_NAMES[err?.code] ?? String(err?.code);
async function expectCode(client, method, req, code, desc, detailRe) {
    const { res, err } = await tryRpc(client, method, req, 30000);
    if (!err) return notOk(desc, `succeeded: ${JSON.stringify(toJson(res)).slice(0, 200)}`);
    const good = err.code === code && (!detailRe || detailRe.test(err.details ?? ''));
    check(good, `${desc} -> ${CODE_NAMES[code]}`,
        `got ${codeName(err)} "${err.details}"${detailRe ? `, details must match ${detailRe}` : ''}`);
    return err;
}

// JSON view of a response: Buffers as hex.
function toJson(v) {
    if (Buffer.isBuffer(v)) return v.toString('hex');
    if (Array.isArray(v)) return v.map(toJson);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
    return v;
}
// Request JSON for `call`: bytes fields as hex strings.
function fromJson(v, key) {
    if (BYTES_FIELDS.has(key)) return Array.isArray(v) ? v.map((x) => Buffer.from(x, 'hex')) : Buffer.from(v, 'hex');
    if (Array.isArray(v)) return v.map((x) => fromJson(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromJson(x, k)]));
    return v;
}

function srsOf(status, id) { return status.loaded_srs.find((s) => s.circuit_id === id); }

// Prometheus text -> Map("name{labels}" -> number).
function parseMetrics(text) {
    const m = new Map();
    for (const line of text.split('\n')) {
        if (!line || line.startsWith('#')) continue;
        const i = line.lastIndexOf(' ');
        m.set(line.slice(0, i), Number(line.slice(i + 1)));
    }
    return m;
}
// The daemon's completed-proof counter (cuzk_proofs_completed_total, no labels): [name, value].
function completedCounter(text) {
    const v = parseMetrics(text).get('cuzk_proofs_completed_total');
    return v === undefined ? null : ['cuzk_proofs_completed_total', v];
}

// Checks an AwaitProofResponse of a COMPLETED job of |parts| partitions with |nPub| inputs each.
function checkCompleted(r, { jobId, circuit, parts, nPub }, what) {
    if (!eq(r.status, 'COMPLETED', `${what}: status`)) {
        console.log(`    error_message: ${r.error_message}`);
        return false;
    }
    let good = true;
    good &= eq(r.job_id, jobId, `${what}: job_id echoed`);
    good &= eq(r.proof.length, 192 * parts, `${what}: proof is ${parts} x 192 bytes`);
    good &= eq(r.error_message, '', `${what}: no error_message`);
    good &= check(num(r.total_ms) > 0 && num(r.synthesis_ms) > 0 && num(r.gpu_compute_ms) > 0,
        `${what}: total_ms, synthesis_ms, gpu_compute_ms > 0`,
        `total ${r.total_ms} synthesis ${r.synthesis_ms} gpu_compute ${r.gpu_compute_ms}`);
    good &= check(num(r.queue_wait_ms) >= 0 && num(r.srs_load_ms) >= 0 &&
        num(r.gpu_compute_ms) <= num(r.total_ms) * parts + 5,
    `${what}: queue_wait/srs_load present, gpu_compute within total`,
    `queue ${r.queue_wait_ms} srs ${r.srs_load_ms} gpu ${r.gpu_compute_ms} total ${r.total_ms}`);
    good &= eq(r.num_public_inputs, nPub, `${what}: num_public_inputs`);
    good &= eq(r.public_inputs.length, 32 * nPub * parts, `${what}: public_inputs length`);
    good &= eq(r.circuit_id, circuit, `${what}: circuit_id`);
    good &= eq(r.partitions, parts, `${what}: partitions`);
    good &= check(/^(cpu|cuda:\d+)$/.test(r.backend), `${what}: backend names cpu or cuda:N`, r.backend);
    good &= eq(r.verified, true, `${what}: verified by the daemon`);
    const names = r.phases.map((p) => p.phase);
    good &= check(names.every((n) => PHASES.includes(n)) && names.includes('synthesis') &&
        names.includes('total') && r.phases.every((p) => p.ms >= 0) &&
        r.phases.find((p) => p.phase === 'total').ms > 0,
    `${what}: phases use DESIGN.md names, total > 0`, JSON.stringify(r.phases));
    return !!good;
}

// Writes proof bytes and the inputs file `cuzk-bench verify` reads (one 32-byte LE hex per line).
function writeProofFiles(dir, name, r) {
    writeFileSync(path.join(dir, `${name}.proof`), r.proof);
    const lines = [];
    for (let i = 0; i < r.public_inputs.length; i += 32) lines.push(r.public_inputs.subarray(i, i + 32).toString('hex'));
    writeFileSync(path.join(dir, `${name}.inputs`), lines.join('\n') + '\n');
}

// ---- test 1: every RPC, field by field ---------------------------------------------------------

async function scenarioWire(addr, out) {
    mkdirSync(out, { recursive: true });
    const c = connect(addr);
    const st0 = await rpc(c, 'GetStatus', {});
    check(st0.version.length > 0, 'GetStatus: version set', st0.version);
    check(st0.circuits.includes('demo'), 'GetStatus: circuits lists "demo"', st0.circuits.join(','));
    check(srsOf(st0, 'demo') && ['HOT', 'WARM', 'COLD'].includes(srsOf(st0, 'demo').tier),
        'GetStatus: loaded_srs has demo with a tier', JSON.stringify(st0.loaded_srs));
    check(Array.isArray(st0.queues) && Array.isArray(st0.gpus), 'GetStatus: queues and gpus are lists');
    check(num(st0.memory_budget_bytes) > 0 && num(st0.pinned_memory_limit_bytes) > 0,
        'GetStatus: memory budget and pinned limit > 0',
        `${st0.memory_budget_bytes} / ${st0.pinned_memory_limit_bytes}`);

    const info = await rpc(c, 'GetCircuitInfo', { circuit_id: 'demo' });
    eq(info.circuit_id, 'demo', 'GetCircuitInfo: circuit_id');
    eq(info.source, 'builtin:sha256-chain:1', 'GetCircuitInfo: source');
    eq(info.num_public_inputs, 2, 'GetCircuitInfo: 2 public inputs (sha256-chain multipacked digest)');
    check(num(info.num_constraints) > 20000, 'GetCircuitInfo: num_constraints of one SHA-256 compression', info.num_constraints);
    // bellperson .vk: 6 points (864 bytes), u32 IC count, IC points (uncompressed G1, 96 bytes).
    eq(info.verifying_key.length, 864 + 4 + 96 * (info.num_public_inputs + 1), 'GetCircuitInfo: .vk image size');
    eq(info.verifying_key.readUInt32BE(864), info.num_public_inputs + 1, 'GetCircuitInfo: .vk IC count');
    writeFileSync(path.join(out, 'demo.vk'), info.verifying_key);
    await expectCode(c, 'GetCircuitInfo', { circuit_id: 'no-such-circuit' }, grpc.status.NOT_FOUND, 'GetCircuitInfo unknown circuit');

    const pre = await rpc(c, 'PreloadSRS', { circuit_id: 'demo' });
    check(num(pre.load_time_ms) >= 0, 'PreloadSRS demo answers', JSON.stringify(pre));
    const pre2 = await rpc(c, 'PreloadSRS', { circuit_id: 'demo' });
    eq(pre2.already_loaded, true, 'PreloadSRS again: already_loaded');
    const st1 = await rpc(c, 'GetStatus', {});
    const s1 = srsOf(st1, 'demo');
    check(s1?.tier === 'HOT' && num(s1.size_bytes) > 0, 'GetStatus after preload: demo HOT, size_bytes > 0', JSON.stringify(s1));

    const seed = freshSeed();
    const rid = freshId('wire');
    const sub = await rpc(c, 'SubmitProof', { request_id: rid, circuit_id: 'demo', witness: seedBytes(seed), priority: 'NORMAL' });
    check(sub.job_id.length > 0, 'SubmitProof: job_id', sub.job_id);
    eq(sub.existing_job, false, 'SubmitProof: a new job');
    const aw = await rpc(c, 'AwaitProof', { job_id: sub.job_id, timeout_ms: 0 });
    checkCompleted(aw, { jobId: sub.job_id, circuit: 'demo', parts: 1, nPub: 2 }, 'AwaitProof');
    writeProofFiles(out, 'p1', aw);

    const pr = (await rpc(c, 'Prove', { submit: { circuit_id: 'demo', witness: seedBytes(seed), partitions: 2 } })).result;
    checkCompleted(pr, { jobId: pr.job_id, circuit: 'demo', parts: 2, nPub: 2 }, 'Prove 2 partitions');
    check(pr.job_id.length > 0 && pr.job_id !== sub.job_id, 'Prove without request_id: a fresh job id', pr.job_id);
    writeProofFiles(out, 'p2', pr);
    // The seed fixes the circuit's private block, so the public digest; partition k uses seed + k.
    check(pr.public_inputs.subarray(0, 64).equals(aw.public_inputs),
        'same seed, same public inputs (partition 0)');
    check(!pr.proof.subarray(0, 192).equals(aw.proof), 'same statement, different proof bytes (randomised prover)');
    const pr3 = (await rpc(c, 'Prove', { submit: { circuit_id: 'demo', witness: seedBytes(seed + 1n) } })).result;
    checkCompleted(pr3, { jobId: pr3.job_id, circuit: 'demo', parts: 1, nPub: 2 }, 'Prove seed + 1');
    check(pr3.public_inputs.equals(pr.public_inputs.subarray(64)), 'partition 1 of seed s = partition 0 of seed s + 1');
    check(!pr3.public_inputs.equals(aw.public_inputs), 'another seed, other public inputs');
    writeProofFiles(out, 'p3', pr3);

    const cdone = await rpc(c, 'CancelProof', { job_id: sub.job_id });
    check(cdone.cancelled === false && cdone.was_running === false, 'CancelProof of a finished job: nothing cancelled', JSON.stringify(cdone));
    const again = await rpc(c, 'AwaitProof', { job_id: sub.job_id, timeout_ms: 0 });
    check(again.status === 'COMPLETED' && again.proof.equals(aw.proof), 'AwaitProof again after the cancel: same result');
    await expectCode(c, 'CancelProof', { job_id: 'no-such-job' }, grpc.status.NOT_FOUND, 'CancelProof unknown job');
    await expectCode(c, 'AwaitProof', { job_id: 'no-such-job' }, grpc.status.NOT_FOUND, 'AwaitProof unknown job');

    const met = await rpc(c, 'GetMetrics', {});
    const text = met.prometheus_text;
    check(/^# TYPE cuzk_\w+ (counter|gauge|histogram)$/m.test(text), 'GetMetrics: Prometheus exposition with # TYPE lines');
    check(/^# TYPE \w+ histogram$/m.test(text) && /_bucket\{[^}]*le="\+Inf"\} \d+/.test(text),
        'GetMetrics: histograms with +Inf buckets');
    check(PHASES.filter((p) => text.includes(`"${p}"`) || text.includes(`_${p}_`)).length >= 3,
        'GetMetrics: per-phase figures named as in DESIGN.md');
    const st2 = await rpc(c, 'GetStatus', {});
    eq(num(st2.total_proofs_completed) - num(st0.total_proofs_completed), 3, 'GetStatus: total_proofs_completed +3 (jobs)');
    check(num(st2.uptime_seconds) >= num(st0.uptime_seconds), 'GetStatus: uptime_seconds monotonic');
    const cc = completedCounter(text);
    check(cc && cc[1] === num(st2.total_proofs_completed), 'GetMetrics: completed counter equals GetStatus',
        cc ? `${cc[0]} = ${cc[1]} vs ${st2.total_proofs_completed}` : 'no completed counter found');

    const ev = await rpc(c, 'EvictSRS', { circuit_id: 'demo' });
    check(ev.was_loaded === true && num(ev.freed_bytes) > 0, 'EvictSRS demo: was_loaded, freed_bytes > 0', JSON.stringify(ev));
    const st3 = await rpc(c, 'GetStatus', {});
    check(srsOf(st3, 'demo')?.tier !== 'HOT', 'GetStatus after evict: demo not HOT', JSON.stringify(srsOf(st3, 'demo')));
    await expectCode(c, 'PreloadSRS', { circuit_id: 'no-such-circuit' }, grpc.status.NOT_FOUND, 'PreloadSRS unknown circuit');
    await expectCode(c, 'EvictSRS', { circuit_id: 'no-such-circuit' }, grpc.status.NOT_FOUND, 'EvictSRS unknown circuit');
    c.close();
}

// ---- test 2: idempotency ----------------------------------------------------------------------

async function scenarioIdem(addr) {
    const c = connect(addr);
    const st0 = await rpc(c, 'GetStatus', {});
    const cc0 = completedCounter((await rpc(c, 'GetMetrics', {})).prometheus_text);
    const rid = freshId('idem');
    const req = { request_id: rid, circuit_id: 'demo', witness: seedBytes(freshSeed()) };
    const s1 = await rpc(c, 'SubmitProof', req);
    const s2 = await rpc(c, 'SubmitProof', req);
    eq(s2.job_id, s1.job_id, 'same request_id while pending/running: same job id');
    check(s1.existing_job === false && s2.existing_job === true, 'existing_job false then true', `${s1.existing_job} ${s2.existing_job}`);
    const a1 = await rpc(c, 'AwaitProof', { job_id: s1.job_id });
    eq(a1.status, 'COMPLETED', 'the job completes');
    const s3 = await rpc(c, 'SubmitProof', req);
    check(s3.job_id === s1.job_id && s3.existing_job === true, 'same request_id after completion: same job, existing', JSON.stringify(s3));
    const a3 = await rpc(c, 'AwaitProof', { job_id: s3.job_id });
    check(a3.status === 'COMPLETED' && a3.proof.equals(a1.proof), 'the kept result is returned, not a second proof');

    // Eight concurrent submits (separate channels) of one new id: one job.
    const rid2 = freshId('idem-conc');
    const chans = Array.from({ length: 8 }, () => connect(addr));
    const req2 = { request_id: rid2, circuit_id: 'demo', witness: seedBytes(freshSeed()) };
    const subs = await Promise.all(chans.map((ch) => rpc(ch, 'SubmitProof', req2)));
    check(new Set(subs.map((s) => s.job_id)).size === 1, '8 concurrent submits of one request_id: one job id', subs.map((s) => s.job_id).join(','));
    eq(subs.filter((s) => !s.existing_job).length, 1, 'exactly one of them created the job');
    // Two concurrent Prove calls with one id get the same proof.
    const rid3 = freshId('idem-prove');
    const req3 = { submit: { request_id: rid3, circuit_id: 'demo', witness: seedBytes(freshSeed()) } };
    const [p1, p2] = await Promise.all([rpc(chans[0], 'Prove', req3), rpc(chans[1], 'Prove', req3)]);
    check(p1.result.status === 'COMPLETED' && p1.result.proof.equals(p2.result.proof) &&
        p1.result.job_id === p2.result.job_id, 'two concurrent Prove calls with one request_id: one job, same proof');
    await rpc(c, 'AwaitProof', { job_id: subs[0].job_id });
    chans.forEach((ch) => ch.close());

    const st1 = await rpc(c, 'GetStatus', {});
    eq(num(st1.total_proofs_completed) - num(st0.total_proofs_completed), 3, 'GetStatus: exactly 3 proofs completed for 3 request ids');
    const cc1 = completedCounter((await rpc(c, 'GetMetrics', {})).prometheus_text);
    check(cc0 && cc1 && cc1[1] - cc0[1] === 3, 'GetMetrics: completed counter +3', `${cc0} -> ${cc1}`);
    // A request id that failed validation is not remembered: a correct retry is a new job.
    const rid4 = freshId('idem-bad');
    await expectCode(c, 'SubmitProof', { request_id: rid4, circuit_id: 'no-such-circuit' }, grpc.status.INVALID_ARGUMENT, 'unknown circuit_id');
    const s4 = await rpc(c, 'SubmitProof', { request_id: rid4, circuit_id: 'demo', witness: seedBytes(freshSeed()) });
    eq(s4.existing_job, false, 'the same id after a rejected submit makes a new job');
    eq((await rpc(c, 'AwaitProof', { job_id: s4.job_id })).status, 'COMPLETED', 'and it completes');
    c.close();
}

// ---- test 3: priorities -----------------------------------------------------------------------

async function scenarioPriority(addr, circuit) {
    const c = connect(addr);
    const pre = await rpc(c, 'PreloadSRS', { circuit_id: circuit }, 300000);
    console.log(`# ${circuit} preloaded in ${pre.load_time_ms} ms`);
    const t0 = performance.now();
    const submit = async (name, priority, partitions) => {
        const s = await rpc(c, 'SubmitProof', { request_id: freshId(name), circuit_id: circuit, priority, partitions, witness: seedBytes(freshSeed()) });
        return { name, priority, job: s.job_id, qpos: s.queue_position };
    };
    // One prover and one synthesis worker: N1 starts at once, the rest queue behind it.
    const jobs = [];
    jobs.push(await submit('N1', 'NORMAL', 3));
    jobs.push(await submit('L1', 'LOW', 1));
    jobs.push(await submit('N2', 'NORMAL', 3));
    jobs.push(await submit('N3', 'NORMAL', 3));
    jobs.push(await submit('H1', 'HIGH', 1));
    console.log(`# submitted ${jobs.map((j) => `${j.name}(${j.priority}, queue_position ${j.qpos})`).join(' ')}`);
    const done = [];
    await Promise.all(jobs.map(async (j) => {
        const r = await rpc(c, 'AwaitProof', { job_id: j.job }, 600000);
        j.status = r.status;
        j.at = performance.now() - t0;
        done.push(j.name);
    }));
    console.log(`# completion order: ${done.join(' ')} (${jobs.map((j) => `${j.name} ${j.at.toFixed(0)} ms`).join(', ')})`);
    check(jobs.every((j) => j.status === 'COMPLETED'), 'all jobs completed', jobs.map((j) => j.status).join(','));
    const at = Object.fromEntries(jobs.map((j) => [j.name, j.at]));
    check(at.H1 < at.N2 && at.H1 < at.N3, 'HIGH, submitted last, completes before the queued NORMAL jobs N2 and N3');
    check(at.L1 > at.N2 && at.L1 > at.N3, 'LOW, submitted second, completes after the NORMAL jobs queued after it');
    check(at.N1 < at.N2 && at.N2 < at.N3, 'NORMAL jobs complete in submission order (FIFO inside a level)');
    const hi = jobs.find((j) => j.name === 'H1');
    const n3 = jobs.find((j) => j.name === 'N3');
    check(hi.qpos < n3.qpos, 'queue_position of HIGH is ahead of the last NORMAL job', `${hi.qpos} vs ${n3.qpos}`);
    c.close();
}

// ---- test 4: cancellation and AwaitProof timeout ----------------------------------------------

async function waitRunning(c, jobId, ms) {
    const end = Date.now() + ms;
    while (Date.now() < end) {
        const st = await rpc(c, 'GetStatus', {});
        if (st.queues.some((q) => q.in_progress > 0)) return true;
        await sleep(50);
    }
    return false;
}

async function scenarioCancel(addr, circuit) {
    const c = connect(addr);
    await rpc(c, 'PreloadSRS', { circuit_id: circuit }, 300000);
    const st0 = await rpc(c, 'GetStatus', {});
    const ridA = freshId('run');
    const A = await rpc(c, 'SubmitProof', { request_id: ridA, circuit_id: circuit, partitions: 6, witness: seedBytes(freshSeed()) });
    const B = await rpc(c, 'SubmitProof', { circuit_id: circuit, partitions: 1, witness: seedBytes(freshSeed()) });
    check(await waitRunning(c, A.job_id, 30000), 'the long job is running (GetStatus queues.in_progress)');
    // The pending job first.
    const cb = await rpc(c, 'CancelProof', { job_id: B.job_id });
    check(cb.cancelled === true && cb.was_running === false, 'CancelProof of a pending job: cancelled, was_running false', JSON.stringify(cb));
    const t0 = Date.now();
    const ab = await rpc(c, 'AwaitProof', { job_id: B.job_id }, 10000);
    check(ab.status === 'CANCELLED' && ab.proof.length === 0 && num(ab.total_ms) === 0,
        'AwaitProof of the cancelled pending job: CANCELLED, no proof, timings 0', JSON.stringify(toJson(ab)).slice(0, 300));
    check(Date.now() - t0 < 2000, 'and it answers at once', `${Date.now() - t0} ms`);
    // Then the running one: it stops at its next partition boundary.
    await sleep(300);
    const awA = rpc(c, 'AwaitProof', { job_id: A.job_id }, 120000);
    const tc = Date.now();
    const ca = await rpc(c, 'CancelProof', { job_id: A.job_id });
    check(ca.cancelled === true && ca.was_running === true, 'CancelProof of a running job: cancelled, was_running true', JSON.stringify(ca));
    const aa = await awA;
    const took = Date.now() - tc;
    check(aa.status === 'CANCELLED' && aa.proof.length === 0, 'a waiting AwaitProof of the running job returns CANCELLED',
        `${aa.status} ${aa.error_message}`);
    check(aa.error_message.length > 0, 'CANCELLED carries an error_message', aa.error_message);
    console.log(`# running job stopped ${took} ms after CancelProof`);
    const ca2 = await rpc(c, 'CancelProof', { job_id: A.job_id });
    eq(ca2.cancelled, false, 'cancelling it again: nothing to cancel');
    // The cancelled request id may be submitted again: a new job that completes.
    const A2 = await rpc(c, 'SubmitProof', { request_id: ridA, circuit_id: circuit, partitions: 1, witness: seedBytes(freshSeed()) });
    eq(A2.existing_job, false, 'resubmitting a cancelled request_id starts a new job');
    eq((await rpc(c, 'AwaitProof', { job_id: A2.job_id }, 120000)).status, 'COMPLETED', 'the resubmitted job completes');

    // AwaitProof timeout: TIMEOUT, and the job goes on.
    const C = await rpc(c, 'SubmitProof', { circuit_id: circuit, partitions: 6, witness: seedBytes(freshSeed()) });
    const t1 = Date.now();
    const tmo = await rpc(c, 'AwaitProof', { job_id: C.job_id, timeout_ms: 300 }, 30000);
    const waited = Date.now() - t1;
    check(tmo.status === 'TIMEOUT' && tmo.proof.length === 0, 'AwaitProof with timeout_ms 300 on a long job: TIMEOUT', tmo.status);
    check(waited >= 250 && waited < 3000, 'TIMEOUT comes after about timeout_ms', `${waited} ms`);
    const fin = await rpc(c, 'AwaitProof', { job_id: C.job_id, timeout_ms: 0 }, 120000);
    check(fin.status === 'COMPLETED' && fin.proof.length === 6 * 192, 'the same job completes later', fin.status);
    // A deadline on the gRPC call itself (client side) does not cancel the job either. Six
    // partitions, like C: one partition can finish inside the 200 ms deadline on a fast machine.
    const D = await rpc(c, 'SubmitProof', { circuit_id: circuit, partitions: 6, witness: seedBytes(freshSeed()) });
    const dl = await tryRpc(c, 'AwaitProof', { job_id: D.job_id }, 200);
    check(dl.err?.code === grpc.status.DEADLINE_EXCEEDED, 'a client deadline on AwaitProof: DEADLINE_EXCEEDED', codeName(dl.err));
    eq((await rpc(c, 'AwaitProof', { job_id: D.job_id }, 120000)).status, 'COMPLETED', 'and the job still completes');

    const st1 = await rpc(c, 'GetStatus', {});
    eq(num(st1.total_proofs_cancelled) - num(st0.total_proofs_cancelled), 2, 'GetStatus: total_proofs_cancelled +2');
    eq(num(st1.total_proofs_completed) - num(st0.total_proofs_completed), 3, 'GetStatus: total_proofs_completed +3');
    c.close();
}

// ---- test 5: preload / evict ------------------------------------------------------------------

async function scenarioSrs(addr, circuit) {
    const c = connect(addr);
    const st0 = await rpc(c, 'GetStatus', {});
    const e0 = srsOf(st0, circuit);
    check(e0 && e0.tier === 'COLD', `GetStatus at start: ${circuit} COLD`, JSON.stringify(e0));
    const pre = await rpc(c, 'PreloadSRS', { circuit_id: circuit }, 300000);
    check(pre.already_loaded === false && num(pre.load_time_ms) > 0, 'PreloadSRS: not loaded before, load_time_ms > 0', JSON.stringify(pre));
    const st1 = await rpc(c, 'GetStatus', {});
    const e1 = srsOf(st1, circuit);
    check(e1?.tier === 'HOT' && num(e1.size_bytes) > 0, `GetStatus after preload: ${circuit} HOT, size_bytes > 0`, JSON.stringify(e1));
    check(num(st1.pinned_memory_bytes) >= num(e1?.size_bytes ?? 0), 'pinned_memory_bytes covers the HOT entry',
        `${st1.pinned_memory_bytes} vs ${e1?.size_bytes}`);
    const pre2 = await rpc(c, 'PreloadSRS', { circuit_id: circuit });
    eq(pre2.already_loaded, true, 'PreloadSRS again: already_loaded');
    const ev = await rpc(c, 'EvictSRS', { circuit_id: circuit });
    check(ev.was_loaded === true && num(ev.freed_bytes) === num(e1?.size_bytes ?? -1),
        'EvictSRS: was_loaded, freed_bytes = size_bytes of the HOT entry', `${JSON.stringify(ev)} vs ${e1?.size_bytes}`);
    const st2 = await rpc(c, 'GetStatus', {});
    const e2 = srsOf(st2, circuit);
    check(e2 && e2.tier !== 'HOT', `GetStatus after evict: ${circuit} no longer HOT`, JSON.stringify(e2));
    eq(num(st1.pinned_memory_bytes) - num(st2.pinned_memory_bytes), num(ev.freed_bytes), 'pinned_memory_bytes dropped by freed_bytes');
    const ev2 = await rpc(c, 'EvictSRS', { circuit_id: circuit });
    check(ev2.was_loaded === false && num(ev2.freed_bytes) === 0, 'EvictSRS again: was_loaded false, 0 freed', JSON.stringify(ev2));
    await expectCode(c, 'PreloadSRS', { circuit_id: 'no-such-circuit' }, grpc.status.NOT_FOUND, 'PreloadSRS unknown circuit');
    await expectCode(c, 'EvictSRS', { circuit_id: 'no-such-circuit' }, grpc.status.NOT_FOUND, 'EvictSRS unknown circuit');
    // Proving an evicted circuit loads it again.
    const p = (await rpc(c, 'Prove', { submit: { circuit_id: circuit, witness: seedBytes(freshSeed()) } }, 300000)).result;
    eq(p.status, 'COMPLETED', 'Prove after evict: COMPLETED');
    c.close();
}

// ---- test 6: load -----------------------------------------------------------------------------

async function scenarioLoad(addr, n, clients, out) {
    mkdirSync(out, { recursive: true });
    const chans = Array.from({ length: clients }, () => connect(addr));
    const per = Array.from({ length: clients }, () => []);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(chans.map(async (ch, k) => {
        for (;;) {
            const i = next++;
            if (i >= n) return;
            const rid = freshId(`load${i}`);
            const s = await rpc(ch, 'SubmitProof', { request_id: rid, circuit_id: 'demo', witness: seedBytes(freshSeed()) });
            const r = await rpc(ch, 'AwaitProof', { job_id: s.job_id }, 600000);
            per[k].push({ i, rid, job: s.job_id, existing: s.existing_job, r });
        }
    }));
    const secs = (performance.now() - t0) / 1000;
    const all = per.flat();
    console.log(`# ${all.length} proofs from ${clients} clients in ${secs.toFixed(1)} s`);
    eq(all.length, n, `${n} requests answered`);
    check(all.every((x) => x.r.status === 'COMPLETED' && x.r.proof.length === 192), 'every answer COMPLETED with a 192-byte proof',
        all.filter((x) => x.r.status !== 'COMPLETED').map((x) => `${x.job}:${x.r.status}:${x.r.error_message}`).slice(0, 5).join('; '));
    eq(new Set(all.map((x) => x.job)).size, n, 'distinct job ids');
    check(all.every((x) => !x.existing), 'no submit was mistaken for an existing job');
    eq(new Set(all.map((x) => x.r.proof.toString('hex'))).size, n, 'distinct proofs');
    // One proof file per client (cuzk-bench verify takes up to 64 proofs per file).
    per.forEach((list, k) => {
        if (!list.length) return;
        writeProofFiles(out, `client${k}`, {
            proof: Buffer.concat(list.map((x) => x.r.proof)),
            public_inputs: Buffer.concat(list.map((x) => x.r.public_inputs)),
        });
    });
    chans.forEach((ch) => ch.close());
}

// ---- test 7: faults ---------------------------------------------------------------------------

function rawCall(addr, method, bytes, deadlineMs = 10000) {
    const cl = new grpc.Client(addr, grpc.credentials.createInsecure());
    return new Promise((resolve) => {
        cl.makeUnaryRequest(method, (b) => b, (b) => b, bytes, { deadline: Date.now() + deadlineMs }, (err, res) => {
            cl.close();
            resolve(err ? { code: err.code, name: codeName(err), details: err.details } : { code: 0, name: 'OK', bytes: res.toString('hex') });
        });
    });
}

async function scenarioFaults(addr) {
    const c = connect(addr);
    const svc = '/cuzk.v1.ProvingEngine/';
    // Bytes no protobuf parser accepts. (A string that is not UTF-8 parses; the daemon's own
    // check of it is tested below.)
    const garbage = [
        ['length past the end', Buffer.from('0a10616263', 'hex')],
        ['wire type 7', Buffer.from('0f01', 'hex')],
        ['truncated varint', Buffer.from('10ffffffff', 'hex')],
        ['field number 0', Buffer.from('0001', 'hex')],
        ['random bytes', Buffer.concat([Buffer.from('0aff', 'hex'), randomBytes(64)])],
    ];
    for (const m of ['SubmitProof', 'AwaitProof', 'Prove', 'CancelProof', 'PreloadSRS', 'EvictSRS', 'GetCircuitInfo']) {
        for (const [what, b] of garbage) {
            const r = await rawCall(addr, svc + m, b);
            check(r.code === grpc.status.INVALID_ARGUMENT, `${m} with malformed bytes (${what}) -> INVALID_ARGUMENT`, `${r.name} ${r.details ?? ''}`);
        }
    }
    const st = await rpc(c, 'GetStatus', {});
    check(st.circuits.includes('demo'), 'the daemon still answers GetStatus after malformed requests');
    let r = await rawCall(addr, svc + 'NoSuchMethod', Buffer.alloc(0));
    eq(r.name, 'UNIMPLEMENTED', 'unknown method of the service -> UNIMPLEMENTED');
    r = await rawCall(addr, '/cuzk.v2.Nothing/Prove', Buffer.alloc(0));
    eq(r.name, 'UNIMPLEMENTED', 'unknown service -> UNIMPLEMENTED');
    r = await rawCall(addr, svc + 'GetStatus', Buffer.alloc(0));
    eq(r.name, 'OK', 'raw empty GetStatus request (valid protobuf) -> OK');
    // Unknown fields are skipped (proto3 forward compatibility): field 999 varint.
    r = await rawCall(addr, svc + 'GetStatus', Buffer.from('b83e01', 'hex'));
    eq(r.name, 'OK', 'GetStatus with an unknown field -> OK');

    // PoRep: the C1 output is read before a circuit is chosen (it names its proof), so a malformed
    // one is INVALID_ARGUMENT naming what is wrong, with or without a circuit for it.
    for (const [c1, why] of [['{}', /registered_proof is missing/], ['{"SectorNum":1,"Phase1Out":"!!!!","SectorSize":2048}', /Phase1Out is not valid base64/]]) {
        const err = await expectCode(c, 'SubmitProof', { proof_kind: 'POREP_SEAL_COMMIT', sector_size: '2048', registered_proof: '0', vanilla_proof: Buffer.from(c1) },
            grpc.status.INVALID_ARGUMENT, `SubmitProof POREP_SEAL_COMMIT with the C1 ${c1}`);
        check(err && why.test(err.details), 'PoRep: the message says what the C1 lacks', err?.details);
    }
    await expectCode(c, 'SubmitProof', { proof_kind: 'POREP_SEAL_COMMIT', registered_proof: '0' },
        grpc.status.INVALID_ARGUMENT, 'SubmitProof POREP_SEAL_COMMIT without its C1 output');
    // PoSt: well formed, but this daemon registers no fil-post circuit -> UNIMPLEMENTED naming the
    // [[circuits]] entry to add; malformed -> INVALID_ARGUMENT.
    const rnd = Buffer.alloc(32);
    for (const [kind, name, rp] of [['WINDOW_POST_PARTITION', 'WindowPoSt', '5'], ['WINNING_POST', 'WinningPoSt', '0']]) {
        const err = await expectCode(c, 'SubmitProof', { proof_kind: kind, registered_proof: rp, randomness: rnd, vanilla_proofs: [Buffer.from('00', 'hex')] },
            grpc.status.UNIMPLEMENTED, `SubmitProof ${kind} with no circuit registered for it`);
        check(err && /no circuit is registered/.test(err.details) && err.details.includes(`fil-post:${rp}`), `${name}: the message names the circuit to register`, err?.details);
        await expectCode(c, 'SubmitProof', { proof_kind: kind, registered_proof: rp, vanilla_proofs: [Buffer.from('00', 'hex')] },
            grpc.status.INVALID_ARGUMENT, `SubmitProof ${kind} without randomness`);
    }
    // SnapDeals: the same, with the three comms and one partition proof per partition.
    const comm = Buffer.alloc(32);
    const serr = await expectCode(c, 'SubmitProof', { proof_kind: 'SNAP_DEALS_UPDATE', registered_proof: '0', comm_r_old: comm, comm_d_new: comm, comm_r_new: comm, vanilla_proofs: [Buffer.from('00', 'hex')] },
        grpc.status.UNIMPLEMENTED, 'SubmitProof SNAP_DEALS_UPDATE with no circuit registered for it');
    check(serr && /no circuit is registered/.test(serr.details) && serr.details.includes('fil-snap:0'), 'SnapDeals: the message names the circuit to register', serr?.details);
    await expectCode(c, 'SubmitProof', { proof_kind: 'SNAP_DEALS_UPDATE', registered_proof: '0', comm_r_old: comm, comm_r_new: comm, vanilla_proofs: [Buffer.from('00', 'hex')] },
        grpc.status.INVALID_ARGUMENT, 'SubmitProof SNAP_DEALS_UPDATE without comm_d_new');
    await expectCode(c, 'SubmitProof', { proof_kind: 'SNAP_DEALS_UPDATE', registered_proof: '1', comm_r_old: comm, comm_d_new: comm, comm_r_new: comm, vanilla_proofs: [Buffer.from('00', 'hex')] },
        grpc.status.INVALID_ARGUMENT, 'SubmitProof SNAP_DEALS_UPDATE (8 MiB: 4 partitions) with one partition proof');
    await expectCode(c, 'SubmitProof', { proof_kind: 'WINNING_POST', registered_proof: '5', randomness: rnd, vanilla_proofs: [Buffer.from('00', 'hex')] },
        grpc.status.INVALID_ARGUMENT, 'SubmitProof WINNING_POST with a WindowPoSt registered proof');
    const perr = await expectCode(c, 'Prove', { submit: { proof_kind: 'WINNING_POST', registered_proof: '0', randomness: rnd, vanilla_proofs: [Buffer.from('00', 'hex')] } },
        grpc.status.UNIMPLEMENTED, 'Prove WINNING_POST');
    console.log(`# message: ${perr?.details}`);
    await expectCode(c, 'SubmitProof', { request_id: freshId('bad') }, grpc.status.INVALID_ARGUMENT, 'proof_kind 0 without circuit_id');
    await expectCode(c, 'Prove', {}, grpc.status.INVALID_ARGUMENT, 'Prove without submit');
    await expectCode(c, 'SubmitProof', { circuit_id: 'no-such-circuit' }, grpc.status.INVALID_ARGUMENT, 'unknown circuit_id');
    await expectCode(c, 'SubmitProof', { circuit_id: 'demo', witness: Buffer.from('0102', 'hex') }, grpc.status.INVALID_ARGUMENT, 'a 2-byte seed for a built-in circuit');
    await expectCode(c, 'SubmitProof', { circuit_id: 'demo', partitions: 1025 }, grpc.status.INVALID_ARGUMENT, 'partitions 1025');
    await expectCode(c, 'SubmitProof', { circuit_id: 'demo', request_id: 'x'.repeat(300) }, grpc.status.INVALID_ARGUMENT, 'a 300-byte request_id');
    await expectCode(c, 'SubmitProof', { circuit_id: 'demo', proof_kind: 42 }, grpc.status.INVALID_ARGUMENT, 'proof_kind 42');
    await expectCode(c, 'AwaitProof', { job_id: '' }, grpc.status.INVALID_ARGUMENT, 'AwaitProof with an empty job id');
    // A request_id that is not UTF-8 (proto3 strings must be): raw bytes, since grpc-js cannot
    // encode one. Field 1 = 0xff, field 100 (circuit_id) = "demo".
    const badUtf8 = await rawCall(addr, svc + 'SubmitProof', Buffer.from('0a01ffa20604' + Buffer.from('demo').toString('hex'), 'hex'));
    eq(badUtf8.name, 'INVALID_ARGUMENT', 'a request_id that is not UTF-8 -> INVALID_ARGUMENT');
    // Still serving, and nothing was queued by the rejected requests.
    const st2 = await rpc(c, 'GetStatus', {});
    check(st2.queues.every((q) => q.pending === 0 && q.in_progress === 0), 'rejected requests queued nothing', JSON.stringify(st2.queues));
    const p = (await rpc(c, 'Prove', { submit: { circuit_id: 'demo', witness: seedBytes(freshSeed()) } })).result;
    eq(p.status, 'COMPLETED', 'the daemon still proves after the faults');
    c.close();
}

async function scenarioOversize(addr, limit) {
    const c = connect(addr);
    const big = randomBytes(limit + 1024);
    const { err } = await tryRpc(c, 'SubmitProof', { circuit_id: 'demo', witness: big }, 30000);
    check(err && err.code === grpc.status.RESOURCE_EXHAUSTED, `a ${big.length}-byte request over the ${limit}-byte limit -> RESOURCE_EXHAUSTED`,
        err ? `${codeName(err)} ${err.details}` : 'accepted');
    const small = await tryRpc(c, 'SubmitProof', { circuit_id: 'demo', witness: randomBytes(limit >> 2) }, 30000);
    check(small.err?.code === grpc.status.INVALID_ARGUMENT, 'a request under the limit reaches the engine (bad seed -> INVALID_ARGUMENT)',
        small.err ? `${codeName(small.err)} ${small.err.details}` : 'accepted');
    const p = (await rpc(c, 'Prove', { submit: { circuit_id: 'demo', witness: seedBytes(freshSeed()) } })).result;
    eq(p.status, 'COMPLETED', 'the daemon still proves after the oversized request');
    c.close();
}

// ---- test 8: submit + await until the daemon goes away ----------------------------------------

async function scenarioDrain(addr, clients, stopFile, out, longParts) {
    const chans = Array.from({ length: clients }, () => connect(addr));
    const jobs = [];
    const refused = [];
    const long = async () => {
        // One job of many partitions, submitted first: still running when the signal comes.
        const sub = await tryRpc(chans[0], 'SubmitProof', { circuit_id: 'demo', partitions: longParts, witness: seedBytes(freshSeed()) }, 10000);
        const tSub = Date.now();
        if (sub.err) { refused.push({ at: tSub, code: codeName(sub.err), details: sub.err.details }); return; }
        const aw = await tryRpc(chans[0], 'AwaitProof', { job_id: sub.res.job_id }, 90000);
        jobs.push({ job: sub.res.job_id, long: true, submitted: tSub, answered: Date.now(),
            status: aw.res ? aw.res.status : `rpc:${codeName(aw.err)}`, detail: aw.res ? aw.res.error_message : aw.err.details });
    };
    await Promise.all([longParts > 0 ? long() : null, ...chans.map(async (ch) => {
        while (!existsSync(stopFile)) {
            const sub = await tryRpc(ch, 'SubmitProof', { circuit_id: 'demo', witness: seedBytes(freshSeed()) }, 10000);
            const tSub = Date.now();
            if (sub.err) { refused.push({ at: tSub, code: codeName(sub.err), details: sub.err.details }); return; }
            // Deadline far past the daemon's grace: a hang shows as DEADLINE_EXCEEDED.
            const aw = await tryRpc(ch, 'AwaitProof', { job_id: sub.res.job_id }, 90000);
            jobs.push({ job: sub.res.job_id, submitted: tSub, answered: Date.now(),
                status: aw.res ? aw.res.status : `rpc:${codeName(aw.err)}`, detail: aw.res ? aw.res.error_message : aw.err.details });
        }
    })]);
    chans.forEach((ch) => ch.close());
    writeFileSync(out, JSON.stringify({ jobs, refused }, null, 1));
    console.log(`# drain: ${jobs.length} accepted, ${refused.length} refused`);
}

// ---- test 10: a daemon proof as snarkjs JSON ---------------------------------------------------

// Converts the daemon's 192-byte proof (ZCash compressed A, B, C) and its public inputs (verify
// --inputs format) into snarkjs proof.json / public.json, so `snarkjs groth16 verify` can judge
// it. Decompression is ffjavascript's (snarkjs's own curve code), whose compressed form differs
// from ZCash's only in the flags: 0x80 = "y is the larger root" (ZCash: 0x20, with 0x80 meaning
// compressed); 0x40 = infinity in both. The larger-root rule is the same (Fp2: c1, then c0).
async function toSnarkjsJson(proofPath, inputsPath, proofOut, publicOut) {
    const { buildBls12381 } = await import('ffjavascript');
    const proof = readFileSync(proofPath);
    if (proof.length !== 192) throw new Error(`${proofPath}: ${proof.length} bytes, want 192`);
    const curve = await buildBls12381(true);
    const point = (G, bytes) => {
        const b = Uint8Array.from(bytes);
        if (!(b[0] & 0x80)) throw new Error('point without the ZCash compression flag');
        if (b[0] & 0x40) return G.toObject(G.zero);
        b[0] = (b[0] & 0x1f) | (b[0] & 0x20 ? 0x80 : 0);
        const p = G.fromRprCompressed(b, 0);
        if (!G.isValid(p)) throw new Error('point not on the curve');
        return G.toObject(G.toAffine(p)).map((c) => (Array.isArray(c) ? c.map(String) : String(c)));
    };
    const pa = point(curve.G1, proof.subarray(0, 48));
    const pb = point(curve.G2, proof.subarray(48, 144));
    const pc = point(curve.G1, proof.subarray(144, 192));
    await curve.terminate();
    const json = { pi_a: pa, pi_b: pb, pi_c: pc, protocol: 'groth16', curve: 'bls12381' };
    writeFileSync(proofOut, JSON.stringify(json, null, 1));
    const pub = readFileSync(inputsPath, 'utf8').split('\n').filter((l) => l.trim())
        .map((l) => BigInt('0x' + Buffer.from(l.trim(), 'hex').reverse().toString('hex')).toString());
    writeFileSync(publicOut, JSON.stringify(pub, null, 1));
    console.log(`wrote ${proofOut} and ${publicOut} (${pub.length} public inputs)`);
}

// ---- main -------------------------------------------------------------------------------------

async function main() {
    const [cmd, addr, ...args] = process.argv.slice(2);
    if (!cmd || !addr) {
        console.error('usage: grpc_client.mjs call|raw|wire|idem|priority|cancel|srs|load|faults|oversize|drain ADDR ...');
        process.exit(2);
    }
    if (!['call', 'raw', 'tojson'].includes(cmd)) rng = makeRng();
    switch (cmd) {
    case 'call': {
        const c = connect(addr);
        const { res, err } = await tryRpc(c, args[0], fromJson(JSON.parse(args[1] ?? '{}')), Number(process.env.CALL_DEADLINE_MS ?? 120000));
        c.close();
        if (err) {
            console.log(JSON.stringify({ error: { code: err.code, name: codeName(err), details: err.details } }));
            process.exit(3);
        }
        console.log(JSON.stringify(toJson(res)));
        return;
    }
    case 'tojson': await toSnarkjsJson(addr, args[0], args[1], args[2]); break;
    case 'raw': console.log(JSON.stringify(await rawCall(addr, args[0], Buffer.from(args[1] ?? '', 'hex')))); return;
    case 'wire': await scenarioWire(addr, args[0]); break;
    case 'idem': await scenarioIdem(addr); break;
    case 'priority': await scenarioPriority(addr, args[0]); break;
    case 'cancel': await scenarioCancel(addr, args[0]); break;
    case 'srs': await scenarioSrs(addr, args[0]); break;
    case 'load': await scenarioLoad(addr, Number(args[0]), Number(args[1]), args[2]); break;
    case 'faults': await scenarioFaults(addr); break;
    case 'oversize': await scenarioOversize(addr, Number(args[0])); break;
    case 'drain': await scenarioDrain(addr, Number(args[0]), args[1], args[2], Number(args[3] ?? 0)); break;
    default: console.error(`unknown command ${cmd}`); process.exit(2);
    }
    if (failures) console.log(`# ${cmd}: ${failures} check(s) failed`);
    process.exit(failures ? 1 : 0);
}

main().catch((e) => {
    console.log(`not ok: ${process.argv[2]} aborted: ${e.code !== undefined ? `${codeName(e)} ${e.details}` : e.stack}`);
    process.exit(1);
});
