// The service's log: JSON lines on standard output, levels as names and times in ISO 8601 (what log shippers read
// without a mapping). In a terminal (LOG_FORMAT=auto, standard output a TTY) the same entries are printed as readable
// lines by pino-pretty, in this process (no worker thread), so a developer running `npm start` reads them as text.
import pino from "pino";
import pretty from "pino-pretty";
import { config } from "./config";

const readable = config.LOG_FORMAT === "pretty" || (config.LOG_FORMAT === "auto" && process.stdout.isTTY === true);

export const logger = pino(
  {
    level: config.LOG_LEVEL,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  readable ? pretty({ sync: true, colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" }) : undefined,
);
