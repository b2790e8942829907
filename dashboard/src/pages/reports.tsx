// Reports: a page of the team's reports with an address search (the API's own address matching), and a detail page
// with the whole report: summary, description, valuation, comparables, showings and open houses, agent insights and
// social engagement, in words and formatted numbers (labels, not the API's codes); its branding (the agent's phone,
// brokerage and licence the client's page shows), editable with reports:update; and its share links with their views.
import { useState } from "preact/hooks";
import { href, navigate } from "../router";
import { client, graphql, type ResultOf } from "../graphql";
import type { PageProps } from "../page";
import { holds } from "../session";
import { date, ErrorMessage, Loading, messageOf, money, num, Pager, plural, Table, useLoad, When } from "../ui";

const PAGE = 20;
const REPORTS = graphql(`
  query Reports($limit: Int!, $offset: Int!) {
    reports(limit: $limit, offset: $offset, status: all) { total items { id address city state price status showingsCount } }
  }
`);
const SEARCH = graphql(`
  query SearchReport($address: String!) {
    reportByAddress(address: $address) { id address city state price status showingsCount }
  }
`);
const MATCHING = graphql(`
  query MatchingReports($address: String!, $limit: Int!, $offset: Int!) {
    reportsMatching(address: $address, limit: $limit, offset: $offset, status: all) { total items { id address city state price status showingsCount } }
  }
`);
const REPORT = graphql(`
  query Report($id: ID!, $comps: Boolean!, $showings: Boolean!, $social: Boolean!, $insights: Boolean!) {
    report(id: $id) {
      id address city state zip price beds baths sqft lotSize yearBuilt propertyType status listingAgent createdAt updatedAt
      customAgentName agentPhone brokerageName agentLicense
      description executiveSummary summaryStale summaryStaleFields
      valuation @include(if: $comps) {
        comparablesTotal comparablesUsed estimatedValue warnings
        valueRange { low high }
        pricePerSqft { min median max }
        confidence { level score }
        comparables { id used }
      }
      comparables(limit: 100) @include(if: $comps) { id address price adjustedPrice sqft pricePerSqft distanceMiles saleDate status daysOnMarket included }
      showings(limit: 100) @include(if: $showings) { id eventType showingDate attendeeName attendeesCount rating interested feedback }
      agentInsights(limit: 100) @include(if: $insights) { id title body category source author createdAt }
      engagement @include(if: $social) { totals { posts likes comments shares saves views reach engagementRate } platforms { platform posts likes comments views engagementRate } }
    }
  }
`);

const BRANDING = graphql(`
  mutation UpdateBranding($id: ID!, $input: UpdateReportInput!) {
    updateReport(id: $id, input: $input) { id agentPhone brokerageName agentLicense }
  }
`);
const SHARE_LINKS = graphql(`
  query ReportShareLinks($reportId: ID!) {
    shareLinks(reportId: $reportId, limit: 100) { total items { id label createdAt expiresAt revokedAt viewsCount lastViewedAt } }
  }
`);

type Row = { id: string; address: string; city: string | null; state: string | null; price: number | null; status: string; showingsCount: number };

function ReportTable({ rows }: { rows: Row[] }) {
  return (
    <Table label="Reports table" columns={["Address", "City", "Price", "Status", "Showings"]}>
      {rows.map((r) => (
        <tr key={r.id}>
          <td>
            <a href={href(["reports", r.id])}>{r.address}</a>
          </td>
          <td>{[r.city, r.state].filter(Boolean).join(", ") || "—"}</td>
          <td>{money(r.price)}</td>
          <td>{r.status === "published" ? "Published" : "Draft"}</td>
          <td>{num(r.showingsCount)}</td>
        </tr>
      ))}
    </Table>
  );
}

export function ReportsPage(props: PageProps) {
  const api = client(props);
  // The page and the search are in the URL (#/reports?address=…&match=best&page=2), so Back from a report returns
  // to them. A search lists every match (paged) unless the best match alone is asked for.
  const page = Math.max(1, Math.floor(Number(props.params.get("page"))) || 1);
  const offset = (page - 1) * PAGE;
  const query = props.params.get("address") ?? "";
  const best = props.params.get("match") === "best";
  const [search, setSearch] = useState(query);
  const [bestOnly, setBestOnly] = useState(best);
  const go = (to: { page?: number; address?: string; best?: boolean }) =>
    navigate(["reports"], { address: to.address || null, match: to.address && to.best ? "best" : null, page: to.page && to.page > 1 ? to.page : null });
  const list = useLoad(async () => {
    if (query && best) {
      const { reportByAddress } = await api(SEARCH, { address: query });
      return { total: reportByAddress ? 1 : 0, items: reportByAddress ? [reportByAddress] : [] };
    }
    if (query) return (await api(MATCHING, { address: query, limit: PAGE, offset })).reportsMatching;
    return (await api(REPORTS, { limit: PAGE, offset })).reports;
  }, [offset, query, best]);
  const title = !list.data ? "" : query && best ? `Best match for “${query}”` : query ? `${plural(list.data.total, "report")} matching “${query}”` : `${plural(list.data.total, "report")}`;
  return (
    <>
      <h1>Reports</h1>
      <form
        role="search"
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          go({ address: search.trim(), best: bestOnly });
        }}
      >
        <label for="search">Find by address</label>
        <input id="search" type="search" value={search} placeholder="maple st" onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
        <fieldset class="periods">
          <legend class="sr-only">Show</legend>
          <label class="check">
            <input type="radio" name="match" checked={!bestOnly} onChange={() => setBestOnly(false)} />
            Every match
          </label>
          <label class="check">
            <input type="radio" name="match" checked={bestOnly} onChange={() => setBestOnly(true)} />
            Best match
          </label>
        </fieldset>
        <button type="submit">Search</button>
        {query && (
          <button type="button" class="secondary" onClick={() => (setSearch(""), go({}))}>
            Show all
          </button>
        )}
      </form>
      <ErrorMessage error={list.error} onRetry={list.error ? list.reload : undefined} />
      {!list.data && !list.error && <Loading what="reports" />}
      {list.data && (
        <section class="card" aria-labelledby="reports-title">
          <h2 id="reports-title">{title}</h2>
          {list.data.items.length === 0 ? <p>No report found.</p> : <ReportTable rows={list.data.items} />}
          {!(query && best) && list.data.total > PAGE && (
            <Pager offset={offset} size={PAGE} total={list.data.total} label="Pages" onPage={(next) => go({ address: query, page: next / PAGE + 1 })} />
          )}
        </section>
      )}
    </>
  );
}

/** What the API's codes mean, in the words a person reads. */
const EVENT_TYPES: Record<string, string> = { open_house: "Open house", showing: "Showing" };
const COMPARABLE_STATUSES: Record<string, string> = { active: "Active", pending: "Pending", sold: "Sold", off_market: "Off market" };
const INSIGHT_CATEGORIES: Record<string, string> = {
  market: "Market",
  marketing: "Marketing",
  neighborhood: "Neighborhood",
  pricing: "Pricing",
  property: "Property",
  showing_feedback: "Showing feedback",
  other: "Other",
};
const label = (labels: Record<string, string>, code: string) => labels[code] ?? code.replace(/_/g, " ");

type Detail = NonNullable<ResultOf<typeof REPORT>["report"]>;

/** A valuation warning as a sentence (docs/api.md "Comparables": the warnings and when each is given). */
function warningText(code: string, r: Detail): string {
  const v = r.valuation;
  switch (code) {
    case "too_few_comparables":
      return `Only ${plural(v?.comparablesUsed ?? 0, "comparable")} used: fewer than 3 makes a weak estimate.`;
    case "subject_sqft_missing":
      return "The property's square footage is missing, so comparables cannot be adjusted for size.";
    case "stale_comparables":
      return "Some comparables used were sold more than a year ago.";
    case "distant_comparables":
      return "Some comparables used are more than 5 miles away.";
    case "list_price_differs": {
      const estimate = v?.estimatedValue;
      if (r.price == null || !estimate) return "The list price is outside the estimated range.";
      const percent = Math.round(((r.price - estimate) / estimate) * 100);
      return `The list price differs from the estimate by ${percent > 0 ? "+" : ""}${percent} % (${money(r.price)} against ${money(estimate)}), outside the estimated range.`;
    }
    default:
      return code.replace(/_/g, " ");
  }
}

const day = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" }) : "—");

export function ReportPage(props: PageProps & { id: string }) {
  const api = client(props);
  const may = (permission: string) => holds(props.who.apiKey.permissions, permission);
  const detail = useLoad(
    () => api(REPORT, { id: props.id, comps: may("comparables:read"), showings: may("showings:read"), social: may("social_media:read"), insights: may("ai_insights:read") }),
    [props.id],
  );
  const r = detail.data?.report;
  return (
    <>
      <p>
        <a href={href(["reports"])}>← All reports</a>
      </p>
      <ErrorMessage error={detail.error} onRetry={detail.error ? detail.reload : undefined} />
      {!detail.data && !detail.error && <Loading what="the report" />}
      {detail.data && !r && <p>Report not found.</p>}
      {r && <WholeReport r={r} />}
      {r && <Branding props={props} r={r} editable={may("reports:update")} onSaved={detail.reload} />}
      {r && may("reports:share") && <ShareLinks props={props} reportId={r.id} />}
    </>
  );
}

/** The agent's details the client's page and PDF show beside the agent's name; a form with reports:update. */
function Branding({ props, r, editable, onSaved }: { props: PageProps; r: Detail; editable: boolean; onSaved: () => void }) {
  const api = client(props);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    // An emptied field clears it (null): the client's page then leaves it out.
    const value = (name: string) => String(data.get(name) ?? "").trim() || null;
    setBusy(true);
    setSaved(false);
    try {
      await api(BRANDING, { id: r.id, input: { agentPhone: value("agentPhone"), brokerageName: value("brokerageName"), agentLicense: value("agentLicense") } });
      setError(null);
      setSaved(true);
      onSaved();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="branding-title">
      <h2 id="branding-title">Agent and branding</h2>
      <p class="hint">Shown to your client beside the agent's name ({r.customAgentName || r.listingAgent}) on the report's page and PDF.</p>
      {editable ? (
        <form onSubmit={onSubmit}>
          <div class="fields">
            <label>
              Agent phone
              <input name="agentPhone" type="tel" maxLength={100} autoComplete="off" defaultValue={r.agentPhone ?? ""} />
            </label>
            <label>
              Brokerage name
              <input name="brokerageName" maxLength={1000} autoComplete="off" defaultValue={r.brokerageName ?? ""} />
            </label>
            <label>
              Agent license number
              <input name="agentLicense" maxLength={100} autoComplete="off" defaultValue={r.agentLicense ?? ""} />
            </label>
          </div>
          <div class="row">
            <button type="submit" disabled={busy}>
              Save branding
            </button>
            {saved && <p aria-live="polite">Saved.</p>}
          </div>
          <ErrorMessage error={error} />
        </form>
      ) : (
        <dl class="facts">
          <dt>Agent phone</dt>
          <dd>{r.agentPhone ?? "—"}</dd>
          <dt>Brokerage name</dt>
          <dd>{r.brokerageName ?? "—"}</dd>
          <dt>Agent license number</dt>
          <dd>{r.agentLicense ?? "—"}</dd>
        </dl>
      )}
    </section>
  );
}

/** The report's share links, each with its views: how often and when the client last opened it. */
function ShareLinks({ props, reportId }: { props: PageProps; reportId: string }) {
  const api = client(props);
  const links = useLoad(() => api(SHARE_LINKS, { reportId }), [reportId]);
  const page = links.data?.shareLinks;
  const now = Date.now();
  const state = (l: { revokedAt?: string | null; expiresAt: string }) =>
    l.revokedAt ? "Revoked" : new Date(l.expiresAt).getTime() <= now ? "Expired" : "Active";
  return (
    <section class="card" aria-labelledby="links-title">
      <h2 id="links-title">Share links</h2>
      <ErrorMessage error={links.error} onRetry={links.error ? links.reload : undefined} />
      {!page && !links.error && <Loading what="the share links" />}
      {page && !page.items.length && <p>Not shared yet.</p>}
      {page && page.items.length > 0 && (
        <Table label="Share links table" columns={["Label", "State", "Views", "Last viewed", "Created", "Expires"]}>
          {page.items.map((l) => (
            <tr key={l.id}>
              <td>{l.label ?? "—"}</td>
              <td>{state(l)}</td>
              <td data-testid="link-views">{plural(l.viewsCount, "view")}</td>
              <td>{l.lastViewedAt ? <When iso={l.lastViewedAt} /> : "Not opened yet"}</td>
              <td>
                <When iso={l.createdAt} />
              </td>
              <td>
                <When iso={l.expiresAt} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

function WholeReport({ r }: { r: Detail }) {
  const used = new Map((r.valuation?.comparables ?? []).map((c) => [c.id, c.used]));
  const totals = r.engagement?.totals;
  return (
    <>
      <h1>{r.address}</h1>
      <section class="card" aria-labelledby="summary-title">
        <h2 id="summary-title">Executive summary</h2>
        <p class="prose">{r.executiveSummary ?? "No summary yet."}</p>
        {r.summaryStale ? (
          <p class="once" role="note">
            Out of date: written before these changed: {r.summaryStaleFields?.join(", ")}. Your client's page shows a summary of the current facts
            instead until you write it again.
          </p>
        ) : null}
        <h3>Description</h3>
        <p class="prose">{r.description ?? "No description."}</p>
      </section>
      <section class="card" aria-labelledby="facts-title">
        <h2 id="facts-title">Property</h2>
        <dl class="facts">
          <dt>Location</dt>
          <dd>{[r.city, r.state, r.zip].filter(Boolean).join(", ") || "—"}</dd>
          <dt>List price</dt>
          <dd>{money(r.price)}</dd>
          <dt>Beds / baths / sq ft</dt>
          <dd>
            {num(r.beds)} / {num(r.baths)} / {num(r.sqft)}
          </dd>
          <dt>Lot size / year built</dt>
          <dd>
            {num(r.lotSize)} / {r.yearBuilt ?? "—"}
          </dd>
          <dt>Type</dt>
          <dd>{r.propertyType ? label({}, r.propertyType) : "—"}</dd>
          <dt>Status</dt>
          <dd>{r.status === "published" ? "Published" : "Draft"}</dd>
          <dt>Listing agent</dt>
          <dd>{r.listingAgent}</dd>
          <dt>Updated</dt>
          <dd>{date(r.updatedAt)}</dd>
        </dl>
      </section>
      {r.valuation !== undefined && (
        <section class="card" aria-labelledby="valuation-title">
          <h2 id="valuation-title">Valuation</h2>
          {r.valuation ? (
            <dl class="facts">
              <dt>Estimated value</dt>
              <dd data-testid="estimated-value">{money(r.valuation.estimatedValue)}</dd>
              <dt>Range</dt>
              <dd>{r.valuation.valueRange ? `${money(r.valuation.valueRange.low)} – ${money(r.valuation.valueRange.high)}` : "—"}</dd>
              <dt>Price per sq ft (median)</dt>
              <dd>{r.valuation.pricePerSqft ? money(r.valuation.pricePerSqft.median) : "—"}</dd>
              <dt>Comparables used</dt>
              <dd>
                {num(r.valuation.comparablesUsed)} of {num(r.valuation.comparablesTotal)}
              </dd>
              <dt>Confidence</dt>
              <dd>
                {r.valuation.confidence.level} ({Math.round(r.valuation.confidence.score * 100)} %)
              </dd>
              <dt>Warnings</dt>
              <dd>
                {r.valuation.warnings.length ? (
                  <ul class="plain" data-testid="warnings">
                    {r.valuation.warnings.map((w) => (
                      <li key={w}>{warningText(w, r)}</li>
                    ))}
                  </ul>
                ) : (
                  "none"
                )}
              </dd>
            </dl>
          ) : (
            <p>No valuation.</p>
          )}
        </section>
      )}
      {r.comparables && (
        <section class="card" aria-labelledby="comps-title">
          <h2 id="comps-title">Comparables</h2>
          {!r.comparables.length ? (
            <p>None.</p>
          ) : (
            <Table label="Comparables table" columns={["Address", "Status", "Sale date", "Price", "Sq ft", "Price per sq ft", "Adjusted", "Miles", "Used in the valuation"]}>
              {r.comparables.map((c) => (
                <tr key={c.id}>
                  <td>{c.address}</td>
                  <td>{label(COMPARABLE_STATUSES, c.status)}</td>
                  <td>{day(c.saleDate)}</td>
                  <td>{money(c.price)}</td>
                  <td>{num(c.sqft)}</td>
                  <td>{money(c.pricePerSqft)}</td>
                  <td>{money(c.adjustedPrice)}</td>
                  <td>{num(c.distanceMiles)}</td>
                  <td>{used.get(c.id) ? "yes" : c.included ? "no (left out by the valuation)" : "no (excluded)"}</td>
                </tr>
              ))}
            </Table>
          )}
        </section>
      )}
      {r.showings && (
        <section class="card" aria-labelledby="showings-title">
          <h2 id="showings-title">Showings and open houses</h2>
          {!r.showings.length ? (
            <p>None.</p>
          ) : (
            <Table label="Showings table" columns={["Date", "Type", "Attendee", "Attendees", "Rating", "Interested", "Feedback"]}>
              {r.showings.map((s) => (
                <tr key={s.id}>
                  <td>{date(s.showingDate)}</td>
                  <td>{label(EVENT_TYPES, s.eventType)}</td>
                  <td>{s.attendeeName ?? "—"}</td>
                  <td>{num(s.attendeesCount)}</td>
                  <td>{s.rating == null ? "—" : `${s.rating} of 5`}</td>
                  <td>{s.interested == null ? "—" : s.interested ? "yes" : "no"}</td>
                  <td class="prose">{s.feedback ?? "—"}</td>
                </tr>
              ))}
            </Table>
          )}
        </section>
      )}
      {r.agentInsights && (
        <section class="card" aria-labelledby="insights-title">
          <h2 id="insights-title">Agent insights</h2>
          {!r.agentInsights.length ? (
            <p>None.</p>
          ) : (
            <ul class="insights">
              {r.agentInsights.map((i) => (
                <li key={i.id}>
                  <h3>
                    {i.title ?? label(INSIGHT_CATEGORIES, i.category)} <span class="tag">{label(INSIGHT_CATEGORIES, i.category)}</span>
                  </h3>
                  <p class="prose">{i.body}</p>
                  <p class="hint">
                    {i.source === "ai" ? "Written by AI" : `By ${i.author}`}, {day(i.createdAt)}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {r.engagement !== undefined && (
        <section class="card" aria-labelledby="engagement-title">
          <h2 id="engagement-title">Social engagement</h2>
          {!totals || totals.posts === 0 ? (
            <p>No posts imported.</p>
          ) : (
            <dl class="facts">
              <dt>Posts</dt>
              <dd>{plural(totals.posts, "post")}</dd>
              <dt>Likes / comments / shares / saves</dt>
              <dd>
                {num(totals.likes)} / {num(totals.comments)} / {num(totals.shares)} / {num(totals.saves)}
              </dd>
              <dt>Views / reach</dt>
              <dd>
                {num(totals.views)} / {num(totals.reach)}
              </dd>
              <dt>Engagement rate</dt>
              <dd>{totals.engagementRate == null ? "—" : `${(totals.engagementRate * 100).toFixed(1)} %`}</dd>
              <dt>Platforms</dt>
              <dd>{r.engagement!.platforms.map((p) => `${p.platform}: ${plural(p.posts, "post")}`).join("; ")}</dd>
            </dl>
          )}
        </section>
      )}
    </>
  );
}
