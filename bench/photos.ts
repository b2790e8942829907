// A phone-sized photo through the service's image step (src/schema/resources/photo/image.ts: decode, turn upright,
// resize to 480/960/1600, re-encode without metadata), as an upload runs it: the time of one 25-megapixel JPEG and the
// process's peak memory, then 20 at once (sharp works on libuv's thread pool, UV_THREADPOOL_SIZE, default 4).
//   npx tsx bench/photos.ts
import sharp from "sharp";
import { processPhoto } from "../src/schema/resources/photo/image";

/** A 25-megapixel JPEG (6,124 × 4,082) of noise over a gradient, as large as a phone's photo of that size. */
async function phonePhoto(): Promise<Buffer> {
  const [width, height] = [6124, 4082];
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i % (width * 3)) / 24 + Math.random() * 64) & 0xff;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).withExif({ IFD0: { Make: "Phone" } }).toBuffer();
}

/** Runs `work` while sampling the process's resident memory every 5 ms; its time and the peak above the start. */
async function measured<T>(work: () => Promise<T>): Promise<{ ms: number; peakMiB: number; value: T }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, peakMiB: (peak - base) / 2 ** 20, value };
}

async function main(): Promise<void> {
  const photo = await phonePhoto();
  process.stderr.write(`[photos] input: 6124 × 4082 JPEG, ${(photo.length / 2 ** 20).toFixed(1)} MiB\n`);
  await processPhoto(photo); // warm-up (libvips' first use)
  const one = await measured(() => processPhoto(photo));
  const sizes = one.value.renditions.map((r) => `${r.width} px ${(r.bytes.length / 1024).toFixed(0)} KiB`).join(", ");
  const twenty = await measured(() => Promise.all(Array.from({ length: 20 }, () => processPhoto(photo))));
  console.log(
    [
      "| run | time | peak RSS above the start | renditions |",
      "|---|---|---|---|",
      `| one 25-megapixel JPEG | ${one.ms.toFixed(0)} ms | ${one.peakMiB.toFixed(0)} MiB | ${sizes} |`,
      `| 20 at once | ${twenty.ms.toFixed(0)} ms (${(twenty.ms / 20).toFixed(0)} ms each on average) | ${twenty.peakMiB.toFixed(0)} MiB | — |`,
    ].join("\n"),
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
