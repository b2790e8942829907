// The time budget of one PostgreSQL statement (DB_TIMEOUT_MS), kept by the client: past it the client sends
// PostgreSQL's cancel request for its connection, the statement fails with SQLSTATE 57014 (answered 504) and its
// transaction rolls back — as JDBC's query timeout does. Not the server's statement_timeout: sent as a startup
// parameter it is refused by transaction poolers (PgBouncer: "unsupported startup parameter"), a session SET would
// leak to other clients of the pooled server connection, and a SET LOCAL costs a transaction and two more round trips
// per statement (half the throughput, measured: README "Behind a connection pooler"). A timer costs about a
// microsecond, and PgBouncer forwards a cancel to the server connection its client is using.
import net from "node:net";
import type pg from "pg";

/** PostgreSQL's CancelRequest code (protocol 3.0, "Message Formats"). */
const CANCEL_REQUEST_CODE = 80877102;
/** How long a cancel request's connection waits for the server to close it (it closes it at once). */
const CANCEL_WAIT_MS = 30_000;

type Callback = (err: Error | null, result?: unknown) => void;
type Query = (config: unknown, values?: unknown, callback?: Callback) => unknown;
/** What pg keeps of the server's BackendKeyData (the pooler's own pair behind PgBouncer). */
type Keyed = { processID: number | null; secretKey: number | null };

/** Sends a cancel request for `client`'s connection on a connection of its own (fire and forget). */
function sendCancel(client: pg.Client): void {
  const { processID, secretKey } = client as unknown as Keyed;
  if (processID === null || secretKey === null) return;
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeInt32BE(processID, 8);
  packet.writeInt32BE(secretKey, 12);
  const socket = client.host.startsWith("/") ? net.connect(`${client.host}/.s.PGSQL.${client.port}`) : net.connect(client.port, client.host);
  socket.on("error", () => socket.destroy());
  // The server closes the connection once the cancel is passed on. Closing it first makes PgBouncer 1.18 drop the
  // cancel ("client unexpected eof"), and closing it while PgBouncer forwards it ends PgBouncer ("bad client state").
  socket.write(packet);
  socket.setTimeout(CANCEL_WAIT_MS, () => socket.destroy());
}

/**
 * Gives every statement of `client` a budget of `ms`: a cancel request once it is past, and again each `ms` after
 * while no answer has come (a pooler drops a cancel for a client still queued for a server connection).
 * Statements are run one at a time on a pooled client (pg's pool and Prisma's transactions), so the cancel can only
 * reach the statement whose budget ran out — or, if that one finished in the instant the cancel was sent, the
 * connection's next statement, which then answers 504 as well.
 */
export function keepStatementBudget(client: pg.PoolClient, ms: number): void {
  const query = client.query.bind(client) as Query;
  const budgeted: Query = (config, values, callback) => {
    // A submittable (a cursor, a stream) reports its end its own way: run as given.
    if (typeof (config as { submit?: unknown } | null)?.submit === "function") return query(config, values, callback);
    if (typeof values === "function") [values, callback] = [undefined, values as Callback];
    const timer = setInterval(() => sendCancel(client), ms);
    timer.unref();
    if (callback) {
      const done = callback;
      return query(config, values, (err, result) => {
        clearInterval(timer);
        done(err, result);
      });
    }
    return (query(config, values) as Promise<unknown>).then(
      (result) => (clearInterval(timer), result),
      (err: unknown) => {
        clearInterval(timer);
        throw err;
      },
    );
  };
  (client as unknown as { query: Query }).query = budgeted;
}
