import { ownDatabase } from "../support/own-database";

// Settings of the fuzz suite, set before any module of the service is loaded (import this file first).
// The fuzz key is an enterprise key and random keys are counted per client address: both limits are raised far above
// the number of requests a run sends, so that a 429 never hides what a request would otherwise have answered.
process.env.RATE_LIMIT_ENTERPRISE = process.env.FUZZ_RATE_LIMIT ?? "100000000";
process.env.RATE_LIMIT_ANONYMOUS = process.env.FUZZ_RATE_LIMIT ?? "100000000";
// FUZZ_LOG=error shows the server's own log lines (e.g. the stack of an unhandled error) while investigating.
if (process.env.FUZZ_LOG) process.env.LOG_LEVEL = process.env.FUZZ_LOG;
// Webhook URLs are taken as given: no DNS lookup of the random hosts the fuzz sends (its traffic stays on this
// machine; no delivery runs in the fuzz process). The refusal of private addresses is tested in
// test/webhooks-addresses.test.ts.
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
// On PostgreSQL the fuzz has a database of its own (created in fuzz.test.ts): its teams' webhook endpoints have
// random URLs, and a delivering process of another test file on the suite's database would try to send to them.
export const fuzzDatabase = ownDatabase("fuzz");
if (fuzzDatabase) Object.assign(process.env, fuzzDatabase.env);
