// The service's log: JSON lines on standard output, levels as names and times in ISO 8601 (what log shippers read
// without a mapping).
import pino from "pino";
import { config } from "./config";

export const logger = pino({
  level: config.LOG_LEVEL,
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});
