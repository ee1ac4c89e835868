// Generates relay-vectors.jsonl: what claude-peers 0.7 computes for relay bodies, so our
// canonical JSON (federation/canonicaljson.*) and relay signature are checked against
// JavaScript itself. signMessage below is 0.7's (src/federation.ts at 8c2379f, restated from
// docs/spec/peers-api.md §6.5): JSON.stringify of a new object with the top-level keys set in
// Array.prototype.sort order, HMAC-SHA256 keyed with the token string. The receiver parses the
// bytes it got and removes `signature` first (src/broker-handlers.ts), which is done here too.
//
//   node tests/federation/data/relay-vectors.mjs > tests/federation/data/relay-vectors.jsonl
//   node tests/federation/data/relay-vectors.mjs --check tests/federation/data/relay-vectors.jsonl
//
// Deterministic (seeded), no network, any Node >= 18.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";

function signMessage(body, psk) {
  const canonicalObj = {};
  for (const key of Object.keys(body).sort()) {
    canonicalObj[key] = body[key];
  }
  return { canonical: JSON.stringify(canonicalObj), signature: createHmac("sha256", psk).update(JSON.stringify(canonicalObj)).digest("hex") };
}

const TOKEN = "0123456789abcdef".repeat(4);
const cases = [];
function add(name, inputText, token = TOKEN) {
  cases.push({ name, token, inputText });
}
const base = {
  from_id: "riche-wsl2:a1b2c3d4", from_machine: "riche-wsl2", to_id: "e5f6a7b8",
  text: "hello", type: "text", metadata: null, reply_to: null,
};
const body = (over) => JSON.stringify({ ...base, ...over });

// docs/spec/peers-api.md §6.5's two vectors, and docs/spec/federation-security.md §3's with replay fields.
add("spec-6.5-plain", body({}));
add("spec-6.5-unicode", '{"from_id":"riche-wsl2:a1b2c3d4","from_machine":"riche-wsl2","to_id":"e5f6a7b8","text":"Ünïcode “q” \\n tab\\t / <>","type":"handoff","metadata":{"task":"review","files":["a.ts"],"2":"x","10":"y","z":1.5,"big":1e21,"n":100},"reply_to":42}');
add("security-3-replay-fields", body({ ts: 1764470000123, nonce: "q1w2e3r4t5y6u7i8o9p0aZ", to_machine: "rafi-macbook" }));
add("with-signature-field", body({ signature: "0".repeat(64) }));

// Strings: escapes, controls, DEL, U+2028/9, slash, non-BMP, lone and reversed surrogates.
add("escapes", body({ text: "q\"b\\s/\b\f\n\r\t end" }));
add("controls", body({ text: Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join("") + "\u007f" }));
add("line-separators", body({ text: "a\u2028b\u2029c\u0085d" }));
add("non-bmp", body({ text: "😀 𝄞 \u{10FFFF}" }));
add("lone-high-surrogate", '{"text":"a\\ud800b","type":"text"}');
add("lone-low-surrogate", '{"text":"\\udc00","type":"text"}');
add("reversed-surrogates", '{"text":"\\ude00\\ud83d","type":"text"}');
add("escaped-pair", '{"text":"\\ud83d\\ude00","type":"text"}');
add("high-at-end", '{"text":"x\\udbff","type":"text"}');
add("escaped-ascii", '{"text":"\\u0041\\u002f\\u005C\\u0022","type":"text"}');
add("escaped-slash", '{"text":"a\\/b","type":"text"}');
add("surrogate-key", '{"\\ud800":1,"\\uffff":2,"😀":3,"a":4}');
add("empty-strings", body({ text: "", from_id: "", to_id: "" }));

// Numbers as JSON.parse reads them and JSON.stringify writes them.
const numbers = ["0", "-0", "1", "-1", "100", "1e21", "1e+21", "1E21", "9.99e20", "123456789012345678901",
  "1e-7", "1e-6", "0.000001", "0.0000001", "1.5", "-1.5", "0.1", "0.30000000000000004", "1e300",
  "1e400", "-1e400", "1e-400", "-1e-400", "5e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
  "9007199254740991", "9007199254740992", "9007199254740993", "18446744073709551616", "12345678901234567890",
  "1764470000123", "0.5", "2.5e-5", "123e-20", "1.0", "1.50", "100e-2", "0e5", "-0.0", "4.35", "0.1e1",
  "1234567.891", "1e20", "1e-5", "123456789e13"];
for (const n of numbers) add(`number ${n}`, `{"reply_to":${n},"metadata":{"n":${n},"a":[${n}]}}`);
add("number 0.1+0.2", body({ reply_to: 0.1 + 0.2 }));

// Nested key order: array-index keys first ascending, then insertion order; duplicates.
add("index-keys", '{"metadata":{"b":1,"4294967295":2,"4294967294":3,"01":4,"10":5,"2":6,"-1":7,"1.5":8,"0":9,"a":10}}');
add("duplicate-keys", '{"metadata":{"b":1,"a":2,"b":3,"2":4,"2":5},"text":"x","text":"y"}');
add("nested-deep", '{"metadata":{"a":{"b":{"c":[{"z":1,"y":2,"3":3}]}},"list":[[],{},[[null]],true,false]}}');
add("top-level-index-keys", '{"10":"a","2":"b","text":"t","1":"c","a":"d","A":"e","_":"f","~":"g"}');
add("top-level-proto", '{"__proto__":{"x":1},"text":"t"}');
add("top-level-proto-primitive", '{"__proto__":5,"text":"t"}');
add("nested-proto", '{"metadata":{"__proto__":{"x":1},"y":2}}');
add("whitespace", ' \n\t{ "text" : "a" ,\r\n "metadata" : { "k" : [ 1 , 2 ] } } \n');
add("empty-object", "{}");
add("token-non-ascii", body({}), "pässwörd-✓");
add("token-empty", body({}), "");

// Seeded pseudo-random bodies.
let seed = 0x9e3779b9;
function rand() {
  seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const alphabet = ["a", "b", "Z", "0", "9", " ", "\"", "\\", "/", "\n", "\t", "\u0000", "\u001f", "\u007f", "é", "ß",
  "“", "\u2028", "中", "😀", "\ud800", "\udfff", "\uffff", "{", "}", ":", ","];
function randString(max) {
  let s = "";
  const n = Math.floor(rand() * max);
  for (let i = 0; i < n; i++) s += pick(alphabet);
  return s;
}
function randKey() {
  return pick([() => String(Math.floor(rand() * 20)), () => randString(4), () => pick(["task", "files", "z", "big", "n"]),
    () => String(Math.floor(rand() * 4294967296))])();
}
function randNumber() {
  return pick([() => Math.floor(rand() * 1000) - 500, () => (rand() - 0.5) * 10 ** Math.floor(rand() * 60 - 30),
    () => rand(), () => Math.floor(rand() * 2 ** 53) * 2 ** Math.floor(rand() * 30), () => -0])();
}
function randValue(depth) {
  const kinds = depth > 3 ? ["null", "bool", "number", "string"] : ["null", "bool", "number", "string", "array", "object"];
  switch (pick(kinds)) {
    case "null": return null;
    case "bool": return rand() < 0.5;
    case "number": return randNumber();
    case "string": return randString(12);
    case "array": return Array.from({ length: Math.floor(rand() * 4) }, () => randValue(depth + 1));
    default: {
      const o = {};
      const n = Math.floor(rand() * 5);
      for (let i = 0; i < n; i++) o[randKey()] = randValue(depth + 1);
      return o;
    }
  }
}
for (let i = 0; i < 200; i++) {
  const b = { ...base, text: randString(20), metadata: rand() < 0.2 ? null : randValue(1) };
  if (rand() < 0.3) b.reply_to = Math.floor(rand() * 1e6);
  if (rand() < 0.3) { b.ts = 1764470000000 + Math.floor(rand() * 1e6); b.nonce = randString(8); }
  // The key order on the wire is the sender's; the signature must not depend on it.
  const keys = Object.keys(b);
  const shuffled = {};
  while (keys.length) {
    const key = keys.splice(Math.floor(rand() * keys.length), 1)[0];
    shuffled[key] = b[key];
  }
  add(`random-${i}`, JSON.stringify(shuffled));
}

function vector(c) {
  const received = JSON.parse(c.inputText);
  const { signature, ...bodyWithoutSig } = received;
  const { canonical, signature: sig } = signMessage(bodyWithoutSig, c.token);
  const b64 = (s) => Buffer.from(s, "utf8").toString("base64");
  return JSON.stringify({ name: c.name, token: c.token, input: b64(c.inputText), stringify: b64(JSON.stringify(received)),
    canonical: b64(canonical), signature: sig });
}

const header = [
  "# Relay signature vectors computed by JavaScript (Node) with claude-peers 0.7's signMessage.",
  "# Generated by tests/federation/data/relay-vectors.mjs (see its header); do not edit by hand:",
  "#   node tests/federation/data/relay-vectors.mjs > tests/federation/data/relay-vectors.jsonl",
  "# One JSON object per line: token (the HMAC key string), input (base64 of the UTF-8 body as",
  "# received), stringify (base64 of JSON.stringify(JSON.parse(input))), canonical (base64 of what",
  "# is signed: the body minus `signature`, top-level keys sorted), signature (lower-case hex).",
];
const output = header.concat(cases.map(vector)).join("\n") + "\n";
if (process.argv[2] === "--check") {
  const current = readFileSync(process.argv[3], "utf8");
  if (current !== output) {
    console.error("relay-vectors.jsonl is not what relay-vectors.mjs generates: regenerate it (see its header)");
    process.exit(1);
  }
  console.log(`relay-vectors.jsonl is current (${cases.length} vectors)`);
} else {
  process.stdout.write(output);
}
