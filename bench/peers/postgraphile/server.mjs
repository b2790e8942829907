// PostGraphile 5 as the benchmark peer of scenarios 8 and 9: the Amber preset over the bench database's
// public schema, served by grafserv on a node:http server on an ephemeral loopback port. Started by bench/peers.ts
// as its own process (`node --import ./polyfill.mjs server.mjs`, DATABASE_URL in the environment); reports its port
// over IPC. It has no auth: the bench's queries name the team in their condition.
import { createServer } from "node:http";
import { postgraphile } from "postgraphile";
import { makePgService } from "postgraphile/adaptors/pg";
import { grafserv } from "postgraphile/grafserv/node";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";

const preset = {
  extends: [PostGraphileAmberPreset],
  // The collections' foreign keys (report_id, team_id) are served by indexes on (report_id, created_at, id), which
  // PostGraphile does not count as indexing the key, so it would hide report → collection relations: expose them.
  disablePlugins: ["PgIndexBehaviorsPlugin"],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL, schemas: ["public"], poolConfig: { max: 10 } })],
  grafserv: { graphqlPath: "/graphql", graphiql: false, watch: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
server.on("error", (err) => {
  console.error(err);
  process.exit(1);
});
serv.addTo(server).then(
  () =>
    server.listen(0, "127.0.0.1", () => {
      process.send?.({ ready: true, port: server.address().port });
      if (!process.send) console.log(`listening on ${server.address().port}`);
    }),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
const stop = () => {
  server.close();
  server.closeAllConnections();
  void pgl.release().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("disconnect", stop);
