// The public page of a share link (docs/api.md "Share links"): HTML made on the server from the
// report's view (./view.ts), with no script at all, one inline stylesheet allowed by its hash, nothing loaded from
// anywhere. Every value from the report is HTML-escaped where it is written, and every element holding text a user
// wrote has dir="auto": it is a bidirectional isolate, so right-to-left text and bidi controls in it (an agent name
// holding U+202E) lay out within that element and never reorder the text around it ("Prepared by", the e-mail).
import { createHash } from "node:crypto";
import type { PagePhoto } from "./photos";
import { barScale, type AgentView, type ComparableRow, type Fact, type NoteView, type ReportView, type Theme, type ValuationView } from "./view";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Tagged template: every interpolated value is escaped, except `Html` made by this module. */
class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}
const raw = (text: string) => new Html(text);
function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const part = (v: unknown): string => (v instanceof Html ? v.text : Array.isArray(v) ? v.map(part).join("") : v == null || v === false ? "" : escapeHtml(v));
  return new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? part(values[i]) : ""), ""));
}

function stylesheet(t: Theme): string {
  return `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#111;background:#fff}
.cover{background:${t.primary};color:${t.onPrimary};padding:2rem 1rem}
.cover>*,main,footer{max-width:60rem;margin-left:auto;margin-right:auto}
.kicker{margin-top:0;margin-bottom:0;text-transform:uppercase;letter-spacing:.08em;font-size:.8rem}
h1{margin:.25rem 0;font-size:clamp(1.5rem,5vw,2.4rem);line-height:1.2}
.place{margin-top:0;margin-bottom:0}
.agent{margin-top:.75rem;margin-bottom:0;font-size:.95rem}.agent a{color:inherit}
.brand{display:flex;align-items:center;gap:1rem;margin-top:.75rem;margin-bottom:0}.brand .logo{max-height:3rem;max-width:10rem;width:auto;height:auto;background:#fff;padding:.25rem;border-radius:.25rem}.brand .agent-photo{width:4.5rem;height:4.5rem;object-fit:cover;border-radius:50%}
main{padding:0 1rem}
.hero{margin:0 auto;max-width:60rem}.hero img{display:block;width:100%;height:auto;max-height:34rem;object-fit:cover}
ul.gallery{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.75rem}
ul.gallery img{display:block;width:100%;height:auto;border-radius:.4rem}
section{margin:2rem 0}
h2{color:${t.accent};font-size:1.35rem;border-bottom:2px solid ${t.accent};padding-bottom:.25rem}
h3{font-size:1.05rem;margin:1rem 0 .25rem}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem;margin:0}
.facts div{border:1px solid #d1d5db;border-radius:.4rem;padding:.5rem .75rem}
.facts dt{font-size:.85rem;color:#4b5563}.facts dd{margin:0;font-weight:600;font-size:1.1rem}
.estimate{font-size:1.1rem}.estimate strong{font-size:1.6rem;color:${t.accent}}
.bar{width:100%;height:auto;display:block;margin:.5rem 0}
.bar .track{fill:#e5e7eb}.bar .range{fill:${t.bar}}.mark{fill:#111}.list{fill:#b45309;stroke:#fff;stroke-width:2}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:.25rem 0 0}.key svg{vertical-align:-2px}
.ends{display:flex;justify-content:space-between;gap:1rem;margin:0}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.9rem}
thead th{background:${t.secondary};color:${t.onSecondary};text-align:left}
th,td{padding:.4rem .5rem;border-bottom:1px solid #d1d5db}
td{white-space:nowrap}
tbody th{font-weight:400;text-align:left}
.address{white-space:normal;min-width:10rem}
tr.unused{color:#4b5563}
td.use{font-weight:600}
tr.unused td.use{font-weight:400}
@media (max-width:600px){
  .scroll{overflow:visible}
  table.comps,table.comps tbody,table.comps tr,table.comps th,table.comps td{display:block}
  table.comps thead{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
  table.comps tr{border:1px solid #d1d5db;border-radius:.5rem;margin:0 0 .75rem;padding:.5rem .75rem}
  table.comps tr.used{border-left:.35rem solid ${t.accent}}
  table.comps tbody th{font-weight:600;font-size:1rem;border:0;padding:0 0 .25rem;min-width:0}
  table.comps td{display:flex;justify-content:space-between;gap:1rem;border:0;border-top:1px solid #e5e7eb;padding:.2rem 0;white-space:normal;text-align:right}
  table.comps td::before{content:attr(data-label);color:#4b5563;text-align:left}
}
.muted{color:#4b5563}
.comp-photo{display:block;width:8rem;height:6rem;object-fit:cover;border-radius:.25rem;margin-bottom:.3rem}
.preview-note{margin:0;padding:.75rem 1rem;background:#fff7d6;color:#3d2e00;border-bottom:2px solid #8a6d00}
ul.dates{columns:2 14rem;padding-left:1.2rem}
footer{padding:1.5rem 1rem 3rem;border-top:1px solid #d1d5db}
a{color:${t.accent}}
@media print{
  body{font-size:11pt}
  .cover{-webkit-print-color-adjust:exact;print-color-adjust:exact;padding:1rem}
  th,.bar{-webkit-print-color-adjust:exact;print-color-adjust:exact}
  section{break-inside:avoid-page}
  tr{break-inside:avoid}
  .scroll{overflow:visible}
  a{color:inherit;text-decoration:none}
  .pdf-link{display:none}
}`;
}

const facts = (list: Fact[]) => html`<dl class="facts">${list.map((f) => html`<div><dt>${f.label}</dt><dd dir="auto">${f.value}</dd></div>`)}</dl>`;
const paragraphs = (text: string) => text.split(/\n{2,}/).map((p) => html`<p dir="auto">${p}</p>`);
const notes = (list: NoteView[]) => list.map((n) => html`<article>${n.title ? html`<h3 dir="auto">${n.title}</h3>` : ""}${paragraphs(n.body)}</article>`);
/** Text where no element can isolate it (the document's title): between U+2068 FIRST STRONG and U+2069 POP ISOLATE. */
const isolated = (text: string) => `\u2068${text}\u2069`;

/**
 * The value range as a bar: the range over the track, a bar at the estimate, a diamond at the list price (outside the
 * range when it is), and a legend naming both. Drawn with SVG attributes (no style).
 */
function rangeBar(v: ValuationView): Html {
  if (v.low === null || v.high === null) return raw("");
  const [x0, width] = [20, 560];
  const s = barScale(v);
  const x = (f: number) => Math.round(x0 + f * width);
  const mark = s.estimate === null ? "" : html`<rect class="mark" x="${x(s.estimate) - 2}" y="4" width="4" height="40"/>`;
  const list = s.list === null ? "" : html`<path class="list" d="M${x(s.list)} 2l9 12-9 12-9-12z"/>`;
  const label = `Value range ${v.low} to ${v.high}${v.estimate ? `, estimate ${v.estimate}` : ""}${v.list ? `, list price ${v.list.price}` : ""}`;
  const key = (shape: Html, text: string) => html`<span class="key"><svg viewBox="0 0 20 28" width="12" height="16" aria-hidden="true">${shape}</svg> ${text}</span>`;
  return html`<svg class="bar" viewBox="0 0 600 48" role="img" aria-label="${label}"><rect class="track" x="0" y="14" width="600" height="20" rx="10"/><rect class="range" x="${x(s.from)}" y="14" width="${x(s.to) - x(s.from)}" height="20" rx="10"/>${mark}${list}</svg>
<p class="ends"><span>Low ${v.low}</span><span>High ${v.high}</span></p>
<p class="legend">${v.estimate ? key(raw('<rect class="mark" x="8" y="0" width="4" height="28"/>'), `Estimate ${v.estimate}`) : ""}${v.list ? key(raw('<path class="list" d="M10 2l9 12-9 12-9-12z"/>'), `List price ${v.list.price}`) : ""}</p>`;
}

/** The comparables' columns: heading and cell. On a phone each row is a card whose cells carry their heading (CSS). */
const COMPARABLE_COLUMNS: Array<[string, keyof ComparableRow]> = [
  ["Sale price", "price"],
  ["Adjustments", "adjustments"],
  ["Adjusted price", "adjustedPrice"],
  ["Sq ft", "sqft"],
  ["$/sq ft", "pricePerSqft"],
  ["Beds / baths", "bedsBaths"],
  ["Distance", "distance"],
  ["Sold", "saleDate"],
  ["Similarity", "similarity"],
];

/** A comparable's row: its cover photo (when it has one) above its address, its figures, and whether it is used. */
const comparableRow = (c: ComparableRow, photo: PagePhoto | undefined) =>
  html`<tr class="${c.used ? "used" : "unused"}"><th scope="row" class="address" dir="auto">${
    photo ? html`<img class="comp-photo" src="${photo.src}" srcset="${photo.srcset}" sizes="8rem" alt="${photo.alt}" width="${photo.width}" height="${photo.height}" loading="lazy" decoding="async">` : ""
  }${c.address}</th>${COMPARABLE_COLUMNS.map(
    ([label, key]) => html`<td data-label="${label}">${c[key]}</td>`,
  )}<td data-label="Valuation" class="use">${c.used ? "Used" : "Not used"}</td></tr>`;

function valuationSection(v: ValuationView, photos: Map<string, PagePhoto>): Html {
  const head = ["Address", ...COMPARABLE_COLUMNS.map(([label]) => label), "Valuation"];
  return html`<section aria-labelledby="s-valuation" id="valuation"><h2 id="s-valuation">Market valuation</h2>
${v.estimate ? html`<p class="estimate">Estimated value <strong>${v.estimate}</strong></p>` : html`<p class="muted">Not enough comparable sales for an estimate.</p>`}
${rangeBar(v)}${v.confidence ? html`<p>Confidence: <strong>${v.confidence}</strong></p>` : ""}${v.basis ? html`<p class="muted">${v.basis}</p>` : ""}
${v.comparables.length
    ? html`<h3 id="s-comparables">Comparable properties</h3><div class="scroll" role="region" aria-labelledby="s-comparables" tabindex="0"><table id="comparables" class="comps"><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${v.comparables.map((c) => comparableRow(c, photos.get(c.id)))}</tbody></table></div>`
    : ""}</section>`;
}

/** The brokerage's logo and the agent's photo in the header, when the report names them among its photos. */
function brandImages(b: Branding): Html | "" {
  if (!b.logo && !b.agentPhoto) return "";
  return html`<p class="brand">${b.logo ? html`<img class="logo" src="${b.logo.src}" srcset="${b.logo.srcset}" sizes="10rem" alt="${b.logo.alt}" width="${b.logo.width}" height="${b.logo.height}">` : ""}${
    b.agentPhoto ? html`<img class="agent-photo" src="${b.agentPhoto.src}" srcset="${b.agentPhoto.srcset}" sizes="4.5rem" alt="${b.agentPhoto.alt}" width="${b.agentPhoto.width}" height="${b.agentPhoto.height}">` : ""
  }</p>`;
}

interface Branding {
  agentPhoto?: PagePhoto;
  logo?: PagePhoto;
  /** The report's other photos: the cover and the gallery. */
  gallery: PagePhoto[];
}

/** The page's photos split: the agent's photo and the logo (AgentView.photoId, logoId) apart from the property's. */
const brandingOf = (v: PageInput): Branding => {
  const photos = v.photos ?? [];
  return {
    agentPhoto: photos.find((p) => p.id === v.agent.photoId),
    logo: photos.find((p) => p.id === v.agent.logoId),
    gallery: photos.filter((p) => p.id !== v.agent.photoId && p.id !== v.agent.logoId),
  };
};

/** The header's agent line: the agent, their phone (a tel: link), brokerage and licence, as far as given. */
function agentLine(a: AgentView): Html {
  const parts = [
    html`<strong dir="auto">${a.name}</strong>`,
    a.phone ? (a.phoneHref ? html`<a href="${a.phoneHref}" dir="auto">${a.phone}</a>` : html`<span dir="auto">${a.phone}</span>`) : null,
    a.brokerage ? html`<span dir="auto">${a.brokerage}</span>` : null,
    a.license ? html`<span>License <span dir="auto">${a.license}</span></span>` : null,
  ].filter((p): p is Html => p !== null);
  return html`<p class="agent">${parts.map((p, i) => (i ? html` · ${p}` : p))}</p>`;
}

/** A photo as an <img>: every rendition in srcset, its smallest as src; the cover is loaded at once, the rest lazily. */
const image = (p: PagePhoto, sizes: string, eager = false) =>
  html`<img src="${p.src}" srcset="${p.srcset}" sizes="${sizes}" alt="${p.alt}" width="${p.width}" height="${p.height}" ${raw(eager ? 'fetchpriority="high"' : 'loading="lazy"')} decoding="async">`;

/** The cover (the first photo) under the header, and the others as a gallery section. */
const cover = (photos: PagePhoto[]) => (photos.length ? html`<figure class="hero">${image(photos[0], "(max-width: 60rem) 100vw, 60rem", true)}</figure>` : "");
const gallery = (photos: PagePhoto[]) =>
  photos.length > 1
    ? html`<section aria-labelledby="s-photos" id="photos"><h2 id="s-photos">Photos</h2><ul class="gallery">${photos.slice(1).map((p) => html`<li>${image(p, "(max-width: 40rem) 100vw, 20rem")}</li>`)}</ul></section>`
    : "";

/** The report's page. `pdfHref`: where its PDF is (relative); `origin`: the page's folder as a full URL (`https://host/r/`). */
type PageInput = ReportView & { pdfHref?: string; photos?: PagePhoto[]; comparablePhotos?: Map<string, PagePhoto>; origin?: string; previewUntil?: string };

/** Above a preview (src/schema/resources/share-link/preview.ts): what it is, so it is never mistaken for a sent link. */
const previewNote = (until: string | undefined) =>
  until
    ? html`<p class="preview-note" role="note"><strong>Preview.</strong> This is the page your client will see through a share link. This address is for you alone: it counts no view and stops working at ${until}.</p>`
    : "";

function body(v: PageInput, branding: Branding): Html {
  const a = v.activity;
  return html`${previewNote(v.previewUntil)}<header class="cover"><p class="kicker">Property report</p><h1 dir="auto">${v.title}</h1>${v.place ? html`<p class="place" dir="auto">${v.place}</p>` : ""}${agentLine(v.agent)}${brandImages(branding)}</header>
<main>
${cover(branding.gallery)}
<section aria-labelledby="s-property" id="property"><h2 id="s-property">The property</h2>${facts(v.facts)}${v.description ? paragraphs(v.description) : ""}</section>
${gallery(branding.gallery)}
${v.summary ? html`<section aria-labelledby="s-summary" id="summary"><h2 id="s-summary">Executive summary</h2>${paragraphs(v.summary)}</section>` : ""}
${v.valuation ? valuationSection(v.valuation, v.comparablePhotos ?? new Map()) : ""}
${a
    ? html`<section aria-labelledby="s-activity" id="activity"><h2 id="s-activity">Showing activity</h2>${facts([
        { label: "Showings", value: String(a.showings) },
        { label: "Open houses", value: String(a.openHouses) },
        { label: "Visitors", value: String(a.attendees) },
      ])}${a.dates.length ? html`<ul class="dates">${a.dates.map((d) => html`<li>${d.date}: ${d.kind}</li>`)}</ul>` : ""}</section>`
    : ""}
${v.social ? html`<section aria-labelledby="s-social" id="social"><h2 id="s-social">Social media reach</h2>${facts(v.social.totals)}<ul>${v.social.platforms.map((p) => html`<li><strong dir="auto">${p.platform}</strong>: ${p.figures}</li>`)}</ul></section>` : ""}
${v.insights ? html`<section aria-labelledby="s-insights" id="insights"><h2 id="s-insights">Agent insights</h2>${notes(v.insights)}</section>` : ""}
${v.neighborhood ? html`<section aria-labelledby="s-neighborhood" id="neighborhood"><h2 id="s-neighborhood">The neighborhood</h2>${notes(v.neighborhood)}</section>` : ""}
</main>
<footer><p>Prepared on ${v.prepared} by <strong dir="auto">${v.agent.name}</strong>${v.agent.email ? html` · <a href="mailto:${v.agent.email}" dir="auto">${v.agent.email}</a>` : ""}</p>${v.pdfHref ? html`<p class="muted pdf-link"><a href="${v.pdfHref}">This report as a PDF</a></p>` : ""}</footer>`;
}

export interface Page {
  html: string;
  /** The content security policy allowing exactly the page's stylesheet. */
  policy: string;
}

const hashOf = (css: string) => `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
/** Images only from this service (a report's photos under its link), and only on a page that shows some. */
const policyFor = (css: string, images: boolean) =>
  `default-src 'none'; style-src ${hashOf(css)}; img-src ${images ? "'self'" : "'none'"}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function document(title: string, css: string, content: Html, head: Html = raw(""), images = false): Page {
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
<title>${title}</title>${head}<style>${raw(css)}</style></head>
<body>${content}</body></html>`;
  return { html: page.text, policy: policyFor(css, images) };
}

/**
 * Open Graph tags, so a texted link previews as the property: its address as the title, the place and the agent as
 * the description, and its cover photo (the widest rendition, by its full URL: previews fetch it on their own).
 */
const openGraph = (v: PageInput, cover: PagePhoto | undefined) =>
  html`<meta property="og:type" content="website"><meta property="og:title" content="${v.title}"><meta property="og:description" content="${[v.place, `Property report by ${v.agent.name}`].filter(Boolean).join(" · ")}">${
    cover && v.origin ? html`<meta property="og:image" content="${v.origin}${cover.widest}"><meta property="og:image:alt" content="${cover.alt}">` : ""
  }`;

export function reportPage(v: PageInput): Page {
  const branding = brandingOf(v);
  const images = (v.photos?.length ?? 0) + (v.comparablePhotos?.size ?? 0) > 0;
  return document(`${isolated(v.title)}: property report`, stylesheet(v.theme), body(v, branding), openGraph(v, branding.gallery[0]), images);
}

const PLAIN: Theme = { primary: "#1f3a5f", onPrimary: "#ffffff", secondary: "#e2e8f0", onSecondary: "#000000", accent: "#1f3a5f", bar: "#1f3a5f" };

/** The answer to a token that opens nothing (unknown, expired, revoked), or too many requests: no detail. */
export const messagePage = (title: string, message: string): Page =>
  document(title, stylesheet(PLAIN), html`<header class="cover"><h1>${title}</h1></header><main><p>${message}</p></main>`);
