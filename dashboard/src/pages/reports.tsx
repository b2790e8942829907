// Reports: a page of the team's reports with an address search (the API's own address matching), and a detail page
// with the whole report: summary, description, valuation, comparables, showings and open houses, agent insights and
// social engagement, in words and formatted numbers (labels, not the API's codes); its branding (the agent's phone,
// brokerage and licence the client's page shows), editable with reports:update; its photos (./report-photos.tsx);
// and its share links with their views.
import { useState } from "preact/hooks";
import { href, navigate } from "../router";
import { client, graphql, type ResultOf } from "../graphql";
import type { PageProps } from "../page";
import { ReportPhotos } from "./report-photos";
import { holds } from "../session";
import { date, ErrorMessage, Loading, messageOf, money, num, Pager, plural, ShownOnce, Table, useFormAction, useLoad, When } from "../ui";

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
      showComps showNeighborhood showSocial showShowings showAgentInsights primaryColor secondaryColor
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
const DISPLAY = graphql(`
  mutation UpdateDisplay($id: ID!, $input: UpdateReportInput!) {
    updateReport(id: $id, input: $input) { id showComps showNeighborhood showSocial showShowings showAgentInsights primaryColor secondaryColor }
  }
`);
const CREATE_LINK = graphql(`
  mutation CreateShareLink($reportId: ID!, $input: CreateShareLinkInput) {
    createShareLink(reportId: $reportId, input: $input) { path warnings link { id } }
  }
`);
const PREVIEW = graphql(`
  mutation PreviewReport($reportId: ID!) {
    previewReport(reportId: $reportId) { path expiresAt }
  }
`);
const REVOKE_LINK = graphql(`
  mutation RevokeShareLink($reportId: ID!, $id: ID!) {
    revokeShareLink(reportId: $reportId, id: $id) { id revokedAt }
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
      {r && <Display props={props} r={r} editable={may("reports:update")} canPreview={may("reports:share")} onSaved={detail.reload} />}
      {r && <Branding props={props} r={r} editable={may("reports:update")} onSaved={detail.reload} />}
      {r && <ReportPhotos props={props} reportId={r.id} editable={may("reports:update")} />}
      {r && may("reports:share") && <ShareLinks props={props} reportId={r.id} />}
    </>
  );
}

/** What the client's page and PDF show: the sections the agent switched on, and the brand colours. */
const SWITCHES = [
  ["showComps", "Comparables and the valuation"],
  ["showShowings", "Showings and open houses"],
  ["showSocial", "Social posts and their reach"],
  ["showAgentInsights", "The agent's insights"],
  ["showNeighborhood", "The neighborhood"],
] as const;

/** The display switches and brand colours, saved through updateReport (reports:update); read-only without it. */
function Display({ props, r, editable, canPreview, onSaved }: { props: PageProps; r: Detail; editable: boolean; canPreview: boolean; onSaved: () => void }) {
  const api = client(props);
  const [saved, setSaved] = useState(false);
  const save = useFormAction(async (data) => {
    setSaved(false);
    const colour = (name: string) => String(data.get(name) ?? "").trim() || null; // emptied: the default colours
    const input = Object.fromEntries(SWITCHES.map(([name]) => [name, data.get(name) === "on"]));
    await api(DISPLAY, { id: r.id, input: { ...input, primaryColor: colour("primaryColor"), secondaryColor: colour("secondaryColor") } });
    setSaved(true);
    onSaved();
  });
  return (
    <section class="card" aria-labelledby="display-title">
      <h2 id="display-title">What your client sees</h2>
      <form onSubmit={save.onSubmit}>
        <fieldset disabled={!editable}>
          <legend>Sections on the client's page and PDF</legend>
          {SWITCHES.map(([name, label]) => (
            <label key={name} class="check">
              <input type="checkbox" name={name} defaultChecked={r[name]} />
              {label}
            </label>
          ))}
        </fieldset>
        <div class="fields">
          {(["primaryColor", "secondaryColor"] as const).map((name) => (
            <label key={name}>
              {name === "primaryColor" ? "Brand colour" : "Second colour"} (#RRGGBB; empty: the default)
              <input name={name} pattern="#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})" maxLength={7} autoComplete="off" defaultValue={r[name] ?? ""} disabled={!editable} />
            </label>
          ))}
        </div>
        {editable ? (
          <div class="row">
            <button type="submit" disabled={save.busy}>
              Save what the client sees
            </button>
            {saved && <p aria-live="polite">Saved.</p>}
          </div>
        ) : (
          <p class="hint">Changing these needs reports:update.</p>
        )}
        <ErrorMessage error={save.error} />
      </form>
      {canPreview && <Preview props={props} reportId={r.id} />}
    </section>
  );
}

/**
 * The client's page as it stands, before any link is sent: an address for the agent alone (previewReport), marked as
 * a preview on the page, counting no view, valid for minutes. Opened from a link (a window opened after the request
 * would be a blocked pop-up).
 */
function Preview({ props, reportId }: { props: PageProps; reportId: string }) {
  const api = client(props);
  const [preview, setPreview] = useState<{ url: string; until: string } | null>(null);
  const make = useFormAction(async () => {
    const { path, expiresAt } = (await api(PREVIEW, { reportId })).previewReport;
    setPreview({ url: new URL(path, location.origin).toString(), until: new Date(expiresAt).toLocaleTimeString("en-US", { timeStyle: "short" }) });
  });
  return (
    <form class="row preview" onSubmit={make.onSubmit} aria-label="Preview">
      <button type="submit" class="secondary" disabled={make.busy}>
        Preview the client's page
      </button>
      {preview && (
        <p>
          <a href={preview.url} target="_blank" rel="noopener">
            Open the preview
          </a>{" "}
          (saved changes included; for you alone until {preview.until}, no view counted).
        </p>
      )}
      <ErrorMessage error={make.error} />
    </form>
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

/** Why a new link needs a look before it is sent (createShareLink's warnings), in words. */
const LINK_WARNINGS: Record<string, string> = {
  report_is_draft: "The report is still a draft: your client sees it as it stands now. Publish it, or check it, before sending the link.",
};

/** Creates a share link (label, days until it stops answering) and shows its address once, to copy or open. */
function NewShareLink({ props, reportId, onCreated }: { props: PageProps; reportId: string; onCreated: () => void }) {
  const api = client(props);
  const [created, setCreated] = useState<{ url: string; warnings: string[] } | null>(null);
  const create = useFormAction(async (data) => {
    const days = Number(data.get("days"));
    const label = String(data.get("label") ?? "").trim() || undefined;
    const expiresAt = new Date(Date.now() + days * 86_400_000).toISOString();
    const answer = await api(CREATE_LINK, { reportId, input: { label, expiresAt } });
    setCreated({ url: new URL(answer.createShareLink.path, location.origin).toString(), warnings: answer.createShareLink.warnings });
    onCreated();
  });
  if (created)
    return (
      <>
        {created.warnings.map((w) => (
          <p key={w} class="warning" role="alert">
            {LINK_WARNINGS[w] ?? w}
          </p>
        ))}
        <ShownOnce label="The link for your client." value={created.url} onDone={() => setCreated(null)} />
        <p>
          <a href={created.url} target="_blank" rel="noopener">
            Open the client's page
          </a>{" "}
          (what your client will see; opening it counts as a view).
        </p>
      </>
    );
  return (
    <form onSubmit={create.onSubmit} aria-label="New share link">
      <div class="fields">
        <label>
          Label (optional)
          <input name="label" maxLength={200} autoComplete="off" placeholder="e.g. the Smiths" />
        </label>
        <label>
          Stops working after
          <select name="days">
            <option value="7">7 days</option>
            <option value="30" selected>
              30 days
            </option>
            <option value="90">90 days</option>
            <option value="365">365 days</option>
          </select>
        </label>
      </div>
      <div class="row">
        <button type="submit" disabled={create.busy}>
          Create a link
        </button>
      </div>
      <ErrorMessage error={create.error} />
    </form>
  );
}

/** The report's share links, each with its views (how often and when the client last opened it), and their revocation. */
function ShareLinks({ props, reportId }: { props: PageProps; reportId: string }) {
  const api = client(props);
  const links = useLoad(() => api(SHARE_LINKS, { reportId }), [reportId]);
  const [error, setError] = useState<string | null>(null);
  const page = links.data?.shareLinks;
  const now = Date.now();
  const state = (l: { revokedAt?: string | null; expiresAt: string }) =>
    l.revokedAt ? "Revoked" : new Date(l.expiresAt).getTime() <= now ? "Expired" : "Active";
  const revoke = async (id: string, name: string) => {
    if (!confirm(`Revoke the link ${name}? Your client can no longer open the report with it.`)) return;
    try {
      await api(REVOKE_LINK, { reportId, id });
      setError(null);
      links.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <section class="card" aria-labelledby="links-title">
      <h2 id="links-title">Share links</h2>
      <NewShareLink props={props} reportId={reportId} onCreated={links.reload} />
      <ErrorMessage error={links.error ?? error} onRetry={links.error ? links.reload : undefined} />
      {!page && !links.error && <Loading what="the share links" />}
      {page && !page.items.length && <p>Not shared yet.</p>}
      {page && page.items.length > 0 && (
        <Table label="Share links table" columns={["Label", "State", "Views", "Last viewed", "Created", "Expires", ""]}>
          {page.items.map((l) => (
            <tr key={l.id} data-link-id={l.id}>
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
              <td>
                {state(l) === "Active" && (
                  <button type="button" class="secondary" onClick={() => revoke(l.id, l.label ?? "without a label")}>
                    Revoke<span class="sr-only"> the link {l.label ?? "without a label"}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

/** The report's valuation as the API computes it, its warnings in words. */
function ValuationCard({ r }: { r: Detail }) {
  if (r.valuation === undefined) return null;
  return (
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
  );
}

/** The comparables, each said used or not by the valuation. */
function ComparablesCard({ r }: { r: Detail }) {
  const used = new Map((r.valuation?.comparables ?? []).map((c) => [c.id, c.used]));
  if (!r.comparables) return null;
  return (
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
  );
}

function WholeReport({ r }: { r: Detail }) {
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
      <ValuationCard r={r} />
      <ComparablesCard r={r} />
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
