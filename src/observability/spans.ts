// Spans of the service's own work (traces on: ./tracing.ts): the GraphQL execution (src/yoga/use-execution-spans.ts:
// the engine is graphql-jit, which GraphQL instrumentations do not see), each webhook delivery attempt, and the trace
// ids the access log carries. Through @opentelemetry/api only: without the SDK every call here is a no-op.
import { context, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";

export const tracer = trace.getTracer("property-report-service");

/** The active span's trace and span ids (for a log line), or nothing outside a trace. */
export function traceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getSpan(context.active());
  const ids = span?.spanContext();
  return ids && trace.isSpanContextValid(ids) ? { traceId: ids.traceId, spanId: ids.spanId } : undefined;
}

export function failed(span: Span, err: unknown): never {
  span.recordException(err as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
  throw err;
}

/**
 * A span around one delivery attempt (its outgoing request, a child span, carries the traceparent). A trace of its
 * own: an attempt started while a request was being answered (the worker woken by that request's commit) outlives
 * it; it is linked to that request's span instead.
 */
export function deliverySpan<T extends { responseStatus: number | null; error: string | null }>(
  attributes: Record<string, string | number>,
  attempt: () => Promise<T>,
): Promise<T> {
  const cause = trace.getSpan(context.active())?.spanContext();
  const links = cause && trace.isSpanContextValid(cause) ? [{ context: cause }] : [];
  return tracer.startActiveSpan("webhook delivery", { kind: SpanKind.INTERNAL, attributes, root: true, links }, async (span) => {
    try {
      const outcome = await attempt();
      if (outcome.responseStatus !== null) span.setAttribute("http.response.status_code", outcome.responseStatus);
      if (outcome.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
      return outcome;
    } catch (err) {
      return failed(span, err);
    } finally {
      span.end();
    }
  });
}
