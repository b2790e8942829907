// The fuzz suite's pass over the public sign-in pages under /s (./sign-in-pages.ts says what each answer must be),
// in a file of its own beside fuzz.test.ts: same harness, settings and oracle (test/fuzz/README.md).
process.env.TRUST_PROXY = "true"; // each case comes from an address of its own (X-Forwarded-For)
import { fuzzDatabase } from "./env";
import fc from "fast-check";
import { FUZZ_RUNS, SEED, World } from "./harness";
import { makeSignInLinks, runSignInPage, signInCaseArb } from "./sign-in-pages";

jest.setTimeout(30 * 60_000);

let world: World;

beforeAll(async () => {
  await fuzzDatabase?.create();
  world = await World.open();
});

afterAll(async () => {
  await world?.close();
  await fuzzDatabase?.drop();
});

it("answers every path under /s (sign-in forms) without a 5xx, as a page, keeping only a live link's valid sign-ins", async () => {
  const links = await makeSignInLinks(world);
  await world.refresh(); // the links and their reports are the state every case starts from
  await fc.assert(
    fc.asyncProperty(signInCaseArb(links), (c) => runSignInPage(world, links, c)),
    { numRuns: Math.max(100, Math.round(FUZZ_RUNS / 4)), seed: SEED + 6, verbose: 0 },
  );
  expect(world.failures.map((f) => `${f.detail}`)).toEqual([]);
  // The cases reached the form itself, not only the 404 page: some were shown a live form, some were signed in.
  const seen = [...world.statuses.keys()];
  expect(seen).toEqual(expect.arrayContaining(["GET /s/… 200", "POST /s/… 303"]));
});
