// The service's log: JSON lines on standard output, levels as names and times in ISO 8601 (what log shippers read
// without a mapping). In a terminal (LOG_FORMAT=auto, standard output a TTY) the same entries are printed as readable
// lines by pino-pretty, in this process (no worker thread), so a developer running `npm start` reads them as text.
// JSON lines are written without blocking the request that logs them: a line goes out as soon as the previous write
// is done, the lines that came meanwhile in one write (under load, one write for many requests' access-log lines),
// and what is still buffered when the process exits is written before it does (pino's own exit hook).
import pino from "pino";
import type PinoPretty from "pino-pretty";
import { config } from "./config";

// Standard output, or standard error in the CLI (src/cli/log-to-stderr.ts): its standard output is its answer.
const fd = process.env.PRS_LOG_FD === "2" ? 2 : 1;
const readable = config.LOG_FORMAT === "pretty" || (config.LOG_FORMAT === "auto" && (fd === 2 ? process.stderr : process.stdout).isTTY === true);

export const logger = pino(
  {
    level: config.LOG_LEVEL,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  // pino-pretty is loaded only for a terminal: JSON output never needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used (see above)
  readable ? (require("pino-pretty") as typeof PinoPretty)({ sync: true, colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname", destination: fd }) : pino.destination({ dest: fd, sync: false }),
);
