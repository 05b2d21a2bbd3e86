// The journal checked in the page, by a reading of docs/journal-format.md (format 5) independent of the firmware
// that wrote it: headers (magic, version, CRC-32, key id, continuity with the previous segment) and every frame
// (sync, length, CRC-32, sequence, link, SHA-256 chain), with the browser's WebCrypto. The page's shoe is the sim,
// without a secure element: its headers name the development key. The rules the records show, and an element's
// signatures, are `sabot log verify`'s, on the host.

import { crc32 } from "./zip.js";

const HEADER_SIZE = 182, CRC_AT = 178, FRAME = 38, BODY_AT = 6, LINK_AT = 26, FRAME_CRC_AT = 34;

const sha256 = async (...parts) => new Uint8Array(await crypto.subtle.digest("SHA-256", concat(parts)));
const le32 = (b, at) => new DataView(b.buffer, b.byteOffset + at, 4).getUint32(0, true);
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** {ok, segments, records, problem}: the segments ([name, bytes], in name order), their headers naming key (bytes). */
export async function checkJournal(segments, key) {
  const keyId = (await sha256(new TextEncoder().encode("sabot key id "), key)).slice(0, 8);
  let chain = new Uint8Array(32), seq = 0, previousValid = 0, records = 0;
  const fail = (name, what) => ({ ok: false, segments: segments.length, records, problem: `${name}: ${what}` });
  for (let s = 0; s < segments.length; s++) {
    const [name, data] = segments[s];
    if (data.length < HEADER_SIZE || String.fromCharCode(...data.slice(0, 3)) !== "SBJ") return fail(name, "no SBJ header");
    if (data[3] !== 5) return fail(name, `format version ${data[3]}`);
    if (crc32(data.subarray(0, CRC_AT)) !== le32(data, CRC_AT)) return fail(name, "header CRC-32");
    if (le32(data, 8) !== s + 1) return fail(name, `segment number ${le32(data, 8)}, expected ${s + 1}`);
    if (!same(data.slice(12, 20), keyId)) return fail(name, "written under another key");
    if (!same(data.slice(36, 68), chain) || le32(data, 68) !== previousValid || le32(data, 72) !== seq) {
      return fail(name, "does not follow the previous segment");
    }
    chain = await sha256(data.subarray(36, 68), data.subarray(0, CRC_AT));
    let at = HEADER_SIZE;
    for (; at + FRAME <= data.length; at += FRAME) {
      const frame = data.subarray(at, at + FRAME);
      const where = `record ${seq + 1}`;
      if (frame[0] !== 0xa5 || frame[1] !== 20) return fail(name, where + ": sync or length");
      if (crc32(frame.subarray(0, FRAME_CRC_AT)) !== le32(frame, FRAME_CRC_AT)) return fail(name, where + ": CRC-32");
      if (le32(frame, 2) !== seq + 1) return fail(name, where + `: sequence number ${le32(frame, 2)}`);
      if (!same(frame.slice(LINK_AT, FRAME_CRC_AT), chain.slice(0, 8))) return fail(name, where + ": chain link");
      chain = await sha256(chain, frame.subarray(BODY_AT, LINK_AT));
      seq += 1;
      records += 1;
    }
    if (at !== data.length) return fail(name, `${data.length - at} byte(s) after the last whole record`);
    previousValid = data.length;
  }
  return { ok: true, segments: segments.length, records, problem: "" };
}
