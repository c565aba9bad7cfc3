// Independent WARC check for fetch's tests, with warcio.js's WARCParser.
// Usage: node warc_check.cjs NPM_PREFIX RESULTS.jsonl WARC_FILE...
// Checks: each file starts with warcinfo, then request/response pairs that
// name each other (WARC-Concurrent-To); every result's "warc" {file, offset,
// length} slice parses on its own as the response record for its URL with the
// result's HTTP status and a payload matching WARC-Payload-Digest.
// Prints a summary line; exits 1 on the first failure.
"use strict";
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");
const [prefix, resultsPath, ...files] = process.argv.slice(2);
const { WARCParser } = require(path.resolve(prefix, "node_modules", "warcio"));

function fail(msg) {
  console.error("warc_check: " + msg);
  process.exit(1);
}

function base32(buf) {
  const a = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0, acc = 0, out = "";
  for (const b of buf) {
    acc = (acc << 8) | b; bits += 8;
    while (bits >= 5) { out += a[(acc >>> (bits - 5)) & 31]; bits -= 5; }
  }
  if (bits > 0) out += a[(acc << (5 - bits)) & 31];
  return out;
}

async function records(stream) {
  const out = [];
  for await (const rec of WARCParser.iterRecords(stream)) {
    const raw = Buffer.from(await rec.readFully(false));
    out.push({
      type: rec.warcType,
      id: rec.warcHeader("WARC-Record-ID"),
      to: rec.warcHeader("WARC-Concurrent-To"),
      uri: rec.warcTargetURI,
      payloadDigest: rec.warcHeader("WARC-Payload-Digest"),
      status: rec.httpHeaders ? rec.httpHeaders.statusCode : undefined,
      payload: raw,
    });
  }
  return out;
}

(async () => {
  let total = 0, pairs = 0;
  for (const f of files) {
    const recs = await records(fs.createReadStream(f));
    if (recs.length === 0 || recs[0].type !== "warcinfo") fail(f + ": first record is not warcinfo");
    if ((recs.length - 1) % 2 !== 0) fail(f + ": odd number of request/response records");
    for (let i = 1; i < recs.length; i += 2) {
      const [req, resp] = [recs[i], recs[i + 1]];
      if (req.type !== "request" || resp.type !== "response") fail(f + ": expected request then response at " + i);
      if (req.to !== resp.id || resp.to !== req.id) fail(f + ": WARC-Concurrent-To does not pair records at " + i);
      if (req.uri !== resp.uri) fail(f + ": target URIs differ at " + i);
      pairs++;
    }
    total += recs.length;
  }
  const results = fs.readFileSync(resultsPath, "utf8").split("\n").filter(Boolean).map(JSON.parse);
  let checked = 0;
  for (const r of results) {
    if (!r.warc) continue;
    const { file, offset, length } = r.warc;
    const fd = fs.openSync(file, "r");
    const buf = Buffer.alloc(length);
    fs.readSync(fd, buf, 0, length, offset);
    fs.closeSync(fd);
    const recs = await records([new Uint8Array(buf)]);
    if (recs.length !== 1) fail(r.url + ": slice holds " + recs.length + " records");
    const rec = recs[0];
    if (rec.type !== "response") fail(r.url + ": slice is a " + rec.type + " record");
    if (rec.uri !== r.url && !(r.robots && rec.uri)) fail(r.url + ": slice is for " + rec.uri);
    if (rec.status !== r.status) fail(r.url + ": status " + rec.status + " != " + r.status);
    const digest = "sha1:" + base32(crypto.createHash("sha1").update(rec.payload).digest());
    if (digest !== rec.payloadDigest) fail(r.url + ": payload digest " + digest + " != " + rec.payloadDigest);
    if (r.bytes !== undefined && rec.payload.length !== r.bytes && !r.error_class)
      fail(r.url + ": payload " + rec.payload.length + " bytes != result bytes " + r.bytes);
    checked++;
  }
  console.log(`warc_check: ${files.length} files, ${total} records, ${pairs} pairs, ${checked} result slices ok`);
})().catch((e) => fail(String(e && e.stack || e)));
