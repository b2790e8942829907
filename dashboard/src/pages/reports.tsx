// Reports, read-only: a page of the team's reports with an address search (the API's own address matching), and
// a detail page with the valuation, comparables, showings and social engagement.
import { useState } from "preact/hooks";
import { href, navigate } from "../router";
import { client, graphql } from "../graphql";
import type { PageProps } from "../page";
import { date, ErrorMessage, Loading, money, Table, useLoad } from "../ui";

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
const REPORT = graphql(`
  query Report($id: ID!) {
    report(id: $id) {
      id address city state zip price beds baths sqft propertyType status listingAgent createdAt updatedAt
      valuation {
        comparablesTotal comparablesUsed estimatedValue warnings
        valueRange { low high }
        pricePerSqft { min median max }
      }
      comparables(limit: 100) { id address price adjustedPrice sqft distanceMiles included }
      showings(limit: 100) { id eventType showingDate attendeeName rating interested }
      engagement { totals { posts likes comments shares saves views reach engagementRate } platforms { platform posts likes comments views engagementRate } }
    }
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
          <td>{r.status}</td>
          <td>{r.showingsCount}</td>
        </tr>
      ))}
    </Table>
  );
}

export function ReportsPage(props: PageProps) {
  const api = client(props);
  // The page and the search are in the URL (#/reports?page=2&address=…), so Back from a report returns to them.
  const page = Math.max(1, Math.floor(Number(props.params.get("page"))) || 1);
  const offset = (page - 1) * PAGE;
  const query = props.params.get("address") ?? "";
  const [search, setSearch] = useState(query);
  const go = (to: { page?: number; address?: string }) => navigate(["reports"], { page: to.page && to.page > 1 ? to.page : null, address: to.address || null });
  const list = useLoad(async () => {
    if (query) {
      const { reportByAddress } = await api(SEARCH, { address: query });
      return { total: reportByAddress ? 1 : 0, items: reportByAddress ? [reportByAddress] : [] };
    }
    return (await api(REPORTS, { limit: PAGE, offset })).reports;
  }, [offset, query]);
  return (
    <>
      <h1>Reports</h1>
      <form
        role="search"
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          go({ address: search.trim() });
        }}
      >
        <label for="search">Find by address</label>
        <input id="search" type="search" value={search} placeholder="123 n main st" onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
        <button type="submit">Search</button>
        {query && (
          <button type="button" class="secondary" onClick={() => (setSearch(""), go({}))}>
            Show all
          </button>
        )}
      </form>
      <ErrorMessage error={list.error} />
      {!list.data && !list.error && <Loading what="reports" />}
      {list.data && (
        <section class="card" aria-labelledby="reports-title">
          <h2 id="reports-title">{query ? `Best match for “${query}”` : `${list.data.total} reports`}</h2>
          {list.data.items.length === 0 ? <p>No report found.</p> : <ReportTable rows={list.data.items} />}
          {!query && list.data.total > PAGE && (
            <nav class="row" aria-label="Pages">
              <button type="button" class="secondary" disabled={offset === 0} onClick={() => go({ page: page - 1 })}>
                Previous
              </button>
              <span>
                {offset + 1}–{Math.min(offset + PAGE, list.data.total)} of {list.data.total}
              </span>
              <button type="button" class="secondary" disabled={offset + PAGE >= list.data.total} onClick={() => go({ page: page + 1 })}>
                Next
              </button>
            </nav>
          )}
        </section>
      )}
    </>
  );
}

export function ReportPage(props: PageProps & { id: string }) {
  const api = client(props);
  const detail = useLoad(() => api(REPORT, { id: props.id }), [props.id]);
  const r = detail.data?.report;
  return (
    <>
      <p>
        <a href={href(["reports"])}>← All reports</a>
      </p>
      <ErrorMessage error={detail.error} />
      {!detail.data && !detail.error && <Loading what="the report" />}
      {detail.data && !r && <p>Report not found.</p>}
      {r && (
        <>
          <h1>{r.address}</h1>
          <section class="card" aria-labelledby="facts-title">
            <h2 id="facts-title">Property</h2>
            <dl class="facts">
              <dt>Location</dt>
              <dd>{[r.city, r.state, r.zip].filter(Boolean).join(", ") || "—"}</dd>
              <dt>List price</dt>
              <dd>{money(r.price)}</dd>
              <dt>Beds / baths / sq ft</dt>
              <dd>
                {r.beds ?? "—"} / {r.baths ?? "—"} / {r.sqft ?? "—"}
              </dd>
              <dt>Type</dt>
              <dd>{r.propertyType ?? "—"}</dd>
              <dt>Status</dt>
              <dd>{r.status}</dd>
              <dt>Listing agent</dt>
              <dd>{r.listingAgent}</dd>
              <dt>Updated</dt>
              <dd>{date(r.updatedAt)}</dd>
            </dl>
          </section>
          <section class="card" aria-labelledby="valuation-title">
            <h2 id="valuation-title">Valuation</h2>
            {r.valuation ? (
              <dl class="facts">
                <dt>Estimated value</dt>
                <dd data-testid="estimated-value">{money(r.valuation.estimatedValue)}</dd>
                <dt>Range</dt>
                <dd>{r.valuation.valueRange ? `${money(r.valuation.valueRange.low)} – ${money(r.valuation.valueRange.high)}` : "—"}</dd>
                <dt>Price per sq ft (median)</dt>
                <dd>{r.valuation.pricePerSqft ? `$${r.valuation.pricePerSqft.median}` : "—"}</dd>
                <dt>Comparables used</dt>
                <dd>
                  {r.valuation.comparablesUsed} of {r.valuation.comparablesTotal}
                </dd>
                <dt>Warnings</dt>
                <dd>{r.valuation.warnings.length ? r.valuation.warnings.join(", ") : "none"}</dd>
              </dl>
            ) : (
              <p>No valuation.</p>
            )}
          </section>
          <section class="card" aria-labelledby="comps-title">
            <h2 id="comps-title">Comparables</h2>
            {!r.comparables?.length ? (
              <p>None.</p>
            ) : (
              <Table label="Comparables table" columns={["Address", "Price", "Adjusted", "Sq ft", "Miles", "Included"]}>
                {r.comparables.map((c) => (
                  <tr key={c.id}>
                    <td>{c.address}</td>
                    <td>{money(c.price)}</td>
                    <td>{money(c.adjustedPrice)}</td>
                    <td>{c.sqft ?? "—"}</td>
                    <td>{c.distanceMiles ?? "—"}</td>
                    <td>{c.included ? "yes" : "no"}</td>
                  </tr>
                ))}
              </Table>
            )}
          </section>
          <section class="card" aria-labelledby="showings-title">
            <h2 id="showings-title">Showings</h2>
            {!r.showings?.length ? (
              <p>None.</p>
            ) : (
              <Table label="Showings table" columns={["Date", "Type", "Attendee", "Rating", "Interested"]}>
                {r.showings.map((s) => (
                  <tr key={s.id}>
                    <td>{date(s.showingDate)}</td>
                    <td>{s.eventType}</td>
                    <td>{s.attendeeName ?? "—"}</td>
                    <td>{s.rating ?? "—"}</td>
                    <td>{s.interested == null ? "—" : s.interested ? "yes" : "no"}</td>
                  </tr>
                ))}
              </Table>
            )}
          </section>
          <section class="card" aria-labelledby="engagement-title">
            <h2 id="engagement-title">Social engagement</h2>
            {!r.engagement || r.engagement.totals.posts === 0 ? (
              <p>No posts imported.</p>
            ) : (
              <dl class="facts">
                <dt>Posts</dt>
                <dd>{r.engagement.totals.posts}</dd>
                <dt>Likes / comments / shares / saves</dt>
                <dd>
                  {r.engagement.totals.likes} / {r.engagement.totals.comments} / {r.engagement.totals.shares} / {r.engagement.totals.saves}
                </dd>
                <dt>Views / reach</dt>
                <dd>
                  {r.engagement.totals.views} / {r.engagement.totals.reach}
                </dd>
                <dt>Engagement rate</dt>
                <dd>{r.engagement.totals.engagementRate == null ? "—" : `${(r.engagement.totals.engagementRate * 100).toFixed(1)} %`}</dd>
                <dt>Platforms</dt>
                <dd>{r.engagement.platforms.map((p) => `${p.platform}: ${p.posts} posts`).join("; ")}</dd>
              </dl>
            )}
          </section>
        </>
      )}
    </>
  );
}
