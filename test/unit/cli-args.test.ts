// The `prs` argument parser (src/cli/args.ts) as a pure function: which help it prints and what it refuses, with
// the message the user sees. test/system/cli.test.ts checks the process around it (exit codes, stderr, no database).
import { parseInvocation } from "../../src/cli/args";
import { HELP, UsageError } from "../../src/cli/usage";
import { version } from "../../package.json";

const TEAM = "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10";

function usageError(argv: string[]): UsageError {
  try {
    parseInvocation(argv);
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error(`prs ${argv.join(" ")} was accepted`);
}

it.each([[["--version"]], [["-V"]], [["version"]]])("prs %j prints the version", (argv) => {
  expect(parseInvocation(argv)).toEqual({ help: `prs ${version}` });
});

describe("help", () => {
  it.each([[["--help"]], [["-h"]], [["help"]]])("prs %j prints the tool's help", (argv) => {
    expect(parseInvocation(argv)).toEqual({ help: HELP.main });
    expect(HELP.main).toMatch(/^Usage: prs <command>/);
  });

  it.each([
    [["team", "--help"], "Usage: prs team"],
    [["key", "-h"], "Usage: prs key"],
    [["team", "create", "--help"], "Usage: prs team create"],
    [["team", "list", "--help"], "Usage: prs team list"],
    [["key", "create", "--help"], "Usage: prs key create"],
    [["key", "list", "-h"], "Usage: prs key list"],
    [["key", "revoke", "--help"], "Usage: prs key revoke"],
    // --help wins over missing or bad options
    [["key", "create", "--team", "nope", "--help"], "Usage: prs key create"],
  ])("prs %j prints that command's help", (argv, usage) => {
    const result = parseInvocation(argv);
    expect("help" in result && result.help).toContain(usage);
  });

  it("documents every option of key create", () => {
    for (const option of ["--team", "--name", "--description", "--expires", "--permissions", "--tier"]) expect(HELP.keyCreate).toContain(option);
  });
});

describe("mistakes", () => {
  it.each([
    [[], "Missing command", HELP.main],
    [["frob"], "Unknown command 'frob'", HELP.main],
    [["key"], "Missing key command", HELP.key],
    [["key", "rotate"], "Unknown command 'key rotate'", HELP.key],
    [["team", "create", "--name", "X", "--admin", "Y", "--colour", "red"], "Unknown option '--colour'", HELP.teamCreate],
    [["team", "create", "--admin", "Y"], "Missing required option --name", HELP.teamCreate],
    [["team", "create", "--name", " ", "--admin", "Y"], "--name must not be empty", HELP.teamCreate],
    [["team", "create", "--name", "x".repeat(1001), "--admin", "Y"], "--name must be at most 1000 characters", HELP.teamCreate],
    [["team", "list", "extra"], "Unexpected argument 'extra'", HELP.teamList],
    [["key", "create", "--name", "k"], "Missing required option --team", HELP.keyCreate],
    [["key", "create", "--team", "team-1", "--name", "k"], "--team must be a team id (a uuid), got 'team-1'", HELP.keyCreate],
    [["key", "create", "--team", TEAM], "Missing required option --name", HELP.keyCreate],
    [["key", "create", "--team", TEAM, "--name", "k", "--expires", "tomorrow"], "--expires must be an ISO 8601 date or date-time (e.g. 2027-01-01), got 'tomorrow'", HELP.keyCreate],
    [["key", "create", "--team", TEAM, "--name", "k", "--expires", "2027-13-45"], "--expires must be an ISO 8601 date", HELP.keyCreate],
    [["key", "create", "--team", TEAM, "--name", "k", "--expires", "2001-01-01"], "--expires must be in the future, got '2001-01-01'", HELP.keyCreate],
    [["key", "create", "--team", TEAM, "--name", "k", "--permissions", "reports:read,houses:read"], "--permissions: Unknown permission 'houses:read'", HELP.keyCreate],
    [["key", "create", "--team", TEAM, "--name", "k", "--permissions", "reports:fly"], "Unknown permission 'reports:fly'", HELP.keyCreate],
    [["key", "create", "--team", TEAM, "--name", "k", "--tier", "platinum"], "Unknown tier 'platinum': tiers are free, standard, pro, enterprise", HELP.keyCreate],
    [["key", "create", "--team", TEAM, "--name"], "argument missing", HELP.keyCreate],
    [["key", "list"], "Missing required option --team", HELP.keyList],
    [["key", "revoke"], "Missing argument <key>", HELP.keyRevoke],
    [["key", "revoke", "a", "b"], "Unexpected argument 'b'", HELP.keyRevoke],
    [["key", "roll", "prs_sk_live_abcd", "--overlap", "constructor"], "--overlap must be 0, 1h, 24h or 7d, got 'constructor'", HELP.keyRoll],
    [["attendees", "show", "--team", TEAM], "Give exactly one of --email or --phone", HELP.attendeesShow],
    [["attendees", "erase", "--team", TEAM, "--email", "a@example.com", "--phone", "555"], "Give exactly one of --email or --phone", HELP.attendeesErase],
    [["keys", "rotate-data-key", "--batch", "0"], "--batch must be a whole number of rows from 1 to 99999, got '0'", HELP.keysRotateDataKey],
    [["documents", "list"], "Missing required option --team", HELP.documentsList],
  ])("prs %j is refused: %s", (argv, message, help) => {
    const err = usageError(argv);
    expect(err.message).toContain(message);
    expect(err.help).toBe(help);
  });
});

describe("valid commands", () => {
  it.each([
    [["team", "create", "--name", "Harbor Homes", "--admin", "Dana", "--plan", "pro"]],
    [["team", "list"]],
    [["key", "create", "--team", TEAM, "--name", "Zapier", "--description", "sync", "--permissions", "reports:read,showings:*", "--tier", "pro", "--expires", "2099-01-01"]],
    [["key", "create", "--team", TEAM.toUpperCase(), "--name", "k", "--expires", "2099-01-01T10:00:00+02:00"]],
    [["key", "list", "--team", TEAM]],
    [["key", "revoke", "prs_sk_live_abcd"]],
  ])("prs %j is accepted", (argv) => {
    expect(parseInvocation(argv)).toEqual({ run: expect.any(Function) });
  });
});
