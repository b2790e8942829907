// The client's page with 12 photos as a phone on a slow network opens it, the PDF with 12 photos, and another team's
// latency while 20 photos upload (BENCHMARKS "Photos"):
//   PGLITE_DATA_DIR=memory:// LOG_LEVEL=warn npx tsx bench/share-page.ts
//   DATABASE_URL=postgresql://…/prs_bench_photos LOG_LEVEL=warn npx tsx bench/share-page.ts
// The service runs in this process (on the embedded database, or PostgreSQL), as `npm start` runs it; Chromium is Debian's
// (CHROMIUM_PATH), with 4× CPU slowdown and a throttled network (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up,
// Chrome DevTools' "Fast 3G"). Photos are 12-megapixel JPEGs of noise over a gradient, as heavy as a phone's.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import sharp from "sharp";
import { createTeam, listening, startTestApp } from "../test/support/app";
import { CHROMIUM } from "../test/support/chromium";

const log = (message: string) => process.stderr.write(`[share-page] ${message}\n`);

/** A `width` × `height` JPEG of noise over a gradient (a photo's entropy: it does not compress to nothing). */
async function photo(width: number, height: number, seed: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i % (width * 3)) / 16 + seed * 20 + Math.random() * 48) & 0xff;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 88 }).toBuffer();
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

async function main(): Promise<void> {
  const t = await startTestApp();
  const server = await listening(t.app);
  const agent = await createTeam({ name: "Harbor Homes" });
  const other = await createTeam({ name: "Another Team" });
  const call = (auth: Record<string, string>, path: string, init: RequestInit = {}) => fetch(`${server.base}${path}`, { ...init, headers: { ...auth, ...(init.headers ?? {}) } });
  const json = async (auth: Record<string, string>, method: string, path: string, body: unknown) =>
    (await (await call(auth, path, { method, body: JSON.stringify(body), headers: { "Content-Type": "application/json" } })).json()) as { data: { id: string; token: string } };
  const upload = async (reportId: string, bytes: Buffer, alt: string) => {
    const form = new FormData();
    form.set("alt", alt);
    form.set("file", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "photo.jpg");
    const res = await call(agent.auth, `/v1/reports/${reportId}/photos`, { method: "POST", body: form });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  };

  const report = (await json(agent.auth, "POST", "/v1/reports", { address: "12 Garden Lane", city: "Springfield", state: "IL", price: 700000, beds: 3, baths: 2, sqft: 2000, description: "A bright family home." })).data.id;
  for (const [address, price] of [["14 Garden Lane", 600000], ["3 Oak Avenue", 640000], ["5 Pine Road", 585000]] as const) {
    await json(agent.auth, "POST", `/v1/reports/${report}/comparables`, { address, price, sqft: 2000, sale_date: "2026-06-01T00:00:00Z" });
  }
  log("uploading 12 photos of 4,000 × 3,000");
  const twelve = await Promise.all(Array.from({ length: 12 }, (_, i) => photo(4000, 3000, i)));
  for (const [i, bytes] of twelve.entries()) await upload(report, bytes, `Photo ${i + 1} of the house`);
  const token = (await json(agent.auth, "POST", `/v1/reports/${report}/share-links`, {})).data.token;

  // The page on a phone, slow network, 4× slower CPU: first contentful paint, load, bytes before and after scrolling.
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true })).newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  let bytes = 0;
  let requests = 0;
  cdp.on("Network.loadingFinished", (e: { encodedDataLength: number }) => ((bytes += e.encodedDataLength), requests++));
  const started = performance.now();
  await page.goto(`${server.base}/r/${token}`, { waitUntil: "load" });
  const loadMs = performance.now() - started;
  const paint = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null);
  const atLoad = { bytes, requests };
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  });
  await page.waitForLoadState("networkidle");
  await browser.close();

  // The PDF with 12 photos.
  const pdfStarted = performance.now();
  const pdf = Buffer.from(await (await fetch(`${server.base}/r/${token}.pdf`)).arrayBuffer());
  const pdfMs = performance.now() - pdfStarted;

  // Another team's REST detail, one request at a time: alone, then while the first team uploads 20 photos at once.
  const theirs = (await json(other.auth, "POST", "/v1/reports", { address: "1 Other Street" })).data.id;
  const probe = async (until: () => boolean) => {
    const times: number[] = [];
    while (!until()) {
      const s = performance.now();
      await (await call(other.auth, `/v1/reports/${theirs}`)).arrayBuffer();
      times.push(performance.now() - s);
    }
    return times;
  };
  let n = 0;
  const alone = await probe(() => ++n > 150);
  log("20 uploads at once, another team reading meanwhile");
  // The uploads come from 20 curl processes started by one shell, so that sending them costs this process (the
  // server's) nothing: spawning each from here would block its event loop for tens of milliseconds every time.
  const dir = mkdtempSync(path.join(tmpdir(), "prs-photos-"));
  twelve.forEach((bytes, i) => writeFileSync(path.join(dir, `${i}.jpg`), bytes));
  const curls = Array.from(
    { length: 20 },
    (_, i) => `curl -s -o /dev/null -H "Authorization: $KEY" -F "alt=Upload ${i + 1}" -F "file=@${path.join(dir, `${i % 12}.jpg`)};type=image/jpeg" "$URL" &`,
  );
  let uploading = true;
  const uploadsStarted = performance.now();
  const uploads = new Promise<void>((resolve) =>
    execFile("sh", ["-c", `${curls.join("\n")}\nwait`], { env: { ...process.env, KEY: agent.auth.Authorization, URL: `${server.base}/v1/reports/${report}/photos` } }, () => resolve()),
  ).then(() => (uploading = false));
  const during = await probe(() => !uploading);
  await uploads;
  const uploadsMs = performance.now() - uploadsStarted;
  rmSync(dir, { recursive: true });
  const stored = (await (await call(agent.auth, `/v1/reports/${report}/photos`)).json()) as { data: unknown[] };
  if (stored.data.length !== 32) throw new Error(`expected 32 photos, found ${stored.data.length}`);

  const kib = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
  console.log(
    [
      "| measure | value |",
      "|---|---|",
      `| page, phone (390 px, 3× density), Fast 3G, 4× CPU: first contentful paint | ${paint === null ? "—" : `${paint.toFixed(0)} ms`} |`,
      `| … load event | ${loadMs.toFixed(0)} ms |`,
      `| … bytes at load (requests) | ${kib(atLoad.bytes)} (${atLoad.requests}) |`,
      `| … bytes after scrolling to the end (requests) | ${kib(bytes)} (${requests}) |`,
      `| PDF with 12 photos: time, size | ${pdfMs.toFixed(0)} ms, ${kib(pdf.length)} |`,
      `| another team's REST detail alone: p50 / p99 (${alone.length} requests) | ${percentile(alone, 50).toFixed(1)} / ${percentile(alone, 99).toFixed(1)} ms |`,
      `| … during 20 concurrent uploads (${(uploadsMs / 1000).toFixed(1)} s): p50 / p99 / max (${during.length} requests) | ${percentile(during, 50).toFixed(1)} / ${percentile(during, 99).toFixed(1)} / ${Math.max(...during).toFixed(1)} ms |`,
    ].join("\n"),
  );
  await server.close();
  await t.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
