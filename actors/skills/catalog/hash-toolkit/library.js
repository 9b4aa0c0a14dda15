/**
 * SHA-256, SHA-1 and MD5 of UTF-8 text, HMAC over them, hex and base64 encodings: plain
 * JavaScript over 32-bit integers (the sandbox has no crypto module).
 */
function library() {
  function utf8(text) {
    const out = [];
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return out;
  }
  const rotl = (x, n) => (x << n) | (x >>> (32 - n));
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));

  function pad(bytes, littleEndian) {
    const out = bytes.slice();
    const bits = bytes.length * 8;
    out.push(0x80);
    while (out.length % 64 !== 56) out.push(0);
    const hi = Math.floor(bits / 0x100000000);
    const lo = bits >>> 0;
    const len = [];
    for (let i = 3; i >= 0; i--) len.push((hi >>> (i * 8)) & 255);
    for (let i = 3; i >= 0; i--) len.push((lo >>> (i * 8)) & 255);
    if (littleEndian) len.reverse();
    return out.concat(len);
  }
  function words(block, offset, littleEndian) {
    const w = [];
    for (let i = 0; i < 16; i++) {
      const b = offset + i * 4;
      w.push(
        littleEndian
          ? block[b] | (block[b + 1] << 8) | (block[b + 2] << 16) | (block[b + 3] << 24)
          : (block[b] << 24) | (block[b + 1] << 16) | (block[b + 2] << 8) | block[b + 3],
      );
    }
    return w;
  }
  function toBytes(ws, littleEndian) {
    const out = [];
    for (const w of ws) {
      const b = [(w >>> 24) & 255, (w >>> 16) & 255, (w >>> 8) & 255, w & 255];
      out.push.apply(out, littleEndian ? b.reverse() : b);
    }
    return out;
  }

  const K256 = [];
  (function () {
    let n = 2;
    const primes = [];
    while (primes.length < 64) {
      if (primes.every((p) => n % p !== 0)) primes.push(n);
      n++;
    }
    for (const p of primes) K256.push(Math.floor((Math.cbrt(p) % 1) * 0x100000000) | 0);
  })();

  function sha256(bytes) {
    const h = [
      0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ];
    const m = pad(bytes, false);
    for (let o = 0; o < m.length; o += 64) {
      const w = words(m, o, false);
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w.push((w[i - 16] + s0 + w[i - 7] + s1) | 0);
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const t1 =
          (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i]) | 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        hh = g;
        g = f;
        f = e;
        e = (d + t1) | 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) | 0;
      }
      [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = (h[i] + v) | 0));
    }
    return toBytes(h, false);
  }

  function sha1(bytes) {
    const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
    const m = pad(bytes, false);
    for (let o = 0; o < m.length; o += 64) {
      const w = words(m, o, false);
      for (let i = 16; i < 80; i++) w.push(rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1));
      let [a, b, c, d, e] = h;
      for (let i = 0; i < 80; i++) {
        const f =
          i < 20 ? (b & c) | (~b & d) : i < 40 ? b ^ c ^ d : i < 60 ? (b & c) | (b & d) | (c & d) : b ^ c ^ d;
        const k = i < 20 ? 0x5a827999 : i < 40 ? 0x6ed9eba1 : i < 60 ? 0x8f1bbcdc : 0xca62c1d6;
        const t = (rotl(a, 5) + f + e + k + w[i]) | 0;
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = t;
      }
      [a, b, c, d, e].forEach((v, i) => (h[i] = (h[i] + v) | 0));
    }
    return toBytes(h, false);
  }

  const S = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5,
    9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6,
    10, 15, 21, 6, 10, 15, 21,
  ];
  const KMD5 = [];
  for (let i = 0; i < 64; i++) KMD5.push(Math.floor(Math.abs(Math.sin(i + 1)) * 0x100000000) | 0);
  function md5(bytes) {
    const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
    const m = pad(bytes, true);
    for (let o = 0; o < m.length; o += 64) {
      const w = words(m, o, true);
      let [a, b, c, d] = h;
      for (let i = 0; i < 64; i++) {
        let f;
        let g;
        if (i < 16) {
          f = (b & c) | (~b & d);
          g = i;
        } else if (i < 32) {
          f = (d & b) | (~d & c);
          g = (5 * i + 1) % 16;
        } else if (i < 48) {
          f = b ^ c ^ d;
          g = (3 * i + 5) % 16;
        } else {
          f = c ^ (b | ~d);
          g = (7 * i) % 16;
        }
        const t = d;
        d = c;
        c = b;
        b = (b + rotl((a + f + KMD5[i] + w[g]) | 0, S[i])) | 0;
        a = t;
      }
      [a, b, c, d].forEach((v, i) => (h[i] = (h[i] + v) | 0));
    }
    return toBytes(h, true);
  }

  const ALGORITHMS = { sha256, sha1, md5 };
  function digest(algorithm, bytes) {
    const fn = ALGORITHMS[algorithm];
    if (!fn) throw new Error('Unknown algorithm ' + algorithm + ' (sha256, sha1, md5)');
    return fn(bytes);
  }
  function hmac(algorithm, key, message) {
    let k = key.length > 64 ? digest(algorithm, key) : key.slice();
    while (k.length < 64) k.push(0);
    const inner = digest(algorithm, k.map((b) => b ^ 0x36).concat(message));
    return digest(algorithm, k.map((b) => b ^ 0x5c).concat(inner));
  }
  const hex = (bytes) => bytes.map((b) => (b < 16 ? '0' : '') + b.toString(16)).join('');
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function base64(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
      out += i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=';
      out += i + 2 < bytes.length ? B64[n & 63] : '=';
    }
    return out;
  }
  function fromBase64(text) {
    const clean = text
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .replace(/[^A-Za-z0-9+/]/g, '');
    const out = [];
    for (let i = 0; i < clean.length; i += 4) {
      const n = [0, 1, 2, 3].map((k) => (i + k < clean.length ? B64.indexOf(clean[i + k]) : 0));
      const v = (n[0] << 18) | (n[1] << 12) | (n[2] << 6) | n[3];
      out.push((v >> 16) & 255);
      if (i + 2 < clean.length) out.push((v >> 8) & 255);
      if (i + 3 < clean.length) out.push(v & 255);
    }
    return out;
  }
  function fromUtf8(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length;) {
      const b = bytes[i];
      let c;
      if (b < 0x80) {
        c = b;
        i += 1;
      } else if (b >= 0xf0) {
        c = ((b & 7) << 18) | ((bytes[i + 1] & 63) << 12) | ((bytes[i + 2] & 63) << 6) | (bytes[i + 3] & 63);
        i += 4;
      } else if (b >= 0xe0) {
        c = ((b & 15) << 12) | ((bytes[i + 1] & 63) << 6) | (bytes[i + 2] & 63);
        i += 3;
      } else {
        c = ((b & 31) << 6) | (bytes[i + 1] & 63);
        i += 2;
      }
      out += String.fromCodePoint(c);
    }
    return out;
  }
  return { utf8, fromUtf8, digest, hmac, hex, base64, fromBase64 };
}
