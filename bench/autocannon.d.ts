// The part of autocannon's API the harness uses (the package ships no types; @types/autocannon is not installed).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  interface RequestParams {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests per second across all connections (an open-loop offered load). */
    overallRate?: number;
    headers?: Record<string, string>;
    requests?: (RequestParams & { setupRequest?: (req: RequestParams) => RequestParams; onResponse?: (status: number, body: string) => void })[];
  }
  interface Result {
    requests: { total: number; average: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
  }
  interface Instance extends EventEmitter, PromiseLike<Result> {
    on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    stop(): void;
  }
  function autocannon(options: Options): Instance;
  export = autocannon;
}
