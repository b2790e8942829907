// What a report's client may see (docs/api.md "Share links"): the one function the public page
// and both PDFs are made from, so each honours the display switches by construction. The document reading the report
// selects no private field at all (no attendee name, e-mail, phone, feedback or rating, no internal field), and
// reportView keeps only the sections whose show_*_on_report switch is on.
import type { Context } from "../context";
import { operation, run } from "../operations/run";
import { propertyTypeLabel } from "../schema/resources/report/property-types";
import { BLACK, contrast, darkenUntil, parseHex, textOn, toHex, WHITE, type Rgb } from "./contrast";

const REPORT = operation(`query ReportView($id: ID!) {
  report(id: $id) {
    id address city state zip price beds baths sqft yearBuilt propertyType lotSize description clientSummary
    listingAgent customAgentName customAgentEmail agentPhone brokerageName agentLicense agentPhotoId brokerageLogoId primaryColor secondaryColor
    showComps showShowings showSocial showAgentInsights showNeighborhood
    valuation { estimatedValue valueRange { low high } pricePerSqft { median } comparablesUsed comparablesTotal confidence { level score } comparables { id used } }
    comparables { id address city price sqft beds baths yearBuilt distanceMiles saleDate status adjustments adjustedPrice pricePerSqft similarity included }
    showings { showingDate scheduledDate eventType attendeesCount }
    engagement { totals { posts likes comments shares views } platforms { platform posts likes comments shares views } }
    agentInsights { title body category }
  }
}`);

type Maybe<T> = T | null | undefined;
interface Figures {
  posts: number;
  likes: number;
  comments: number;
  shares: number;
  views: number;
  platform?: Maybe<string>;
}
/** The report as the document above reads it; a collection the key may not read is null. */
export interface ReportData {
  id: string;
  address: string;
  city?: Maybe<string>;
  state?: Maybe<string>;
  zip?: Maybe<string>;
  price?: Maybe<number>;
  beds?: Maybe<number>;
  baths?: Maybe<number>;
  sqft?: Maybe<number>;
  yearBuilt?: Maybe<number>;
  propertyType?: Maybe<string>;
  lotSize?: Maybe<number>;
  description?: Maybe<string>;
  clientSummary?: Maybe<string>;
  listingAgent: string;
  customAgentName?: Maybe<string>;
  customAgentEmail?: Maybe<string>;
  agentPhone?: Maybe<string>;
  brokerageName?: Maybe<string>;
  agentLicense?: Maybe<string>;
  agentPhotoId?: Maybe<string>;
  brokerageLogoId?: Maybe<string>;
  primaryColor?: Maybe<string>;
  secondaryColor?: Maybe<string>;
  showComps: boolean;
  showShowings: boolean;
  showSocial: boolean;
  showAgentInsights: boolean;
  showNeighborhood: boolean;
  valuation?: Maybe<{
    estimatedValue: Maybe<number>;
    valueRange: Maybe<{ low: number; high: number }>;
    pricePerSqft: Maybe<{ median: number }>;
    comparablesUsed: number;
    comparablesTotal: number;
    confidence?: Maybe<{ level: string; score: number }>;
    comparables?: Maybe<Array<{ id: string; used: boolean }>>;
  }>;
  comparables?: Maybe<
    Array<{
      id: string;
      address: string;
      city?: Maybe<string>;
      price?: Maybe<number>;
      sqft?: Maybe<number>;
      beds?: Maybe<number>;
      baths?: Maybe<number>;
      yearBuilt?: Maybe<number>;
      distanceMiles?: Maybe<number>;
      saleDate?: Maybe<string | Date>;
      status?: Maybe<string>;
      adjustments?: Maybe<Record<string, number>>;
      adjustedPrice?: Maybe<number>;
      pricePerSqft?: Maybe<number>;
      similarity?: Maybe<number>;
      included: boolean;
    }>
  >;
  showings?: Maybe<Array<{ showingDate?: Maybe<string | Date>; scheduledDate?: Maybe<string | Date>; eventType: string; attendeesCount?: Maybe<number> }>>;
  engagement?: Maybe<{ totals: Figures; platforms: Figures[] }>;
  agentInsights?: Maybe<Array<{ title?: Maybe<string>; body: string; category: string }>>;
}

/** Reads the report for the view with `context`'s key (null collections for what it may not read). */
export async function loadReport(reportId: string, context: Context): Promise<ReportData> {
  const { report } = await run<{ report: ReportData }>(REPORT, { id: reportId }, context, { allowForbiddenNested: true });
  return report;
}

export interface Fact {
  label: string;
  value: string;
}
export interface ComparableRow {
  id: string;
  address: string;
  price: string;
  adjustments: string;
  adjustedPrice: string;
  sqft: string;
  pricePerSqft: string;
  bedsBaths: string;
  distance: string;
  saleDate: string;
  /** Similarity to the report, as a percentage. */
  similarity: string;
  /** Whether the valuation uses it (included, with an adjusted price and sqft): the client sees which of them count. */
  used: boolean;
}
export interface Theme {
  /** The header's background and text. */
  primary: string;
  onPrimary: string;
  /** The table heads' background and text. */
  secondary: string;
  onSecondary: string;
  /** Headings on white: the primary colour, darkened to 4.5:1 when needed. */
  accent: string;
  /** The valuation bar on white: the secondary colour, darkened to 3:1 when needed. */
  bar: string;
}
export interface ValuationView {
  estimate: string | null;
  low: string | null;
  high: string | null;
  /** Where the estimate sits between low and high, 0 to 1 (0.5 when they are equal). */
  position: number | null;
  /**
   * The list price and where it sits on the same scale as `position` (below 0 under the low end, above 1 over the
   * high end): the bar places it, so a client sees the asking price against the range. Null without a price or range.
   */
  list: { price: string; at: number } | null;
  basis: string;
  /** The valuation's confidence: High, Medium or Low, with its score. */
  confidence: string | null;
  comparables: ComparableRow[];
}
export interface ActivityView {
  showings: number;
  openHouses: number;
  attendees: number;
  dates: Array<{ date: string; kind: string }>;
}
export interface SocialView {
  totals: Fact[];
  platforms: Array<{ platform: string; figures: string }>;
}
export interface NoteView {
  title: string | null;
  body: string;
}
/** Who the client deals with: the agent, how to reach them, their brokerage and licence (each null when not given). */
export interface AgentView {
  name: string;
  email: string | null;
  phone: string | null;
  /** The phone as a tel: URL (its digits and a leading +), or null when it holds fewer than 3 digits. */
  phoneHref: string | null;
  brokerage: string | null;
  license: string | null;
  /** The ids of the report's photos that are the agent's photo and the brokerage's logo (not in the gallery). */
  photoId: string | null;
  logoId: string | null;
}

/** "+1 (217) 555-0107 ext. 2" → "tel:+12175550107": what a phone dials, without the words around it. */
export function telHref(phone: Maybe<string>): string | null {
  if (!phone) return null;
  const main = phone.split(/[a-z]/i)[0]; // an extension ("ext. 2", "x2") is not dialled
  const digits = main.replace(/\D/g, "");
  return digits.length >= 3 ? `tel:${main.trim().startsWith("+") ? "+" : ""}${digits}` : null;
}

const agentOf = (r: ReportData): AgentView => ({
  name: r.customAgentName || r.listingAgent,
  email: r.customAgentEmail ?? null,
  phone: r.agentPhone?.trim() || null,
  phoneHref: telHref(r.agentPhone),
  brokerage: r.brokerageName?.trim() || null,
  license: r.agentLicense?.trim() || null,
  photoId: r.agentPhotoId ?? null,
  logoId: r.brokerageLogoId ?? null,
});

/** Everything the page and the PDF show, already formatted; a section is absent when its switch is off. */
export interface ReportView {
  title: string;
  place: string;
  facts: Fact[];
  description: string | null;
  summary: string | null;
  agent: AgentView;
  /** The day the page or PDF was made (UTC), as "Dec 2, 2026": a printed report says when its figures held. */
  prepared: string;
  theme: Theme;
  valuation?: ValuationView;
  activity?: ActivityView;
  social?: SocialView;
  insights?: NoteView[];
  neighborhood?: NoteView[];
}

const DEFAULT_PRIMARY: Rgb = [31, 58, 95];
const DEFAULT_SECONDARY: Rgb = [226, 232, 240];

const money = (n: Maybe<number>) => (n == null ? "—" : `$${Math.round(n).toLocaleString("en-US")}`);
const num = (n: Maybe<number>) => (n == null ? "—" : n.toLocaleString("en-US"));
const dateOf = (d: Maybe<string | Date>) =>
  d == null ? "—" : new Date(d).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const signed = (n: number) => `${n < 0 ? "-" : "+"}$${Math.abs(Math.round(n)).toLocaleString("en-US")}`;

export function themeOf(primaryHex: Maybe<string>, secondaryHex: Maybe<string>): Theme {
  const primary = parseHex(primaryHex) ?? DEFAULT_PRIMARY;
  const secondary = parseHex(secondaryHex) ?? DEFAULT_SECONDARY;
  return {
    primary: toHex(primary),
    onPrimary: toHex(textOn(primary)),
    secondary: toHex(secondary),
    onSecondary: toHex(textOn(secondary)),
    accent: toHex(darkenUntil(primary, WHITE, 4.5)),
    bar: toHex(darkenUntil(secondary, WHITE, 3)),
  };
}

/** The smallest contrast of any text of the theme (≥ 4.5 by construction; the tests check it). */
export const themeTextContrast = (t: Theme): number =>
  Math.min(...([[t.primary, t.onPrimary], [t.secondary, t.onSecondary], [t.accent, "#ffffff"]] as const).map(([a, b]) => contrast(parseHex(a)!, parseHex(b) ?? BLACK)));

function factsOf(r: ReportData): Fact[] {
  const facts: Array<[string, string | null]> = [
    ["List price", r.price == null ? null : money(r.price)],
    ["Bedrooms", r.beds == null ? null : num(r.beds)],
    ["Bathrooms", r.baths == null ? null : num(r.baths)],
    ["Living area", r.sqft == null ? null : `${num(r.sqft)} sq ft`],
    ["Year built", r.yearBuilt == null ? null : String(r.yearBuilt)],
    // lot_size is in acres (the RESO mapping reads it so too).
    ["Lot size", r.lotSize == null ? null : `${num(r.lotSize)} ${r.lotSize === 1 ? "acre" : "acres"}`],
    ["Property type", r.propertyType?.trim() ? propertyTypeLabel(r.propertyType) : null],
  ];
  return facts.filter((f): f is [string, string] => f[1] !== null).map(([label, value]) => ({ label, value }));
}

function valuationOf(r: ReportData): ValuationView | undefined {
  const v = r.valuation;
  // The included comparables (one the agent excluded is never shown), each marked used or not (an included one
  // without a price or size is not used), as the dashboard's "Used in the valuation" column: "From 3 of 4
  // comparable properties" counts the rows of the table under it. The used ones first, each group in the report's order.
  const used = new Map((v?.comparables ?? []).map((c) => [c.id, c.used]));
  const comps = (r.comparables ?? []).filter((c) => c.included).sort((a, b) => Number(used.get(b.id) ?? false) - Number(used.get(a.id) ?? false));
  // A section with nothing to say is left out, as empty showings and social are: no estimate and no comparable.
  if (v?.estimatedValue == null && !comps.length) return undefined;
  const range = v?.valueRange;
  const estimate = v?.estimatedValue;
  const span = range ? range.high - range.low : 0;
  return {
    estimate: estimate == null ? null : money(estimate),
    low: range ? money(range.low) : null,
    high: range ? money(range.high) : null,
    position: range && estimate != null ? (span > 0 ? Math.min(1, Math.max(0, (estimate - range.low) / span)) : 0.5) : null,
    list: range && r.price != null ? { price: money(r.price), at: span > 0 ? (r.price - range.low) / span : r.price === range.low ? 0.5 : r.price < range.low ? -0.5 : 1.5 } : null,
    confidence: v?.confidence ? `${v.confidence.level[0].toUpperCase()}${v.confidence.level.slice(1)} (score ${v.confidence.score.toFixed(2)})` : null,
    basis: v ? `From ${v.comparablesUsed} of ${comps.length} comparable properties${v.pricePerSqft ? `, at a median of ${money(v.pricePerSqft.median)} per sq ft` : ""}.` : "",
    comparables: comps.map((c) => {
      const total = Object.values(c.adjustments ?? {}).reduce((sum, n) => sum + n, 0);
      return {
        id: c.id,
        address: [c.address, c.city].filter(Boolean).join(", "),
        price: money(c.price),
        adjustments: total === 0 ? "—" : signed(total),
        adjustedPrice: money(c.adjustedPrice),
        sqft: num(c.sqft),
        pricePerSqft: c.pricePerSqft == null ? "—" : `$${c.pricePerSqft.toFixed(2)}`,
        bedsBaths: `${num(c.beds)} / ${num(c.baths)}`,
        distance: c.distanceMiles == null ? "—" : `${c.distanceMiles.toFixed(1)} mi`,
        saleDate: dateOf(c.saleDate),
        similarity: c.similarity == null ? "—" : `${Math.round(c.similarity * 100)}%`,
        used: used.get(c.id) ?? false,
      };
    }),
  };
}

/** Counts and dates only: never who came, how to reach them or what they said. */
function activityOf(r: ReportData): ActivityView | undefined {
  if (!r.showings?.length) return undefined;
  const dates = r.showings
    .map((s) => ({ at: s.showingDate ?? s.scheduledDate, kind: s.eventType === "open_house" ? "Open house" : "Showing" }))
    .filter((s) => s.at != null)
    .sort((a, b) => new Date(a.at!).getTime() - new Date(b.at!).getTime());
  return {
    showings: r.showings.filter((s) => s.eventType !== "open_house").length,
    openHouses: r.showings.filter((s) => s.eventType === "open_house").length,
    attendees: r.showings.reduce((sum, s) => sum + (s.attendeesCount ?? 0), 0),
    dates: dates.map((s) => ({ date: dateOf(s.at), kind: s.kind })),
  };
}

/** "1 post", "2,400 views": the count and its noun, singular for one. */
const counted = (n: number, noun: string) => `${num(n)} ${noun}${n === 1 ? "" : "s"}`;
const figures = (f: Figures) => [counted(f.posts, "post"), counted(f.views, "view"), counted(f.likes, "like"), counted(f.comments, "comment"), counted(f.shares, "share")].join(" · ");

function socialOf(r: ReportData): SocialView | undefined {
  const e = r.engagement;
  if (!e || e.totals.posts === 0) return undefined;
  const t = e.totals;
  return {
    totals: [
      { label: "Posts", value: num(t.posts) },
      { label: "Views", value: num(t.views) },
      { label: "Likes", value: num(t.likes) },
      { label: "Comments", value: num(t.comments) },
      { label: "Shares", value: num(t.shares) },
    ],
    platforms: e.platforms.map((p) => ({ platform: p.platform ?? "other", figures: figures(p) })),
  };
}

/**
 * What may be shown of `r`. A section is present only when its switch is on and it has something to show: the
 * market analysis (valuation and comparables) under show_comps_on_report, the activity under
 * show_showings_on_report, the social engagement under show_social_on_report, the agent's insights under
 * show_agent_insights_on_report, and the insights of category `neighborhood` under show_neighborhood_on_report
 * (only there).
 */
export function reportView(r: ReportData): ReportView {
  const notes = (keep: (category: string) => boolean) =>
    (r.agentInsights ?? []).filter((i) => keep(i.category)).map((i) => ({ title: i.title ?? null, body: i.body }));
  const insights = r.showAgentInsights ? notes((c) => c !== "neighborhood") : [];
  const neighborhood = r.showNeighborhood ? notes((c) => c === "neighborhood") : [];
  return {
    title: r.address,
    place: [r.city, [r.state, r.zip].filter(Boolean).join(" ")].filter(Boolean).join(", "),
    facts: factsOf(r),
    description: r.description || null,
    summary: r.clientSummary || null,
    prepared: dateOf(new Date()),
    agent: agentOf(r),
    theme: themeOf(r.primaryColor, r.secondaryColor),
    ...(r.showComps ? { valuation: valuationOf(r) } : {}),
    ...(r.showShowings ? { activity: activityOf(r) } : {}),
    ...(r.showSocial ? { social: socialOf(r) } : {}),
    ...(insights.length ? { insights } : {}),
    ...(neighborhood.length ? { neighborhood } : {}),
  };
}

/**
 * The PDF's file name, from the address ("12 Garden Lane, Unit 4" → "12-garden-lane-unit-4.pdf"): a client saving
 * several reports can tell them apart. ASCII letters and digits only, so the header needs no escaping.
 */
export function pdfFileName(v: ReportView): string {
  const slug = v.title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return `${slug || "report"}.pdf`;
}

/**
 * Where the value-range bar draws its parts, as fractions 0 to 1 of the track: the range, the estimate and the list
 * price. The track spans the range and the list price (drawn at most one range's width beyond either end, at the
 * track's end when farther), so a list price above or below the range is placed outside it, where it is.
 */
export function barScale(v: ValuationView): { from: number; to: number; estimate: number | null; list: number | null } {
  const list = v.list === null ? null : Math.min(2, Math.max(-1, v.list.at));
  const [min, max] = [Math.min(0, list ?? 0), Math.max(1, list ?? 1)];
  const at = (x: number) => (x - min) / (max - min);
  return { from: at(0), to: at(1), estimate: v.position === null ? null : at(v.position), list: list === null ? null : at(list) };
}
