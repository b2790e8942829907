// Runs a command with a PostgreSQL primary and a streaming replica of its own (test/support/replica-cluster.ts):
// DATABASE_URL names the primary, DATABASE_REPLICA_URLS the replica (DATABASE_DIRECT_URL is dropped: no pooler in
// front of them), the rest of the environment is passed on. .ci/run runs the fuzz suite once this way, so every route
// and field it generates is also answered by a service that sends reads to a replica.
//   usage: npx tsx test/support/with-replica.ts <command> [args...]
import { spawnSync } from "node:child_process";
import { startReplicaCluster } from "./replica-cluster";

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    console.error("usage: tsx test/support/with-replica.ts <command> [args...]");
    return 2;
  }
  const cluster = await startReplicaCluster();
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: cluster.primaryUrl, DATABASE_REPLICA_URLS: cluster.replicaUrl };
    delete env.DATABASE_DIRECT_URL;
    console.log(`with-replica: primary ${cluster.primaryUrl}, replica ${cluster.replicaUrl}`);
    const run = spawnSync(command, args, { stdio: "inherit", env });
    return run.status ?? 1;
  } finally {
    cluster.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
