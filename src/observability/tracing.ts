// OpenTelemetry traces, on when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; the other
// standard OTEL_* variables apply (service name, protocol, sampler, batch delay…). Loaded before any other module of
// the service (src/service.ts imports it first): the instrumentations patch http, express, pg and undici as they
// load. Unset, the SDK is never loaded and nothing is patched: tracing then costs nothing.
import type { NodeSDK } from "@opentelemetry/sdk-node";

const env = process.env;

/** Whether this process sends traces. */
export const tracing = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== "true";

// Required only when on (esbuild compiles each file alone, so this require stays where it is).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on (see above)
const sdk: NodeSDK | null = tracing ? (require("./tracing-sdk") as typeof import("./tracing-sdk")).startTracingSdk() : null;

/** Sends the spans still buffered (at a graceful stop); a collector that does not answer is given up on. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
}
