// The committed schema.graphql is what the code builds: a schema change shows in review, never silently.
import { readFileSync } from "node:fs";
import { printSdl, SCHEMA_FILE } from "../scripts/print-schema";
import { schema } from "../src/schema";

it("schema.graphql is up to date (run `npm run schema:print` after changing the schema)", () => {
  const committed = readFileSync(SCHEMA_FILE, "utf8");
  const current = printSdl();
  if (committed === current) return;
  const [a, b] = [committed.split("\n"), current.split("\n")];
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? b.length : line;
  throw new Error(
    `schema.graphql is stale: run \`npm run schema:print\` and commit the result.\n` +
      `First difference at line ${at + 1}:\n  committed: ${a[at] ?? "(end of file)"}\n  current:   ${b[at] ?? "(end of file)"}`,
  );
});

it("has a subscription root of the live updates only, apart from the team's plan (TeamSubscription)", () => {
  expect(Object.keys(schema.getSubscriptionType()?.getFields() ?? {}).sort()).toEqual(["reportEvents", "teamEvents"]);
  expect(schema.getType("TeamSubscription")).toBeDefined();
});
