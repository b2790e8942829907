// Reads the project's `.env` (if there is one) into the environment before the configuration is read: copy
// `.env.example` to `.env` and edit. Variables already set in the environment win. Not read under NODE_ENV=test, so a
// developer's `.env` (a DATABASE_URL, say) never reaches the processes the test suite starts.
import { existsSync } from "node:fs";
import path from "node:path";

const file = path.resolve(__dirname, "..", ".env");
if (process.env.NODE_ENV !== "test" && existsSync(file)) process.loadEnvFile(file);
