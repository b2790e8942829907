// Photos of a report and of its comparables (docs/api.md "Photos") on the real stack: uploads over REST multipart and
// GraphQL multipart requests, the files served under a share link read back with sharp (no EXIF, no GPS, the
// rendition widths), every refusal, permissions, teams, ordering and the share page's gallery.
process.env.RATE_LIMIT_ANONYMOUS = "400"; // the share pages' budget per client address
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import request from "supertest";
import { prisma } from "../src/db";
import { addKey, createTeam, errorOf, type TestApp, type TestTeam } from "./support/app";
import { expectDocumented, restClient } from "./support/openapi";
import { teamApp, type RestClient } from "./support/team-app";
import { pdfText } from "./support/pdf-text";

let t: TestApp, team: TestTeam, api: RestClient;
beforeAll(async () => ({ t, team, api } = await teamApp()));
afterAll(() => t.close());

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

async function newReport(client = api, body: Record<string, unknown> = {}): Promise<string> {
  const res = await client.post("/v1/reports", { address: "7 Photo Lane", city: "Springfield", price: 500000, ...body });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** A JPEG as a phone writes one: turned by its EXIF orientation (6: a quarter clockwise) and carrying a GPS position. */
const phoneJpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    // IFD3 is the GPS block: a position (51°30'32.3"N) and its datum.
    .withExif({ IFD0: { Make: "PhoneMaker", Model: "Phone 9" }, IFD3: { GPSMapDatum: "WGS-84", GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 3230/100" } })
    .toBuffer();
const smallPng = (alpha = false) =>
  sharp({ create: { width: 64, height: 48, channels: alpha ? 4 : 3, background: alpha ? { r: 0, g: 0, b: 0, alpha: 0.5 } : { r: 200, g: 60, b: 60 } } }).png().toBuffer();

/** A PNG whose header says width × height, with a few rows of pixel data: a decompression bomb's shape. */
function pngDeclaring(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = deflateSync(Buffer.alloc(4 * (1 + width * 3)));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", rows), chunk("IEND", Buffer.alloc(0))]);
}

/** A 1×1 GIF of two frames (black, then white): an animation. */
function animatedGif(): Buffer {
  const frame = (code: number) => Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, code, 0x01, 0x00]);
  return Buffer.concat([
    Buffer.from("GIF89a", "latin1"),
    Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]),
    Buffer.from([0x21, 0xff, 0x0b]),
    Buffer.from("NETSCAPE2.0", "latin1"),
    Buffer.from([3, 1, 0, 0, 0]),
    frame(0x44),
    frame(0x4c),
    Buffer.from([0x3b]),
  ]);
}

interface Upload {
  file?: Buffer;
  filename?: string;
  /** null: no alt part. */
  alt?: string | null;
  position?: string;
}
/** POST …/photos as multipart/form-data (the answer checked against the OpenAPI document). */
async function upload(path: string, { file, filename = "photo.jpg", alt = "The house from the street", position }: Upload, auth: Record<string, string> = team.auth) {
  let req = request(t.app).post(path).set(auth);
  if (alt !== null) req = req.field("alt", alt);
  if (position !== undefined) req = req.field("position", position);
  if (file) req = req.attach("file", file, filename);
  return expectDocumented(await req);
}

async function share(reportId: string): Promise<{ id: string; token: string }> {
  const res = await api.post(`/v1/reports/${reportId}/share-links`, {});
  expect(res.status).toBe(201);
  return res.body.data;
}

/** The src and srcset URLs of the page's <img> elements, resolved against the page's path. */
function imagesOf(html: string): Array<{ src: string; srcset: string; alt: string; lazy: boolean }> {
  return [...html.matchAll(/<img ([^>]*)>/g)].map(([, attrs]) => {
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? "";
    return { src: attr("src"), srcset: attr("srcset"), alt: attr("alt"), lazy: /loading="lazy"/.test(attrs) };
  });
}

describe("uploading a phone photo", () => {
  it("stores it upright, re-encoded at 480, 960 and 1600 wide, and serves files without EXIF or GPS under the share link", async () => {
    const reportId = await newReport();
    const original = await phoneJpeg(2400, 1600);
    const before = await sharp(original).metadata();
    expect(before.exif?.includes("WGS-84")).toBe(true); // the fixture does carry a GPS block
    expect(original.includes("PhoneMaker")).toBe(true);
    expect(before.orientation).toBe(6);

    const res = await upload(`/v1/reports/${reportId}/photos`, { file: original, alt: "Front of the house" });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe("Photo uploaded");
    const photo = res.body.data;
    expect(photo).toMatchObject({ report_id: reportId, comparable_id: null, position: 0, cover: true, alt: "Front of the house", width: 1600, height: 2400, content_type: "image/jpeg", widths: [480, 960, 1600] });

    const { token } = await share(reportId);
    const page = await request(t.app).get(`/r/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toMatch(/img-src 'self';/);
    const [cover] = imagesOf(page.text);
    expect(cover.alt).toBe("Front of the house");
    expect(cover.srcset.split(", ").map((entry) => entry.split(" ")[1])).toEqual(["480w", "960w", "1600w"]);
    // A texted link previews with the cover: its widest file by its full URL, on the host the page was asked of.
    const preview = /<meta property="og:image" content="([^"]+)"><meta property="og:image:alt" content="Front of the house">/.exec(page.text);
    expect(preview?.[1]).toBe(`${new URL(page.request.url).origin}/r/${token}/photos/${photo.id}-1600.jpg`);

    for (const width of [480, 960, 1600]) {
      const url = `/r/${token}/photos/${photo.id}-${width}.jpg`;
      expect(cover.srcset).toContain(`${token}/photos/${photo.id}-${width}.jpg ${width}w`);
      const file = await request(t.app).get(url).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      });
      expect(file.status).toBe(200);
      expect(file.headers["content-type"]).toBe("image/jpeg");
      expect(file.headers["cache-control"]).toBe("private, max-age=600");
      const bytes = file.body as Buffer;
      const served = await sharp(bytes).metadata();
      expect(served.format).toBe("jpeg");
      expect([served.width, served.height]).toEqual([width, width * 1.5]);
      expect(served.exif).toBeUndefined();
      expect(served.xmp).toBeUndefined();
      expect(served.icc).toBeUndefined();
      expect(served.orientation).toBeUndefined();
      expect(bytes.includes("WGS-84")).toBe(false);
      expect(bytes.includes("PhoneMaker")).toBe(false);
      // A client holding it revalidates; the link is checked again.
      const again = await request(t.app).get(url).set("If-None-Match", String(file.headers.etag));
      expect(again.status).toBe(304);
    }
    // No width that was not made, no other extension.
    expect((await request(t.app).get(`/r/${token}/photos/${photo.id}-2400.jpg`)).status).toBe(404);
    expect((await request(t.app).get(`/r/${token}/photos/${photo.id}-480.webp`)).status).toBe(404);
  });

  it("never enlarges: a small image keeps its own width as its only rendition; transparency is kept as WebP", async () => {
    const reportId = await newReport();
    const res = await upload(`/v1/reports/${reportId}/photos`, { file: await smallPng(), filename: "small.png" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ width: 64, height: 48, widths: [64], content_type: "image/jpeg" });
    const clear = await upload(`/v1/reports/${reportId}/photos`, { file: await smallPng(true), filename: "clear.png" });
    expect(clear.body.data).toMatchObject({ widths: [64], content_type: "image/webp", position: 1, cover: false });
    const { token } = await share(reportId);
    const file = await request(t.app).get(`/r/${token}/photos/${clear.body.data.id}-64.webp`);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("image/webp");
  });
});

describe("refusals, each a 400 naming the problem", () => {
  let reportId: string;
  let path: string;
  beforeAll(async () => {
    reportId = await newReport();
    path = `/v1/reports/${reportId}/photos`;
  });

  it.each([
    ["a text file", () => Buffer.from("just some words, not a picture"), "file must be a JPEG, PNG or WebP image"],
    ["an SVG", () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), "file must be a JPEG, PNG or WebP image"],
    ["an animated GIF", animatedGif, "file must be a JPEG, PNG or WebP image"],
    ["an animated WebP", () => sharp(animatedGif(), { animated: true }).webp({ loop: 0 }).toBuffer(), "file must not be animated"],
    ["a PNG declaring 10,000 × 10,000 pixels", () => pngDeclaring(10_000, 10_000), "file must be at most 50 megapixels"],
    ["a PNG declaring 7,072 × 7,072 pixels (just over 50 megapixels)", () => pngDeclaring(7072, 7072), "file must be at most 50 megapixels"],
    ["a truncated JPEG", async () => (await phoneJpeg(800, 600)).subarray(0, 400), "file could not be read as an image (damaged or incomplete)"],
    ["an empty file", () => Buffer.alloc(0), "file must not be empty"],
  ])("%s", async (_name, make, message) => {
    const res = await upload(path, { file: await make() });
    expect(errorOf(res)).toEqual({ status: 400, message });
  });

  it("more than 25 MB, and a body past its bound", async () => {
    const jpeg = await phoneJpeg(100, 100);
    const over = Buffer.concat([jpeg, Buffer.alloc(25 * 1024 * 1024 + 1 - jpeg.length)]);
    expect(errorOf(await upload(path, { file: over }))).toEqual({ status: 400, message: "file must be at most 25 MB (26,214,400 bytes)" });
    const huge = Buffer.alloc(27 * 1024 * 1024);
    expect(errorOf(await upload(path, { file: huge }))).toEqual({ status: 400, message: "Request body is larger than 26 MiB: a photo may be at most 25 MB" });
  });

  it("a missing file or alt, a bad position, a body that is not multipart", async () => {
    const file = await smallPng();
    expect(errorOf(await upload(path, {}))).toEqual({ status: 400, message: "file is required: the image as the multipart part named file" });
    expect(errorOf(await upload(path, { file, alt: null }))).toEqual({ status: 400, message: "alt is required: the photo's alternative text" });
    expect(errorOf(await upload(path, { file, alt: "   " }))).toEqual({ status: 400, message: "alt must not be empty" });
    expect(errorOf(await upload(path, { file, position: "first" }))).toEqual({ status: 400, message: "position must be an integer" });
    expect(errorOf(await upload(path, { file, position: "40" }))).toEqual({ status: 400, message: "position must be 0 to 39" });
    const json = await request(t.app).post(path).set(team.auth).send({ alt: "x" });
    expect(errorOf(json)).toEqual({ status: 415, message: "Unsupported Content-Type; send multipart/form-data" });
    const broken = await request(t.app).post(path).set(team.auth).set("Content-Type", "multipart/form-data; boundary=zzz").send("--zzz\r\nnot a part");
    expect(errorOf(broken)).toEqual({ status: 400, message: "Request body is not valid multipart/form-data" });
    expect((await api.get(path)).body.data).toEqual([]);
  });

  it("more than 40 photos per report, its comparables' included", async () => {
    const id = await newReport();
    const comparable = await api.post(`/v1/reports/${id}/comparables`, { address: "9 Next Door" });
    // 39 rows straight in the database (the files are not needed to count), 10 of them the comparable's.
    await prisma.photo.createMany({
      data: Array.from({ length: 39 }, (_, i) => ({
        teamId: team.teamId,
        reportId: id,
        comparableId: i < 10 ? comparable.body.data.id : null,
        position: i < 10 ? i : i - 10,
        alt: `Photo ${i}`,
        width: 64,
        height: 48,
        contentType: "image/jpeg",
        widths: [64],
      })),
    });
    const file = await smallPng();
    expect((await upload(`/v1/reports/${id}/comparables/${comparable.body.data.id}/photos`, { file })).status).toBe(201);
    expect(errorOf(await upload(`/v1/reports/${id}/photos`, { file }))).toEqual({
      status: 400,
      message: "A report holds at most 40 photos (its comparables' included); delete one first",
    });
  });
});

describe("permissions and teams", () => {
  it("uploading, changing and deleting need reports:update; listing reports:read", async () => {
    const reportId = await newReport();
    const made = await upload(`/v1/reports/${reportId}/photos`, { file: await smallPng() });
    const reader = await addKey(team.teamId, "reports:read");
    expect(errorOf(await upload(`/v1/reports/${reportId}/photos`, { file: await smallPng() }, reader))).toEqual({ status: 403, message: "Permission denied: reports:update" });
    const readerApi = restClient(t.app, reader);
    expect(errorOf(await readerApi.patch(`/v1/reports/${reportId}/photos/${made.body.data.id}`, { alt: "New" }))).toEqual({ status: 403, message: "Permission denied: reports:update" });
    expect(errorOf(await readerApi.delete(`/v1/reports/${reportId}/photos/${made.body.data.id}`))).toEqual({ status: 403, message: "Permission denied: reports:update" });
    expect((await readerApi.get(`/v1/reports/${reportId}/photos`)).body.data).toHaveLength(1);
    const nobody = restClient(t.app, await addKey(team.teamId, "showings:read"));
    expect(errorOf(await nobody.get(`/v1/reports/${reportId}/photos`))).toEqual({ status: 403, message: "Permission denied: reports:read" });
  });

  it("another team's report, comparable and photo are not found", async () => {
    const reportId = await newReport();
    const comparable = await api.post(`/v1/reports/${reportId}/comparables`, { address: "3 Side St" });
    const comparableId = comparable.body.data.id;
    const photoId = (await upload(`/v1/reports/${reportId}/photos`, { file: await smallPng() })).body.data.id;
    const other = await createTeam();
    const otherApi = restClient(t.app, other.auth);
    const file = await smallPng();
    expect(errorOf(await otherApi.get(`/v1/reports/${reportId}/photos`))).toEqual({ status: 404, message: "Report not found" });
    expect(errorOf(await upload(`/v1/reports/${reportId}/photos`, { file }, other.auth))).toEqual({ status: 404, message: "Report not found" });
    expect(errorOf(await otherApi.patch(`/v1/reports/${reportId}/photos/${photoId}`, { alt: "Mine now" }))).toEqual({ status: 404, message: "Report not found" });
    expect(errorOf(await otherApi.delete(`/v1/reports/${reportId}/photos/${photoId}`))).toEqual({ status: 404, message: "Report not found" });
    expect(errorOf(await otherApi.get(`/v1/reports/${reportId}/comparables/${comparableId}/photos`))).toEqual({ status: 404, message: "Report not found" });
    // Its own report with the first team's comparable or photo: not found either.
    const own = await newReport(otherApi);
    expect(errorOf(await otherApi.get(`/v1/reports/${own}/comparables/${comparableId}/photos`))).toEqual({ status: 404, message: "Comparable not found" });
    expect(errorOf(await otherApi.patch(`/v1/reports/${own}/photos/${photoId}`, { alt: "Mine now" }))).toEqual({ status: 404, message: "Photo not found" });
    expect(errorOf(await api.patch(`/v1/reports/${reportId}/photos/${UNKNOWN}`, { alt: "x" }))).toEqual({ status: 404, message: "Photo not found" });
    expect((await api.get(`/v1/reports/${reportId}/photos`)).body.data[0].alt).toBe("The house from the street");
  });
});

describe("a photo's image for a key", () => {
  const image = (path: string, auth = team.auth) =>
    request(t.app).get(path).set(auth).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done(null, Buffer.concat(chunks)));
    });

  it("answers the rendition nearest the width asked for, to a key that may read the report; nothing to others", async () => {
    const reportId = await newReport();
    const jpeg = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: { r: 90, g: 90, b: 90 } } }).jpeg().toBuffer();
    const made = (await upload(`/v1/reports/${reportId}/photos`, { file: jpeg })).body.data;
    expect(made.widths).toEqual([480, 960, 1600]);
    for (const [query, width] of [["", 480], ["?width=100", 480], ["?width=481", 960], ["?width=1600", 1600], ["?width=4000", 1600]] as const) {
      const res = await image(`/v1/reports/${reportId}/photos/${made.id}/image${query}`);
      expect([res.status, res.headers["content-type"], res.headers["cache-control"]]).toEqual([200, "image/jpeg", "private, max-age=600"]);
      expect((await sharp(res.body as Buffer).metadata()).width).toBe(width);
    }
    const reader = await addKey(team.teamId, "reports:read");
    expect((await image(`/v1/reports/${reportId}/photos/${made.id}/image`, reader)).status).toBe(200);
    const refused = (path: string, auth = team.auth) => request(t.app).get(path).set(auth);
    expect(errorOf(await refused(`/v1/reports/${reportId}/photos/${made.id}/image`, await addKey(team.teamId, "showings:read")))).toEqual({ status: 403, message: "Permission denied: reports:read" });
    expect(errorOf(await refused(`/v1/reports/${reportId}/photos/${made.id}/image`, (await createTeam()).auth))).toEqual({ status: 404, message: "Report not found" });
    expect(errorOf(await refused(`/v1/reports/${reportId}/photos/${UNKNOWN}/image`))).toEqual({ status: 404, message: "Photo not found" });
    expect(errorOf(await refused(`/v1/reports/${reportId}/photos/${made.id}/image?width=wide`))).toEqual({ status: 400, message: "width must be an integer" });
    expect(errorOf(await refused(`/v1/reports/${reportId}/photos/${made.id}/image?width=0`))).toEqual({ status: 400, message: "width must be from 1 to 10000" });
    // A comparable's photo under its own gallery only.
    const comparableId = (await api.post(`/v1/reports/${reportId}/comparables`, { address: "5 Image Ct" })).body.data.id;
    const theirs = (await upload(`/v1/reports/${reportId}/comparables/${comparableId}/photos`, { file: await smallPng() })).body.data;
    expect((await image(`/v1/reports/${reportId}/comparables/${comparableId}/photos/${theirs.id}/image`)).status).toBe(200);
    expect(errorOf(await refused(`/v1/reports/${reportId}/photos/${theirs.id}/image`))).toEqual({ status: 404, message: "Photo not found" });
  });
});

describe("order and cover", () => {
  it("inserts at a position, moves one to the front (the new cover), and closes the gap of a deleted one", async () => {
    const reportId = await newReport();
    const path = `/v1/reports/${reportId}/photos`;
    const file = await smallPng();
    const a = (await upload(path, { file, alt: "A" })).body.data.id;
    const b = (await upload(path, { file, alt: "B" })).body.data.id;
    const c = (await upload(path, { file, alt: "C", position: "0" })).body.data.id; // C, A, B
    const order = async () => (await api.get(path)).body.data.map((p: { alt: string; position: number; cover: boolean }) => `${p.position}:${p.alt}${p.cover ? "*" : ""}`);
    expect(await order()).toEqual(["0:C*", "1:A", "2:B"]);

    const moved = await api.patch(`${path}/${b}`, { position: 0, alt: "B, the garden" });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ message: "Photo updated", data: { id: b, position: 0, cover: true, alt: "B, the garden" } });
    expect(await order()).toEqual(["0:B, the garden*", "1:C", "2:A"]);
    expect((await api.patch(`${path}/${c}`, { position: 39 })).body.data.position).toBe(2); // past the last: the last
    expect(await order()).toEqual(["0:B, the garden*", "1:A", "2:C"]);
    expect(errorOf(await api.patch(`${path}/${a}`, { position: -1 }))).toEqual({ status: 400, message: "position must be 0 to 39" });
    expect(errorOf(await api.patch(`${path}/${a}`, { alt: "" }))).toEqual({ status: 400, message: "alt must not be empty" });

    const gone = await api.delete(`${path}/${b}`);
    expect(gone.body).toEqual({ message: "Photo deleted" });
    expect(await order()).toEqual(["0:A*", "1:C"]);
    expect(await prisma.photoFile.count({ where: { photoId: b } })).toBe(0);
    expect(errorOf(await api.delete(`${path}/${b}`))).toEqual({ status: 404, message: "Photo not found" });

    // The page: the cover first (loaded at once), the others in the gallery, lazily.
    const { token } = await share(reportId);
    const images = imagesOf((await request(t.app).get(`/r/${token}`)).text);
    expect(images.map((i) => [i.alt, i.lazy])).toEqual([
      ["A", false],
      ["C", true],
    ]);
  });

  it("a comparable's photos are its own gallery; its cover shows in its row of the page and under the PDF's table, only while the report shows comparables", async () => {
    const reportId = await newReport();
    const comparableId = (await api.post(`/v1/reports/${reportId}/comparables`, { address: "5 Sold St" })).body.data.id;
    const base = `/v1/reports/${reportId}/comparables/${comparableId}/photos`;
    const made = await upload(base, { file: await smallPng(), alt: "5 Sold St from the street" });
    expect(made.body.data).toMatchObject({ comparable_id: comparableId, position: 0, cover: true });
    expect((await api.get(base)).body.data).toHaveLength(1);
    expect((await api.get(`/v1/reports/${reportId}/photos`)).body.data).toEqual([]);
    // Not through the report's own path.
    expect(errorOf(await api.patch(`/v1/reports/${reportId}/photos/${made.body.data.id}`, { alt: "x" }))).toEqual({ status: 404, message: "Photo not found" });
    expect((await api.patch(`${base}/${made.body.data.id}`, { alt: "Sold in May" })).body.data.alt).toBe("Sold in May");

    const { token } = await share(reportId);
    const url = `/r/${token}/photos/${made.body.data.id}-64.jpg`;
    expect((await request(t.app).get(url)).status).toBe(200);
    const row = (html: string) => html.slice(html.indexOf('<th scope="row" class="address"'), html.indexOf("</th>", html.indexOf('<th scope="row" class="address"')));
    const page = await request(t.app).get(`/r/${token}`);
    expect(row(page.text)).toMatch(new RegExp(`^<th scope="row" class="address" dir="auto"><img class="comp-photo" src="${token}/photos/${made.body.data.id}-64\\.jpg"[^>]* alt="Sold in May"[^>]*>5 Sold St$`));
    expect(page.headers["content-security-policy"]).toContain("img-src 'self'");
    const pdf = await request(t.app).get(`/r/${token}.pdf`).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done(null, Buffer.concat(chunks)));
    });
    expect((pdf.body as Buffer).toString("latin1").match(/\/Subtype \/Image/g)).toHaveLength(1);
    expect((await pdfText(pdf.body as Buffer)).join("\n")).toMatch(/The comparable properties[\s\S]*5 Sold St/);
    await api.patch(`/v1/reports/${reportId}`, { show_comps_on_report: false });
    expect((await request(t.app).get(url)).status).toBe(404);
    const hidden = await request(t.app).get(`/r/${token}`);
    expect(hidden.text).not.toContain(made.body.data.id);
    expect(hidden.headers["content-security-policy"]).toContain("img-src 'none'");
    // Deleting the comparable deletes its photos and their files.
    await api.delete(`/v1/comparables/${comparableId}`);
    expect(await prisma.photo.count({ where: { id: made.body.data.id } })).toBe(0);
    expect(await prisma.photoFile.count({ where: { photoId: made.body.data.id } })).toBe(0);
  });
});

describe("the share link", () => {
  it("a revoked or expired link hides the photos; another report's link does not open them", async () => {
    const reportId = await newReport();
    const photo = (await upload(`/v1/reports/${reportId}/photos`, { file: await smallPng() })).body.data;
    const link = await share(reportId);
    const url = (token: string) => `/r/${token}/photos/${photo.id}-64.jpg`;
    expect((await request(t.app).get(url(link.token))).status).toBe(200);

    const elsewhere = await share(await newReport());
    const other = await request(t.app).get(url(elsewhere.token));
    expect(other.status).toBe(404);
    expect(other.headers["content-type"]).toMatch(/^text\/html/);

    expect((await api.delete(`/v1/reports/${reportId}/share-links/${link.id}`)).status).toBe(200);
    const revoked = await request(t.app).get(url(link.token));
    expect(revoked.status).toBe(404);
    expect(revoked.text).not.toContain(photo.id);
    const cached = await request(t.app).get(url(link.token)).set("If-None-Match", `"${photo.id}-64"`);
    expect(cached.status).toBe(404);

    const expiring = await share(reportId);
    await prisma.shareLink.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await request(t.app).get(url(expiring.token))).status).toBe(404);
  });

  it("a page without photos allows no images at all", async () => {
    const { token } = await share(await newReport());
    const page = await request(t.app).get(`/r/${token}`);
    expect(page.headers["content-security-policy"]).toMatch(/img-src 'none';/);
    expect(imagesOf(page.text)).toEqual([]);
  });
});

describe("the PDF", () => {
  it("draws the cover under the cover band and the other photos in a grid, each with its alt text", async () => {
    const reportId = await newReport();
    const path = `/v1/reports/${reportId}/photos`;
    await upload(path, { file: await phoneJpeg(1200, 800), alt: "Front of the house" });
    await upload(path, { file: await smallPng(), alt: "The kitchen" });
    await upload(path, { file: await smallPng(true), alt: "The floor plan", filename: "plan.png" }); // WebP: drawn as PNG
    const binary = (req: request.Test) =>
      req.buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      });
    const { token } = await share(reportId);
    for (const res of [await binary(request(t.app).get(`/r/${token}.pdf`)), await binary(request(t.app).get(`/v1/reports/${reportId}/pdf`).set(team.auth))]) {
      expect(res.status).toBe(200);
      const bytes = res.body as Buffer;
      expect(bytes.toString("latin1").match(/\/Subtype \/Image/g)?.length).toBeGreaterThanOrEqual(3);
      const text = (await pdfText(bytes)).join("\n");
      for (const words of ["Front of the house", "Photos", "The kitchen", "The floor plan"]) expect(text).toContain(words);
    }
    // Without photos, no image and no Photos heading.
    const { token: bare } = await share(await newReport());
    const plain = await binary(request(t.app).get(`/r/${bare}.pdf`));
    expect((plain.body as Buffer).toString("latin1")).not.toMatch(/\/Subtype \/Image/);
  });
});

describe("GraphQL", () => {
  it("uploads through a GraphQL multipart request and lists the report's photos", async () => {
    const reportId = await newReport();
    const query = `mutation($reportId: ID!, $file: File!, $alt: String!) { uploadPhoto(reportId: $reportId, file: $file, alt: $alt) { id position cover widths contentType } }`;
    const res = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .set("GraphQL-Require-Preflight", "1")
      .field("operations", JSON.stringify({ query, variables: { reportId, file: null, alt: "Living room" } }))
      .field("map", JSON.stringify({ 0: ["variables.file"] }))
      .attach("0", await phoneJpeg(1000, 500), "room.jpg");
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.uploadPhoto).toMatchObject({ position: 0, cover: true, widths: [480, 500], contentType: "image/jpeg" });

    const text = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .field("operations", JSON.stringify({ query, variables: { reportId, file: null, alt: "Text" } }))
      .field("map", JSON.stringify({ 0: ["variables.file"] }))
      .attach("0", Buffer.from("hello"), "note.txt");
    expect(text.body.errors[0]).toMatchObject({ message: "file must be a JPEG, PNG or WebP image", extensions: { code: "BAD_USER_INPUT", field: "file" } });

    const list = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .send({ query: `query($id: ID!) { reportPhotos(reportId: $id) { alt width height cover } }`, variables: { id: reportId } });
    expect(list.body.data.reportPhotos).toEqual([{ alt: "Living room", width: 500, height: 1000, cover: true }]);

    const notAFile = await request(t.app).post("/graphql").set(team.auth).send({ query, variables: { reportId, file: "abc", alt: "x" } });
    expect(notAFile.body.errors[0].message).toMatch(/file/);

    // A multipart body past 26 MiB is refused before Yoga reads it.
    const huge = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .field("operations", JSON.stringify({ query, variables: { reportId, file: null, alt: "Huge" } }))
      .field("map", JSON.stringify({ 0: ["variables.file"] }))
      .attach("0", Buffer.alloc(27 * 1024 * 1024), "huge.jpg");
    expect(huge.status).toBe(413);
  });
});
