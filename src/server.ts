// Starts the service: one server process, or with WEB_CONCURRENCY > 1 a cluster primary that runs that many
// (src/cluster.ts). The primary loads only what it needs: the service itself is loaded in the processes that serve.
import "./env-file"; // first: .env is read before the configuration
import { isClusterPrimary, runPrimary } from "./cluster";
import { config } from "./config";
import { logger } from "./logger";

if (isClusterPrimary()) {
  runPrimary(config.WEB_CONCURRENCY);
} else {
  // Required here, not imported above: a cluster primary never loads the service.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded in a worker only (see above)
  const { startService } = require("./service") as typeof import("./service");
  startService().catch((err) => {
    logger.fatal({ err }, "failed to start");
    process.exit(1);
  });
}
