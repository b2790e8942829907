// The service's log: JSON lines on standard output, levels as names and times in ISO 8601 (what log shippers read
// without a mapping). In a terminal (LOG_FORMAT=auto, standard output a TTY) the same entries are printed as readable
// lines by pino-pretty, in this process (no worker thread), so a developer running `npm start` reads them as text.
// JSON lines are gathered and written together: when 4 kB have gathered (under load, one write for a few dozen
// requests' access-log lines), every 100 ms, and when the process exits. Each write is synchronous, so no line is
// ever in flight when the process ends (an exit, a fatal error), and a quiet process's lines appear within 100 ms.
import pino from "pino";
import type PinoPretty from "pino-pretty";
import { config } from "./config";

// Standard output, or standard error in the CLI (src/cli/log-to-stderr.ts): its standard output is its answer.
const fd = process.env.PRS_LOG_FD === "2" ? 2 : 1;
const readable = config.LOG_FORMAT === "pretty" || (config.LOG_FORMAT === "auto" && (fd === 2 ? process.stderr : process.stdout).isTTY === true);

/** Where JSON lines go (none in a terminal, which pino-pretty writes to). */
const lines = readable ? undefined : pino.destination({ dest: fd, sync: true, minLength: 4096 });
if (lines) {
  setInterval(() => lines.flush(), 100).unref();
  process.on("exit", () => {
    try {
      lines.flushSync();
    } catch {
      // Standard output is gone (its reader closed it): nothing more can be written, and the exit goes on.
    }
  });
}

export const logger = pino(
  {
    level: config.LOG_LEVEL,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  // pino-pretty is loaded only for a terminal: JSON output never needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used (see above)
  readable ? (require("pino-pretty") as typeof PinoPretty)({ sync: true, colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname", destination: fd }) : lines!,
);
