#!/usr/bin/env node
// sharp (libvips) avatar-filter HTTP service: the strongest realistic Node peer for Menagerie's
// /canvas/filter/* and /canvas/misc/circle endpoints.
//
// GET /filter/<op>?avatar=<loopback url>[&c=RRGGBB][&t=0-255][&b=0-100]
//   (Menagerie's parameter names color= / threshold= / brightness=<factor 0-5> are accepted too)
// ops: greyscale invert threshold color (alias tint) brightness blur sepia pixelate circle
//
// Architecture, chosen to match Menagerie's:
//  * the avatar is fetched once per URL and its DECODED raw RGBA pixels are kept in an in-memory Map
//    (concurrent misses share one fetch); every request then builds a sharp pipeline from the raw
//    pixels, applies the op and encodes a PNG. No output cache.
//  * node:cluster with --workers N processes sharing the listening socket; sharp.cache(false);
//    sharp.concurrency(--concurrency C) (libvips threads per pipeline; 0 = leave sharp's default).
//  * the avatar's opacity is noted at decode time; an opaque avatar drops its alpha band per request
//    (Menagerie's encoder likewise writes RGB/grey without alpha for opaque images).
//
// Op definitions (same semantics as Menagerie's canvas-render where sharp allows):
//  greyscale  .greyscale().toColourspace('b-w')  (libvips B_W; written as a grey+alpha PNG, as Menagerie does;
//             without toColourspace sharp writes 3 identical bands)
//  invert     .negate({alpha:false})
//  threshold  .threshold(t).toColourspace('b-w') (grey value >= t -> 255 else 0, alpha kept; grey+alpha PNG); default t=128
//  color      multiply blend: .linear([r/255, g/255, b/255], [0,0,0]) on the colour bands; default #5865F2
//  brightness every colour band times f (.linear). f = brightness= (Menagerie's factor 0-5) if given,
//             else f = 1 + b/50 for b in 0-100 (b=25 -> 1.5, Menagerie's default; b=100 -> 3); default 1.5
//  blur       .blur(sigma), sigma = max(1, shorter side / 100) (Menagerie's); sharp premultiplies alpha
//  sepia      .recomb(standard sepia matrix)
//  pixelate   block = max(2, floor(shorter side / 32)) (Menagerie's; a ~1/15 block would be coarser):
//             downscale to ceil(side/block) with an averaging kernel, then nearest-neighbour upscale
//  circle     cover-resize to 512x512 (bilinear, like Menagerie's) + composite 'dest-in' with an
//             anti-aliased SVG circle mask (rasterised once at start-up and kept as raw pixels)
//
// Animated avatars (`animated: true` pipelines; this copy's addition to the shared peer): an avatar
// with more than one page is decoded with { animated: true } and kept as raw pages (one tall image,
// pageHeight, delays, loop). Every request then runs the op over all pages (resize and the circle
// mask per page: the mask is tiled down the pages) and writes an animated GIF with sharp's default
// GIF settings (libimagequant palettes, Floyd-Steinberg dither 1.0, palette reuse), keeping the delays
// and the loop count.
//
// Usage: node sharp_server.js --port 18122 [--workers 2] [--concurrency 1] [--level 6] [--adaptive 0]
'use strict';
const cluster = require('node:cluster');
const http = require('node:http');
const os = require('node:os');

function arg(name, def) {
  const i = process.argv.indexOf('--' + name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : def;
}
const PORT = parseInt(arg('port', '18122'), 10);
const HOST = arg('host', '127.0.0.1');
const WORKERS = parseInt(arg('workers', String(os.availableParallelism ? os.availableParallelism() : 2)), 10);
const CONCURRENCY = parseInt(arg('concurrency', '1'), 10);
const LEVEL = parseInt(arg('level', '6'), 10);
const ADAPTIVE = arg('adaptive', '0') === '1';
const BLUR_PRECISION = arg('blur-precision', 'integer');
const MAX_BYTES = 8 * 1024 * 1024;

if (cluster.isPrimary && WORKERS > 1) {
  for (let i = 0; i < WORKERS; i++) cluster.fork();
  const stop = () => {
    for (const w of Object.values(cluster.workers)) w.process.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  console.log(`primary ${process.pid}: ${WORKERS} workers on ${HOST}:${PORT}`);
} else {
  worker();
}

function worker() {
  const sharp = require('sharp');
  sharp.cache(false);
  if (CONCURRENCY > 0) sharp.concurrency(CONCURRENCY);

  const CIRCLE = 512;
  const circleMask = sharp(Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CIRCLE}" height="${CIRCLE}">` +
    `<circle cx="${CIRCLE / 2}" cy="${CIRCLE / 2}" r="${CIRCLE / 2}" fill="#fff"/></svg>`))
    .ensureAlpha().raw().toBuffer(); // promise of the rasterised mask, RGBA

  const avatars = new Map(); // url -> Promise<{data, width, height, opaque}>

  function fetchBytes(url) {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { timeout: 5000 }, (res) => {
        if (res.statusCode !== 200) { res.resume(); return reject(new Error(`avatar HTTP ${res.statusCode}`)); }
        const parts = []; let n = 0;
        res.on('data', (d) => { n += d.length; if (n > MAX_BYTES) req.destroy(new Error('avatar too large')); else parts.push(d); });
        res.on('end', () => resolve(Buffer.concat(parts)));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('avatar timeout')));
      req.on('error', reject);
    });
  }

  async function loadAvatar(url) {
    const bytes = await fetchBytes(url);
    const meta = await sharp(bytes).metadata();
    const animated = (meta.pages || 1) > 1;
    const { data, info } = await sharp(bytes, { animated }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    let opaque = true;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) { opaque = false; break; }
    const pageHeight = animated ? (info.pageHeight || meta.pageHeight) : info.height;
    return { data, width: info.width, height: info.height, opaque, animated, pageHeight,
      delay: meta.delay, loop: meta.loop ?? 0 };
  }

  function avatar(url) {
    let p = avatars.get(url);
    if (!p) {
      p = loadAvatar(url);
      avatars.set(url, p);
      p.catch(() => avatars.delete(url));
    }
    return p;
  }

  function hex(s, def) {
    if (!s) return def;
    const m = /^#?([0-9a-fA-F]{6})$/.exec(s.trim());
    if (!m) throw new RangeError('colour must be RRGGBB hex');
    const v = parseInt(m[1], 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  function num(s, def, lo, hi, name) {
    if (s == null || s === '') return def;
    const v = Number(s);
    if (!Number.isFinite(v) || v < lo || v > hi) throw new RangeError(`${name} must be ${lo}-${hi}`);
    return v;
  }

  const SEPIA = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]];

  async function render(op, q, av) {
    const { width: w, height: h } = av;
    const raw = { raw: { width: w, height: h, channels: 4 } };
    if (av.animated) raw.raw.pageHeight = av.pageHeight;
    let img = sharp(av.data, raw);
    if (av.opaque) img = img.removeAlpha();
    const colourBands = (k) => [k[0], k[1], k[2]];
    switch (op) {
      case 'greyscale': img = img.greyscale().toColourspace('b-w'); break;
      case 'invert': img = img.negate({ alpha: false }); break;
      case 'threshold': img = img.threshold(num(q.get('t') ?? q.get('threshold'), 128, 0, 255, 't')).toColourspace('b-w'); break;
      case 'color': case 'tint': {
        const c = hex(q.get('c') ?? q.get('color'), [0x58, 0x65, 0xf2]);
        img = img.linear(colourBands(c.map((x) => x / 255)), [0, 0, 0]);
        break;
      }
      case 'brightness': {
        const fm = q.get('brightness');
        const f = fm != null && fm !== '' ? num(fm, 1.5, 0, 5, 'brightness') : 1 + num(q.get('b'), 25, 0, 100, 'b') / 50;
        img = img.linear([f, f, f], [0, 0, 0]);
        break;
      }
      case 'blur': img = img.blur({ sigma: Math.max(1, Math.min(w, h) / 100), precision: BLUR_PRECISION }); break;
      case 'sepia': img = img.recomb(SEPIA); break;
      case 'pixelate': {
        const block = Math.max(2, Math.floor(Math.min(w, h) / 32));
        const sw = Math.ceil(w / block), sh = Math.ceil(h / block);
        const small = await img.resize(sw, sh, { fit: 'fill', kernel: 'linear' }).raw().toBuffer({ resolveWithObject: true });
        img = sharp(small.data, { raw: small.info }).resize(w, h, { fit: 'fill', kernel: 'nearest' });
        break;
      }
      case 'circle': {
        const mask = await circleMask;
        if (av.opaque) img = img.ensureAlpha();
        if (av.animated) {
          // sharp resizes a raw multi-page image as one tall image: scale the square pages as a
          // strip (exact for square avatars, as in this benchmark), then mask every page.
          const pages = h / av.pageHeight;
          const strip = await img.resize(CIRCLE, CIRCLE * pages, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
          img = sharp(strip, { raw: { width: CIRCLE, height: CIRCLE * pages, channels: 4, pageHeight: CIRCLE } })
            .composite([{ input: mask, raw: { width: CIRCLE, height: CIRCLE, channels: 4 }, blend: 'dest-in', tile: true }]);
          break;
        }
        img = img.resize(CIRCLE, CIRCLE, { fit: 'cover', kernel: 'linear' })
          .composite([{ input: mask, raw: { width: CIRCLE, height: CIRCLE, channels: 4 }, blend: 'dest-in' }]);
        break;
      }
      default: return null;
    }
    if (av.animated) return img.gif({ delay: av.delay, loop: av.loop }).toBuffer();
    return img.png({ compressionLevel: LEVEL, adaptiveFiltering: ADAPTIVE }).toBuffer();
  }

  function send(res, code, body, type) {
    res.writeHead(code, { 'Content-Type': type, 'Content-Length': body.length });
    res.end(body);
  }

  const server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url, 'http://x');
      const parts = u.pathname.split('/').filter(Boolean);
      if (parts.length !== 2 || parts[0] !== 'filter') return send(res, 404, Buffer.from('not found\n'), 'text/plain');
      const url = u.searchParams.get('avatar') || '';
      let host;
      try { host = new URL(url).hostname; } catch { host = ''; }
      if (host !== '127.0.0.1' && host !== 'localhost') return send(res, 400, Buffer.from('avatar must be a loopback URL\n'), 'text/plain');
      const av = await avatar(url);
      const out = await render(parts[1], u.searchParams, av);
      if (!out) return send(res, 404, Buffer.from('unknown op\n'), 'text/plain');
      send(res, 200, out, av.animated ? 'image/gif' : 'image/png');
    } catch (e) {
      send(res, e instanceof RangeError ? 400 : 502, Buffer.from(`${e.name}: ${e.message}\n`), 'text/plain');
    }
  });
  server.keepAliveTimeout = 65000;
  server.listen(PORT, HOST, () => console.log(`worker ${process.pid}: listening on ${HOST}:${PORT} concurrency=${sharp.concurrency()} level=${LEVEL} adaptive=${ADAPTIVE}`));
}
