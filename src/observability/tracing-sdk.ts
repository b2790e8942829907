// The OpenTelemetry Node SDK and the instrumentations of the service's traces (loaded by ./tracing.ts only when
// traces are on): a span per HTTP request (continuing an incoming W3C traceparent), per Express route, per SQL
// statement on PostgreSQL (pg: Prisma's adapter and the direct hot-path queries share its pool), and per outgoing
// request of undici (webhook deliveries, which then carry a traceparent). GraphQL execution and delivery attempts get
// spans of their own (./spans.ts).
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { NodeSDK } from "@opentelemetry/sdk-node";
import type { Span } from "@opentelemetry/api";
import type { ClientRequest, IncomingMessage, ServerResponse } from "node:http";
import { withoutToken } from "./token-urls";

/** Probes and scrapes: a span each would outnumber the requests. */
const UNTRACED = new Set(["/health", "/ready", "/metrics"]);

/**
 * A public page's URL as the span shows it: its token replaced by {token}, as in the logs (./token-urls.ts) —
 * a trace store is read by more people than the link was sent to.
 */
function withoutTokenIn(span: Span, request: IncomingMessage | ClientRequest | ServerResponse): void {
  const url = "url" in request && typeof request.url === "string" ? request.url : undefined;
  if (url === undefined || withoutToken(url) === url) return;
  const target = withoutToken(url);
  const host = "headers" in request ? request.headers.host : undefined;
  span.setAttributes({ "http.target": target, "url.path": target.split("?")[0], ...(host ? { "http.url": `http://${host}${target}`, "url.full": `http://${host}${target}` } : {}) });
  span.updateName(`${(request as IncomingMessage).method ?? "GET"} ${target.split("?")[0]}`);
}

export function startTracingSdk(): NodeSDK {
  const env = process.env;
  env.OTEL_SERVICE_NAME ??= "property-report-service";
  // Traces only: metrics are Prometheus's (/metrics), logs are the JSON lines on standard output. Either can still be
  // sent over OTLP by setting these variables.
  env.OTEL_METRICS_EXPORTER ??= "none";
  env.OTEL_LOGS_EXPORTER ??= "none";
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED.has((req.url ?? "").split("?")[0]), requestHook: withoutTokenIn }),
      // Route handlers only: each middleware and router a request passes through would be a span (a dozen).
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  return sdk;
}
