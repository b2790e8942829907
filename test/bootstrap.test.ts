// First start on an empty database: one team and a full-access key, printed once; never again after that.
import path from "node:path";
import { childEnv, startServer, tempDir } from "./support/server";

const KEY = /prs_sk_live_[A-Za-z0-9]{32}/g;

it("creates the first team and prints a working key with every permission once, on the first start only", async () => {
  // An empty embedded database (what `npm start` uses), whatever the suite's own database is.
  const dir = path.join(tempDir("bootstrap"), "db");
  const env: NodeJS.ProcessEnv = { ...childEnv(dir), PGLITE_DATA_DIR: dir };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;

  const first = await startServer(env);
  const keys = first.output().match(KEY) ?? [];
  expect(keys).toHaveLength(1);
  const me = await fetch(`${first.url}/v1/users/me`, { headers: { Authorization: `Bearer ${keys[0]}` } });
  expect(me.status).toBe(200);
  const body = (await me.json()) as { data: { team: { name: string }; api_key: { permissions: Record<string, string[]> } } };
  expect(body.data.team.name).toBe("My Team");
  expect(Object.keys(body.data.api_key.permissions).sort()).toEqual(
    ["ai_insights", "api_keys", "comparables", "reports", "showings", "social_media", "team", "webhooks"],
  );
  expect(await first.stop()).toBe(0);

  const second = await startServer(env);
  try {
    expect(second.output().match(KEY)).toBeNull();
    const again = await fetch(`${second.url}/v1/users/me`, { headers: { Authorization: `Bearer ${keys[0]}` } });
    expect(again.status).toBe(200);
  } finally {
    await second.stop();
  }
}, 180_000);
