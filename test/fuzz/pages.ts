// The public pages of share links (GET /r/<token>, /r/<token>.pdf; docs/api.md "Share links"),
// which no OpenAPI operation describes: random and hostile paths under /r, with each method. Every answer is below
// 500 and is HTML (or the PDF); only a live link's exact path answers 200, and then with its own report and no other.
import fc from "fast-check";
import { prisma } from "../../src/db";
import { HOSTILE_STRINGS } from "./arbitraries";
import type { World } from "./harness";
import { BOUNDARY, multipartText } from "./rest";

export interface Links {
  /** Live links' tokens → the address of their report (one per team). */
  live: Map<string, string>;
  /** Live links' tokens → the path of a photo of their report under the link (`/photos/<id>-1.jpg`). */
  photos: Map<string, string>;
  /** Addresses of reports no live link opens, of both teams. */
  others: () => Promise<string[]>;
}

/** A live link to a new report of each team, and a revoked one of the fuzz team. */
export async function makeLinks(world: World): Promise<Links> {
  const live = new Map<string, string>();
  const photos = new Map<string, string>();
  for (const [team, address] of [[world.own, "1 Fuzz Shared St"], [world.other, "2 Other Shared St"]] as const) {
    const headers = { Authorization: `Bearer ${team.key}`, "Content-Type": "application/json" };
    const report = await world.client.send({ method: "POST", path: "/v1/reports", headers, body: JSON.stringify({ address }) });
    const reportId = (report.json as any).data.id;
    const link = await world.client.send({ method: "POST", path: `/v1/reports/${reportId}/share-links`, headers, body: "{}" });
    live.set((link.json as any).data.token, address);
    const photo = await world.client.send({
      method: "POST",
      path: `/v1/reports/${reportId}/photos`,
      headers: { ...headers, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: multipartText(world, { file: "jpeg", alt: "The front", position: null }),
      encoding: "latin1",
    });
    photos.set((link.json as any).data.token, `/photos/${(photo.json as any).data.id}-1.jpg`);
  }
  const addresses = new Set(live.values());
  return { live, photos, others: async () => (await prisma.report.findMany({ select: { address: true } })).map((r) => r.address).filter((a) => !addresses.has(a) && a.length > 6) };
}

const TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("");

export const pageCaseArb = (links: Links) =>
  fc.record({
    method: fc.constantFrom("GET", "GET", "GET", "HEAD", "POST", "DELETE"),
    segment: fc.oneof(
      fc.constantFrom(...links.live.keys()),
      fc.array(fc.constantFrom(...TOKEN_CHARS), { minLength: 43, maxLength: 43 }).map((c) => c.join("")),
      fc.constantFrom(...HOSTILE_STRINGS.map((s) => encodeURI(s.replace(/[\uD800-\uDFFF]/g, "?")).slice(0, 3000)), "%ZZ", "%00", "%D8%00", "..", ".", "%2e%2e%2f", "a/b", ""),
      fc.string({ maxLength: 60, unit: "grapheme" }).map(encodeURIComponent),
    ),
    suffix: fc.constantFrom("", "", ".pdf", ".PDF", "/", ".pdf/x", "?x=1", "%00", ...[...links.photos.values()].flatMap((p) => [p, p.replace("-1.jpg", "-480.jpg"), p.replace(".jpg", ".webp"), `${p}/x`]), "/photos/00000000-0000-4000-8000-000000000000-1.jpg", "/photos/x-1.jpg"),
  });

/** Sends one case and checks its answer. */
export async function runPage(world: World, links: Links, c: { method: string; segment: string; suffix: string }): Promise<void> {
  const path = `/r/${c.segment}${c.suffix}`;
  // A live link's page shows its report's photos by their ids (the other team's, on its own link's page).
  const ownPhoto = /\/photos\/([0-9a-f-]{36})-/.exec(links.photos.get(c.segment) ?? "")?.[1];
  const prepared = { label: `${c.method} /r/…`, sent: { method: c.method, path, headers: {} }, problems: [] as string[], unauthenticated: true, write: false, shows: ownPhoto ? [ownPhoto] : [] };
  const address = links.live.get(c.segment);
  const photo = links.photos.get(c.segment) === c.suffix;
  const opens = address !== undefined && (c.method === "GET" || c.method === "HEAD") && (["", ".pdf", "?x=1"].includes(c.suffix) || photo);
  const others = await links.others();
  await world.exchange(prepared, (a) => {
    const problems: string[] = [];
    const type = String(a.headers["content-type"] ?? "");
    if (a.status >= 500) problems.push(`5xx: status ${a.status}`);
    if (!/^text\/html|^application\/pdf/.test(type) && !(photo && a.status === 200 && /^image\/jpeg/.test(type))) problems.push(`not a page: ${a.status} ${type}`);
    if (a.status === 200 && !opens) problems.push(`opened a report at ${path}`);
    if (opens && a.status !== 200) problems.push(`a live link answered ${a.status}`);
    if (a.status === 200 && c.method === "GET" && !c.suffix.startsWith(".pdf") && !photo) {
      if (!a.text.includes(address!)) problems.push("the page does not show its own report");
      const leaked = others.find((other) => a.text.includes(other));
      if (leaked) problems.push(`another report's address on the page: ${leaked.slice(0, 60)}`);
    }
    if (a.status === 429) problems.push("429: rate limited although the fuzz limits are raised");
    return { ok: a.status < 300, problems };
  });
}
