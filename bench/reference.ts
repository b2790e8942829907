// The one-statement reference of scenarios 8 and 9: a node:http + pg server that answers the nested
// GraphQL page and GET /v1/reports/{id} with a body PostgreSQL builds as JSON text in ONE prepared statement, which
// is passed through untouched. It is what "no framework at all" costs, not a design to copy: no auth, no GraphQL
// parsing (any POST /graphql is the nested page for `variables.limit`), the team fixed at start (BENCH_TEAM_ID).
// Started by bench/run.ts as its own process (bench/peers.ts); never part of the service.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";

const iso = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const TIMESTAMPS = new Set(["published_at", "created_at", "updated_at", "sale_date", "showing_date", "scheduled_date", "showing_time_start", "showing_time_end", "posted_at", "metrics_at"]);

/** json_build_object of `keys` read from `alias`: a key is its column unless `exprs` says otherwise; timestamps as toISOString(). */
function object(alias: string, keys: string[], exprs: Record<string, string> = {}): string {
  const parts = keys.map((k) => {
    const expr = exprs[k] ?? (TIMESTAMPS.has(k) ? iso(`${alias}.${k}`) : `${alias}.${k}`);
    return `'${k}', ${expr}`;
  });
  return `json_build_object(${parts.join(", ")})`;
}

/** The first `limit` rows of a report's collection, oldest first, as a JSON array built from `build`. */
const collection = (table: string, alias: string, build: string, limit: string) =>
  `(SELECT coalesce(json_agg(${build} ORDER BY ${alias}.created_at, ${alias}.id), '[]') FROM (SELECT * FROM ${table} x WHERE x.report_id = r.id ORDER BY x.created_at, x.id LIMIT ${limit}) ${alias})`;

// The selection of bench/scenarios/statements.ts NESTED_QUERY, under the same names and in the same order.
export const NESTED_SQL = `SELECT json_build_object('data', json_build_object('reports', json_build_object(
  'total', (SELECT count(*) FROM reports WHERE team_id = $1),
  'items', coalesce((SELECT json_agg(json_build_object(
      'id', r.id, 'address', r.address, 'price', r.price, 'status', r.status,
      'showingsCount', (SELECT count(*) FROM showings s WHERE s.report_id = r.id),
      'comparables', ${collection("comparables", "c", "json_build_object('id', c.id, 'address', c.address, 'price', c.price, 'distanceMiles', c.distance_miles)", "100")},
      'showings', ${collection("showings", "s", `json_build_object('id', s.id, 'attendeeName', s.attendee_name, 'eventType', s.event_type, 'showingDate', ${iso("s.showing_date")})`, "100")},
      'socialMediaPosts', ${collection("social_media_posts", "p", `json_build_object('id', p.id, 'platform', p.platform, 'likes', p.likes, 'postedAt', ${iso("p.posted_at")})`, "100")},
      'agentInsights', ${collection("agent_insights", "i", "json_build_object('id', i.id, 'title', i.title, 'body', i.body)", "100")}
    ) ORDER BY r.created_at DESC, r.id DESC)
    FROM (SELECT * FROM reports WHERE team_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2) r), '[]')
)))::text AS body`;

// The body of GET /v1/reports/{id} (bench/baseline.ts detailBody: same keys, same order, same values).
const REPORT_KEYS = ["id", "address", "city", "state", "zip", "price", "beds", "baths", "sqft", "year_built", "property_type", "status", "is_published", "is_draft", "published_at", "views_count", "saves_count", "showings_count", "created_at", "updated_at", "bedrooms", "bathrooms", "square_feet", "date_created", "description", "lot_size", "portal_url", "portal_property_id", "mls_id", "listing_agent", "created_by", "custom_agent_name", "custom_agent_email", "primary_color", "secondary_color", "executive_summary", "show_comps_on_report", "show_neighborhood_on_report", "show_social_on_report", "show_showings_on_report", "show_agent_insights_on_report"];
const COMPARABLE_KEYS = ["id", "report_id", "address", "city", "state", "zip", "price", "beds", "baths", "sqft", "lot_size", "year_built", "distance_miles", "sale_date", "days_on_market", "status", "source", "mls_id", "latitude", "longitude", "adjustments", "included", "adjusted_price", "price_per_sqft", "created_at", "updated_at"];
const SHOWING_KEYS = ["id", "service_id", "report_id", "showing_date", "scheduled_date", "attendee_name", "attendee_email", "attendee_phone", "agent_name", "feedback", "rating", "interested", "event_type", "title", "attendees_count", "unique_showing_key", "showing_time_start", "showing_time_end", "created_at", "updated_at"];
const POST_KEYS = ["id", "report_id", "platform", "external_id", "url", "caption", "posted_at", "likes", "comments", "shares", "saves", "views", "reach", "metrics_at", "created_at", "updated_at"];
const INSIGHT_KEYS = ["id", "report_id", "title", "body", "category", "author", "source", "created_at", "updated_at"];

// market-analysis.ts: adjusted = price + the numeric adjustments; per sqft rounded to cents.
const ADJUSTED = `(c.price + coalesce((SELECT sum(v.value::text::float8) FROM jsonb_each(CASE WHEN jsonb_typeof(c.adjustments) = 'object' THEN c.adjustments ELSE '{}' END) v WHERE jsonb_typeof(v.value) = 'number'), 0))`;
export const DETAIL_SQL = `SELECT json_build_object('data', ${object("r", REPORT_KEYS, {
  is_published: "r.status = 'published'",
  is_draft: "r.status = 'draft'",
  showings_count: "(SELECT count(*) FROM showings s WHERE s.report_id = r.id)",
  bedrooms: "r.beds",
  bathrooms: "r.baths",
  square_feet: "r.sqft",
  date_created: iso("r.created_at"),
}).replace(/\)$/, "")},
  'comparable_properties', ${collection("comparables", "c", object("c", COMPARABLE_KEYS, { adjusted_price: ADJUSTED, price_per_sqft: `CASE WHEN c.sqft > 0 THEN round((${ADJUSTED} * 100 / c.sqft)::numeric) / 100 END` }), "100")},
  'showing_events', ${collection("showings", "s", object("s", SHOWING_KEYS), "100")},
  'social_media_posts', ${collection("social_media_posts", "p", object("p", POST_KEYS), "100")},
  'agent_insights', ${collection("agent_insights", "i", object("i", INSIGHT_KEYS), "100")}))::text AS body
FROM reports r WHERE r.id = $2 AND r.team_id = $1`;

async function main(): Promise<void> {
  const teamId = process.env.BENCH_TEAM_ID;
  if (!process.env.DATABASE_URL || !teamId) throw new Error("DATABASE_URL and BENCH_TEAM_ID are needed");
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const send = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => resolve(Buffer.concat(chunks).toString()));
      req.on("error", reject);
    });
  const uuid = /^\/v1\/reports\/([0-9a-f-]{36})$/;
  const server = createServer(async (req, res) => {
    try {
      if (req.method === "POST" && req.url === "/graphql") {
        const { variables } = JSON.parse(await readBody(req)) as { variables?: { limit?: number } };
        const { rows } = await pool.query({ name: "nested", text: NESTED_SQL, values: [teamId, variables?.limit ?? 50] });
        return send(res, 200, rows[0].body as string);
      }
      const match = req.method === "GET" && req.url ? uuid.exec(req.url) : null;
      if (match) {
        const { rows } = await pool.query({ name: "detail", text: DETAIL_SQL, values: [teamId, match[1]] });
        return rows.length ? send(res, 200, rows[0].body as string) : send(res, 404, `{"error":{"message":"Report not found"}}`);
      }
      send(res, 404, "{}");
    } catch (err) {
      send(res, 500, JSON.stringify({ error: String(err) }));
    }
  });
  server.listen(0, "127.0.0.1", () => process.send?.({ ready: true, port: (server.address() as AddressInfo).port }));
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void pool.end().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("disconnect", stop);
}

// Imported for its statements (EXPLAIN in BENCHMARKS.md), it starts nothing.
if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
