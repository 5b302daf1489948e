// Writes avatars/anim_128x60.gif: a 128x128, 60-frame animated GIF (40 ms a frame,
// looping) that pans and zooms over the shared synthetic avatar, encoded by sharp
// (libvips + libimagequant), i.e. a GIF as chat apps serve them: <= 256 colours a frame.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const sharp = require('sharp');

const SRC = process.argv[2] || path.join(__dirname, '../../../../../../shared/bench/avatars/avatar_512.png');
const OUT = path.join(__dirname, 'avatars', 'anim_128x60.gif');
const SIZE = 128, FRAMES = 60;

(async () => {
  const { data, info } = await sharp(SRC).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const frames = [];
  for (let k = 0; k < FRAMES; k++) {
    const t = k / FRAMES;
    const side = Math.round(info.width * (0.6 + 0.3 * Math.sin(2 * Math.PI * t)));
    const left = Math.round((info.width - side) * (0.5 + 0.5 * Math.cos(2 * Math.PI * t)));
    const top = Math.round((info.height - side) * (0.5 + 0.5 * Math.sin(2 * Math.PI * t)));
    frames.push(await sharp(data, { raw: info })
      .extract({ left, top, width: side, height: side })
      .resize(SIZE, SIZE, { kernel: 'lanczos3' })
      .raw().toBuffer());
  }
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  await sharp(Buffer.concat(frames), { raw: { width: SIZE, height: SIZE * FRAMES, channels: 4, pageHeight: SIZE } })
    .gif({ delay: Array(FRAMES).fill(40), loop: 0 })
    .toFile(OUT);
  console.log(`${OUT}: ${fs.statSync(OUT).size} bytes`);
})();
