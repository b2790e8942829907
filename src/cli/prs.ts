// The `prs` command line: team and API-key management without a dashboard (docs/api.md "Management without a
// dashboard"). Arguments are checked (./args.ts) before the database is opened, so --help and mistakes are instant
// and never create an embedded database by accident.
import "./log-to-stderr"; // first: the log never mixes with the answer on standard output
import "../env-file"; // first: .env is read before the configuration
import { parseInvocation } from "./args";
import { embeddedDatabaseInUse } from "./embedded-lock";
import { CommandError, UsageError } from "./usage";

function print(lines: string[]): void {
  process.stdout.write(lines.join("\n") + "\n");
}

async function main(argv: string[]): Promise<number> {
  try {
    const invocation = parseInvocation(argv);
    if ("help" in invocation) {
      print([invocation.help]);
      return 0;
    }
    const inUse = embeddedDatabaseInUse();
    if (inUse) throw new CommandError(inUse);
    // Loaded only now: the database modules take a while to load, and --help and mistakes need none of them.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
    const { database } = require("../db") as typeof import("../db");
    try {
      await database.migrate();
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
      print(await invocation.run(require("./commands") as typeof import("./commands")));
    } finally {
      await database.close();
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      // The synopsis only; the full text is one --help away.
      process.stderr.write(`prs: ${err.message}\n${err.help.split("\n\n")[0]}\nRun with --help for details.\n`);
      return 2;
    }
    process.stderr.write(`prs: ${err instanceof CommandError ? err.message : ((err as Error).stack ?? String(err))}\n`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
