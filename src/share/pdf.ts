// The report's PDF (docs/api.md "Share links"): the same view as the public page (./view.ts),
// drawn in-process with pdfkit (pure JavaScript: no browser, no network). Text is real text (selectable, searchable),
// the comparables are a table and the valuation range is drawn as a bar. The standard Helvetica fonts carry the
// Windows-1252 characters; others are written as "?" rather than as a wrong glyph. Bidi controls and zero-width
// characters are left out: pdfkit draws text in the order it is stored (it runs no bidi algorithm) and Helvetica has
// no glyph for them, so each could only print as a stray "?" inside a name; without them the PDF reads, and is
// extracted, as the text was written. The page keeps them, isolated (./page.ts).
import type PDFKitDocument from "pdfkit";
import { barScale, type Fact, type NoteView, type ReportView, type ValuationView } from "./view";

type Doc = PDFKit.PDFDocument;
const MARGIN = 48;
const GREY = "#4b5563";
const LINE = "#d1d5db";
/** The list price diamond on the value-range bar (as on the page). */
const LIST_COLOR = "#b45309";

/** What Helvetica's encoding can show: Windows-1252 (Latin-1 and a few more); anything else becomes "?". */
const WIN_ANSI_EXTRA = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";
/** Bidi embeddings, overrides, isolates and marks (U+061C, U+200E-F, U+202A-E, U+2066-9); zero-width characters. */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;
const printable = (text: string): string =>
  text.replace(INVISIBLE, "").replace(/[^\n\t\x20-\x7e\xa0-\xff]/gu, (c) => (WIN_ANSI_EXTRA.includes(c) ? c : "?"));

const width = (doc: Doc) => doc.page.width - 2 * MARGIN;

/** Starts a new page when fewer than `needed` points are left. */
function room(doc: Doc, needed: number): void {
  if (doc.y + needed > doc.page.height - MARGIN) doc.addPage();
}

/** A heading's own height (the space above it, its line and rule, the space under it), in points. */
const HEADING_HEIGHT = 40;

/**
 * A section's heading, kept on one page with the first `keep` points of what follows it (its first facts, lines or
 * the valuation's figure and bar): a heading never stands alone at a page's foot.
 */
function heading(doc: Doc, text: string, color: string, keep = 70): void {
  room(doc, HEADING_HEIGHT + keep);
  doc.moveDown(0.8).font("Helvetica-Bold").fontSize(15).fillColor(color).text(printable(text), MARGIN, doc.y);
  const y = doc.y + 2;
  doc.moveTo(MARGIN, y).lineTo(MARGIN + width(doc), y).lineWidth(1.5).strokeColor(color).stroke();
  doc.moveDown(0.6).fillColor("black").font("Helvetica").fontSize(10.5);
}

/** A heading within a section (bold, no rule), kept on one page with the first `keep` points of what follows it. */
function subheading(doc: Doc, text: string, keep: number): void {
  room(doc, keep);
  doc.font("Helvetica-Bold").fontSize(11).fillColor("black").text(text, MARGIN, doc.y).moveDown(0.3);
}

function paragraphs(doc: Doc, text: string): void {
  for (const p of text.split(/\n{2,}/)) doc.font("Helvetica").fontSize(10.5).fillColor("black").text(printable(p), MARGIN, doc.y, { width: width(doc) }).moveDown(0.5);
}

/** Facts in columns of label over value. */
function facts(doc: Doc, list: Fact[]): void {
  const columns = 4;
  const w = width(doc) / columns;
  for (let i = 0; i < list.length; i += columns) {
    room(doc, 34);
    const y = doc.y;
    list.slice(i, i + columns).forEach((f, j) => {
      doc.font("Helvetica").fontSize(8.5).fillColor(GREY).text(printable(f.label), MARGIN + j * w, y, { width: w - 8 });
      doc.font("Helvetica-Bold").fontSize(11).fillColor("black").text(printable(f.value), MARGIN + j * w, y + 11, { width: w - 8 });
    });
    doc.x = MARGIN;
    doc.y = y + 32;
  }
}

function notes(doc: Doc, list: NoteView[]): void {
  for (const n of list) {
    room(doc, 40);
    if (n.title) doc.font("Helvetica-Bold").fontSize(11).fillColor("black").text(printable(n.title), MARGIN, doc.y).moveDown(0.2);
    paragraphs(doc, n.body);
  }
}

/** The value range: the track, the range over it, a mark at the estimate, a diamond at the list price, then low, high and a legend. */
function rangeBar(doc: Doc, v: ValuationView, barColor: string): void {
  if (v.low === null || v.high === null) return;
  room(doc, 64);
  const y = doc.y + 8;
  const w = width(doc);
  const [x0, span] = [MARGIN + 16, w - 32];
  const s = barScale(v);
  const x = (f: number) => x0 + f * span;
  doc.roundedRect(MARGIN, y, w, 14, 7).fill("#e5e7eb");
  doc.roundedRect(x(s.from), y, x(s.to) - x(s.from), 14, 7).fill(barColor);
  if (s.estimate !== null) doc.rect(x(s.estimate) - 1.5, y - 6, 3, 26).fill("#111111");
  const diamond = (cx: number, cy: number) => doc.polygon([cx, cy - 8], [cx + 6, cy], [cx, cy + 8], [cx - 6, cy]).lineWidth(1.5).fillAndStroke(LIST_COLOR, "#ffffff");
  if (s.list !== null) diamond(x(s.list), y + 7);
  doc.font("Helvetica").fontSize(9.5).fillColor("black");
  doc.text(`Low ${v.low}`, MARGIN, y + 24, { width: w / 2, lineBreak: false });
  doc.text(`High ${v.high}`, MARGIN + w / 2, y + 24, { width: w / 2, align: "right", lineBreak: false });
  let lx = MARGIN;
  const legendY = y + 40;
  if (v.estimate) {
    doc.rect(lx + 4, legendY - 1, 3, 12).fill("#111111");
    doc.fillColor("black").text(`Estimate ${v.estimate}`, lx + 12, legendY, { lineBreak: false });
    lx += 12 + doc.widthOfString(`Estimate ${v.estimate}`) + 24;
  }
  if (v.list) {
    diamond(lx + 5, legendY + 4);
    doc.fillColor("black").text(`List price ${v.list.price}`, lx + 14, legendY, { lineBreak: false });
  }
  doc.x = MARGIN;
  doc.y = legendY + 20;
}

const COLUMNS: Array<{ title: string; key: Exclude<keyof ValuationView["comparables"][number], "used">; width: number }> = [
  { title: "Address", key: "address", width: 100 },
  { title: "Sale price", key: "price", width: 52 },
  { title: "Adjust.", key: "adjustments", width: 46 },
  { title: "Adjusted", key: "adjustedPrice", width: 52 },
  { title: "Sq ft", key: "sqft", width: 34 },
  { title: "$/sq ft", key: "pricePerSqft", width: 40 },
  { title: "Bd / ba", key: "bedsBaths", width: 36 },
  { title: "Dist.", key: "distance", width: 34 },
  { title: "Sold", key: "saleDate", width: 52 },
  { title: "Similar", key: "similarity", width: 36 },
];
/** The last column: whether the valuation uses the comparable. */
const USE_COLUMN = { title: "Used", width: 34 };
const WIDTHS = [...COLUMNS.map((c) => c.width), USE_COLUMN.width];

function tableRow(doc: Doc, cells: string[], bold: boolean): number {
  doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(8);
  const heights = cells.map((c, i) => doc.heightOfString(printable(c), { width: WIDTHS[i] - 6 }));
  return Math.max(...heights) + 8;
}

function comparablesTable(doc: Doc, v: ValuationView, fill: string, onFill: string): void {
  const head = [...COLUMNS.map((c) => c.title), USE_COLUMN.title];
  const draw = (cells: string[], header: boolean) => {
    const h = tableRow(doc, cells, header);
    if (doc.y + h > doc.page.height - MARGIN) {
      doc.addPage();
      if (!header) draw(head, true);
    }
    const y = doc.y;
    if (header) doc.rect(MARGIN, y, width(doc), h).fill(fill);
    let x = MARGIN;
    cells.forEach((cell, i) => {
      doc.font(header ? "Helvetica-Bold" : "Helvetica").fontSize(8).fillColor(header ? onFill : "black");
      doc.text(printable(cell), x + 3, y + 4, { width: WIDTHS[i] - 6 });
      x += WIDTHS[i];
    });
    doc.moveTo(MARGIN, y + h).lineTo(MARGIN + width(doc), y + h).lineWidth(0.5).strokeColor(LINE).stroke();
    doc.x = MARGIN;
    doc.y = y + h;
  };
  // The subheading with the table's head and first row.
  subheading(doc, "Comparable properties", 90);
  draw(head, true);
  for (const c of v.comparables) draw([...COLUMNS.map((col) => c[col.key]), c.used ? "Yes" : "No"], false);
}

function valuation(doc: Doc, view: ReportView, v: ValuationView): void {
  const t = view.theme;
  heading(doc, "Market valuation", t.accent, 110);
  if (v.estimate) doc.font("Helvetica").fontSize(11).text("Estimated value ", { continued: true }).font("Helvetica-Bold").fontSize(16).fillColor(t.accent).text(v.estimate);
  else doc.fillColor(GREY).text("Not enough comparable sales for an estimate.");
  rangeBar(doc, v, t.bar);
  if (v.confidence) doc.font("Helvetica").fontSize(10.5).fillColor("black").text(`Confidence: ${v.confidence}`, MARGIN, doc.y).moveDown(0.3);
  if (v.basis) doc.font("Helvetica").fontSize(9.5).fillColor(GREY).text(v.basis, MARGIN, doc.y).moveDown(0.6);
  if (v.comparables.length) comparablesTable(doc, v, t.secondary, t.onSecondary);
}

/** The band's right column: the brokerage's logo (on a white plate, as logos are drawn for white) over the agent's photo. */
const BRAND_WIDTH = 120;
function brandImages(doc: Doc, logo: PdfPhoto | undefined, agentPhoto: PdfPhoto | undefined): void {
  const x = doc.page.width - MARGIN - BRAND_WIDTH;
  if (logo) {
    doc.rect(x, 14, BRAND_WIDTH, 44).fill("#ffffff");
    doc.image(logo.bytes, x + 4, 18, { fit: [BRAND_WIDTH - 8, 36], align: "center", valign: "center" });
  }
  if (agentPhoto) doc.image(agentPhoto.bytes, x + BRAND_WIDTH - 52, 64, { fit: [52, 52], align: "center", valign: "center" });
}

function cover(doc: Doc, v: ReportView, brand: { logo?: PdfPhoto; agentPhoto?: PdfPhoto }): void {
  const t = v.theme;
  const textWidth = width(doc) - (brand.logo || brand.agentPhoto ? BRAND_WIDTH + 12 : 0);
  doc.rect(0, 0, doc.page.width, 120).fill(t.primary);
  brandImages(doc, brand.logo, brand.agentPhoto);
  doc.fillColor(t.onPrimary).font("Helvetica").fontSize(9).text("PROPERTY REPORT", MARGIN, 34, { characterSpacing: 1 });
  doc.font("Helvetica-Bold").fontSize(22).text(printable(v.title), MARGIN, 50, { width: textWidth, height: 34, ellipsis: true });
  if (v.place) doc.font("Helvetica").fontSize(11).text(printable(v.place), MARGIN, 86, { width: textWidth });
  // The agent, their phone, brokerage and licence, on one line at the band's foot.
  const a = v.agent;
  const agent = [a.name, a.phone, a.brokerage, a.license ? `License ${a.license}` : null].filter(Boolean).join("  ·  ");
  doc.font("Helvetica").fontSize(9.5).text(printable(agent), MARGIN, 103, { width: textWidth, height: 12, ellipsis: true, lineBreak: false });
  doc.x = MARGIN;
  doc.y = 140;
}

/** A photo for the PDF: JPEG or PNG bytes (what pdfkit draws) of a rendition at most 960 px wide, and its alt text. */
export interface PdfPhoto {
  id: string;
  alt: string;
  bytes: Buffer;
  width: number;
  height: number;
}

/** The cover photo under the cover band, the page's width and at most 260 points high. */
function coverPhoto(doc: Doc, photo: PdfPhoto): void {
  const w = width(doc);
  const h = Math.min(260, (w * photo.height) / photo.width);
  doc.image(photo.bytes, MARGIN, doc.y, { fit: [w, h], align: "center" });
  doc.y += h + 6;
  doc.font("Helvetica").fontSize(8.5).fillColor(GREY).text(printable(photo.alt), MARGIN, doc.y, { width: w });
  doc.x = MARGIN;
}

/** Photos two a row, each with its alt text under it as a caption (under a heading the caller draws). */
function photoGrid(doc: Doc, photos: PdfPhoto[]): void {
  const gap = 12;
  const w = (width(doc) - gap) / 2;
  for (let i = 0; i < photos.length; i += 2) {
    const row = photos.slice(i, i + 2);
    const h = Math.min(180, Math.max(...row.map((p) => (w * p.height) / p.width)));
    room(doc, h + 30);
    const y = doc.y;
    row.forEach((p, j) => {
      doc.image(p.bytes, MARGIN + j * (w + gap), y, { fit: [w, h], align: "center" });
      doc.font("Helvetica").fontSize(8.5).fillColor(GREY).text(printable(p.alt), MARGIN + j * (w + gap), y + h + 4, { width: w, height: 22, ellipsis: true });
    });
    doc.x = MARGIN;
    doc.y = y + h + 30;
  }
}

function draw(doc: Doc, v: ReportView, all: PdfPhoto[], comparables: PdfPhoto[]): void {
  const accent = v.theme.accent;
  // The agent's photo and the logo go on the cover band, the others are the property's.
  const brand = { logo: all.find((p) => p.id === v.agent.logoId), agentPhoto: all.find((p) => p.id === v.agent.photoId) };
  const photos = all.filter((p) => p !== brand.logo && p !== brand.agentPhoto);
  cover(doc, v, brand);
  if (photos.length) coverPhoto(doc, photos[0]);
  heading(doc, "The property", accent);
  facts(doc, v.facts);
  if (v.description) paragraphs(doc, v.description);
  if (photos.length > 1) {
    heading(doc, "Photos", accent, 190);
    photoGrid(doc, photos.slice(1));
  }
  if (v.summary) {
    heading(doc, "Executive summary", accent);
    paragraphs(doc, v.summary);
  }
  if (v.valuation) valuation(doc, v, v.valuation);
  if (v.valuation && comparables.length) {
    subheading(doc, "The comparable properties", 190);
    photoGrid(doc, comparables);
  }
  if (v.activity) {
    const a = v.activity;
    heading(doc, "Showing activity", accent);
    facts(doc, [
      { label: "Showings", value: String(a.showings) },
      { label: "Open houses", value: String(a.openHouses) },
      { label: "Visitors", value: String(a.attendees) },
    ]);
    if (a.dates.length) doc.font("Helvetica").fontSize(9.5).fillColor("black").text(a.dates.map((d) => `${d.date}: ${d.kind}`).join("    "), MARGIN, doc.y, { width: width(doc) });
  }
  if (v.social) {
    heading(doc, "Social media reach", accent);
    facts(doc, v.social.totals);
    for (const p of v.social.platforms) doc.font("Helvetica").fontSize(9.5).fillColor("black").text(printable(`${p.platform}: ${p.figures}`), MARGIN, doc.y);
  }
  if (v.insights) {
    heading(doc, "Agent insights", accent);
    notes(doc, v.insights);
  }
  if (v.neighborhood) {
    heading(doc, "The neighborhood", accent);
    notes(doc, v.neighborhood);
  }
  room(doc, 40);
  doc.moveDown(1).font("Helvetica").fontSize(10).fillColor(GREY).text(printable(`Prepared on ${v.prepared} by ${v.agent.name}${v.agent.email ? ` · ${v.agent.email}` : ""}`), MARGIN, doc.y, { width: width(doc) });
}

/**
 * pdfkit, loaded on the first PDF: with its fonts and Unicode tables it takes about 0.25 s of CPU to load, which every
 * process (and every test file) paid at start-up for a route few requests take.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
const pdfDocument = (): typeof PDFKitDocument => require("pdfkit") as typeof PDFKitDocument;

/**
 * Each page's footer, written once every page is drawn (pages are buffered): the address and the day it was made on
 * the left, "Page 2 of 3" on the right, under a rule in the bottom margin. A printed page stays identifiable.
 */
function footers(doc: Doc, v: ReportView): void {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // text in the margin would otherwise start a new page
    const y = doc.page.height - MARGIN + 14;
    const w = width(doc);
    doc.moveTo(MARGIN, y - 6).lineTo(MARGIN + w, y - 6).lineWidth(0.5).strokeColor(LINE).stroke();
    doc.font("Helvetica").fontSize(8).fillColor(GREY);
    doc.text(printable(`${v.title} · Prepared on ${v.prepared}`), MARGIN, y, { width: w * 0.75, height: 10, ellipsis: true, lineBreak: false });
    doc.text(`Page ${i - start + 1} of ${count}`, MARGIN + w * 0.75, y, { width: w * 0.25, align: "right", lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

/**
 * The report's PDF as one buffer; `photos`: the report's own, the first its cover (none: no photo at all);
 * `comparables`: the shown comparables' covers, captioned with their addresses, after the comparables' table.
 */
export function reportPdf(v: ReportView, photos: PdfPhoto[] = [], comparables: PdfPhoto[] = []): Promise<Buffer> {
  const PDFDocument = pdfDocument();
  const doc = new PDFDocument({
    size: "LETTER",
    margin: MARGIN,
    info: { Title: printable(`${v.title}: property report`), Author: printable(v.agent.name), Creator: "Property Report Service" },
    lang: "en-US",
    displayTitle: true,
    bufferPages: true,
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  draw(doc, v, photos, comparables);
  footers(doc, v);
  doc.end();
  return done;
}
