// `npm start`'s node arguments (its flags and dist/server.js), read from package.json's start script, so that the
// benches run the service exactly as users start it.
import { readFileSync } from "node:fs";
import path from "node:path";

const script: string = JSON.parse(readFileSync(path.resolve(__dirname, "..", "package.json"), "utf8")).scripts.start;
const args = /exec node (.*dist\/server\.js)$/.exec(script)?.[1];
if (!args) throw new Error(`package.json's start script does not end with "exec node … dist/server.js": ${script}`);

export const START_ARGS: string[] = args.split(" ");
