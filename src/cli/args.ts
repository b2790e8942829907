// Argument parsing of the `prs` command line (./prs.ts runs it): finds the command and checks every option before
// anything opens the database, so --help and mistakes are instant and never create an embedded database.
import packageJson from "../../package.json";
import { parseArgs } from "node:util";
import type { RollOverlap } from "../auth/api-keys";
import { parsePermissions, type Permissions } from "../auth/permissions";
import { TIERS } from "../auth/tiers";
import { HELP, UsageError } from "./usage";

type Values = Record<string, string | boolean | undefined>;
type Commands = typeof import("./commands");
type Work = (commands: Commands) => Promise<string[]>;

interface CommandSpec {
  help: string;
  options: Record<string, { type: "string" | "boolean" }>;
  positionals?: [name: string];
  /** Checks the arguments (throwing UsageError) and returns the work to do on the database. */
  prepare(args: Arguments, positionals: string[]): Work;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const TIER_NAMES = Object.keys(TIERS);

/** --overlap of `key roll`: the GraphQL overlaps (docs/api.md "Key roll") in hours or days. */
const OVERLAPS: Record<string, RollOverlap> = { "0": "NONE", "0h": "NONE", none: "NONE", "1h": "HOUR", "24h": "DAY", "1d": "DAY", "7d": "WEEK", "168h": "WEEK" };

/** One invocation's options, each read and checked by name; a refusal prints the command's own help. */
class Arguments {
  constructor(
    private readonly values: Values,
    private readonly help: string,
  ) {}

  refuse(message: string): never {
    throw new UsageError(message, this.help);
  }

  flag(name: string): boolean {
    return this.values[name] === true;
  }

  text(name: string, required: true): string;
  text(name: string, required?: false): string | undefined;
  text(name: string, required = false): string | undefined {
    const value = this.values[name];
    if (value === undefined) return required ? this.refuse(`Missing required option --${name}`) : undefined;
    const trimmed = String(value).trim();
    if (!trimmed) this.refuse(`--${name} must not be empty`);
    if (trimmed.length > 1000) this.refuse(`--${name} must be at most 1000 characters`);
    return trimmed;
  }

  teamId(): string {
    const id = this.text("team", true);
    return UUID.test(id) ? id : this.refuse(`--team must be a team id (a uuid), got '${id}'`);
  }

  /** --showing: a showing's id or its unique_showing_key. */
  showing(): string {
    return this.text("showing", true);
  }

  expiry(): Date | undefined {
    const value = this.text("expires");
    if (value === undefined) return undefined;
    const date = new Date(value);
    if (!ISO_DATE.test(value) || Number.isNaN(date.getTime())) {
      this.refuse(`--expires must be an ISO 8601 date or date-time (e.g. 2027-01-01), got '${value}'`);
    }
    if (date.getTime() <= Date.now()) this.refuse(`--expires must be in the future, got '${value}'`);
    return date;
  }

  /** --email or --phone of the attendee commands: exactly one. */
  person(): { email?: string; phone?: string } {
    const email = this.text("email");
    const phone = this.text("phone");
    if ((email === undefined) === (phone === undefined)) this.refuse("Give exactly one of --email or --phone");
    return email !== undefined ? { email } : { phone };
  }

  /** --base-url and --qr of `sign-in-links create`. */
  formAddress(): { baseUrl?: string; qr?: string } {
    const baseUrl = this.text("base-url");
    const qr = this.text("qr");
    if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(baseUrl)) this.refuse(`--base-url must be an http(s) address, got '${baseUrl}'`);
    if (qr !== undefined && !/\.(svg|png)$/i.test(qr)) this.refuse(`--qr must name a .svg or .png file, got '${qr}'`);
    if (qr !== undefined && baseUrl === undefined) this.refuse("--qr needs --base-url (the QR code holds the form's full URL)");
    return { baseUrl, qr };
  }

  permissions(): Permissions | undefined {
    const value = this.text("permissions");
    if (value === undefined) return undefined;
    try {
      return parsePermissions(value);
    } catch (err) {
      return this.refuse(`--permissions: ${(err as Error).message}`);
    }
  }

  tier(): string | undefined {
    const value = this.text("tier");
    if (value !== undefined && !TIER_NAMES.includes(value)) this.refuse(`Unknown tier '${value}': tiers are ${TIER_NAMES.join(", ")}`);
    return value;
  }

  overlap(): RollOverlap {
    const value = this.text("overlap");
    if (value === undefined) return "NONE";
    const key = value.toLowerCase();
    // Own keys only: "constructor" or "toString" is no overlap.
    return Object.hasOwn(OVERLAPS, key) ? OVERLAPS[key] : this.refuse(`--overlap must be 0, 1h, 24h or 7d, got '${value}'`);
  }

  /** A number of rows: a whole number of at most `digits` digits from 1, or `fallback` when the option is not given. */
  rowCount(name: string, digits: number, fallback: number): number {
    const value = this.text(name);
    if (value === undefined) return fallback;
    if (!new RegExp(`^\\d{1,${digits}}$`).test(value) || Number(value) < 1) {
      this.refuse(`--${name} must be a whole number of rows from 1 to ${"9".repeat(digits)}, got '${value}'`);
    }
    return Number(value);
  }
}

/** The attendee commands' module, loaded with the database (as ./commands is). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, as prs.ts loads ./commands
const attendeeCommands = () => require("./attendee-commands") as typeof import("./attendee-commands");
/** The sign-in link commands' module, loaded with the database (as ./commands is). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, as prs.ts loads ./commands
const signInCommands = () => require("./sign-in-commands") as typeof import("./sign-in-commands");

const TEAM = { team: { type: "string" } } as const;
const PERSON = { ...TEAM, email: { type: "string" }, phone: { type: "string" } } as const;
const SHOWING = { ...TEAM, showing: { type: "string" } } as const;

/** A command that lists what one team (--team) has. */
const listOfTeam = (help: string, list: (commands: Commands, teamId: string) => Promise<string[]>): CommandSpec => ({
  help,
  options: TEAM,
  prepare: (a) => {
    const id = a.teamId();
    return (c) => list(c, id);
  },
});

/** An attendee command about one person of a team, named by --email or --phone. */
const aboutPerson = (help: string, command: "showAttendee" | "eraseAttendee"): CommandSpec => ({
  help,
  options: PERSON,
  prepare: (a) => {
    const [id, who] = [a.teamId(), a.person()];
    return () => attendeeCommands()[command](id, who);
  },
});

const COMMANDS: Record<string, CommandSpec> = {
  "team create": {
    help: HELP.teamCreate,
    options: { name: { type: "string" }, admin: { type: "string" }, plan: { type: "string" } },
    prepare: (a) => {
      const options = { name: a.text("name", true), admin: a.text("admin", true), plan: a.text("plan") };
      return (c) => c.createTeam(options);
    },
  },
  "team list": { help: HELP.teamList, options: {}, prepare: () => (c) => c.listTeams() },
  "key create": {
    help: HELP.keyCreate,
    options: {
      ...TEAM,
      name: { type: "string" },
      description: { type: "string" },
      expires: { type: "string" },
      permissions: { type: "string" },
      tier: { type: "string" },
      "trusted-documents-only": { type: "boolean" },
    },
    prepare: (a) => {
      const options = {
        teamId: a.teamId(),
        name: a.text("name", true),
        description: a.text("description"),
        expiresAt: a.expiry(),
        permissions: a.permissions(),
        tier: a.tier(),
        trustedDocumentsOnly: a.flag("trusted-documents-only"),
      };
      return (c) => c.createKey(options);
    },
  },
  "key list": listOfTeam(HELP.keyList, (c, id) => c.listKeys(id)),
  "key revoke": { help: HELP.keyRevoke, options: {}, positionals: ["key"], prepare: (_a, [ref]) => (c) => c.revokeKey(ref) },
  "key roll": {
    help: HELP.keyRoll,
    options: { overlap: { type: "string" } },
    positionals: ["key"],
    prepare: (a, [ref]) => {
      const overlap = a.overlap();
      return (c) => c.rollKey(ref, overlap);
    },
  },
  "attendees show": aboutPerson(HELP.attendeesShow, "showAttendee"),
  "attendees erase": aboutPerson(HELP.attendeesErase, "eraseAttendee"),
  "keys rotate-data-key": {
    help: HELP.keysRotateDataKey,
    options: { batch: { type: "string" } },
    prepare: (a) => {
      const batch = a.rowCount("batch", 5, 500);
      return () => attendeeCommands().rotateDataKey(batch);
    },
  },
  "sign-in-links create": {
    help: HELP.signInLinksCreate,
    options: { ...SHOWING, label: { type: "string" }, expires: { type: "string" }, "base-url": { type: "string" }, qr: { type: "string" } },
    prepare: (a) => {
      const options = { teamId: a.teamId(), showing: a.showing(), label: a.text("label"), expiresAt: a.expiry(), ...a.formAddress() };
      if (options.label !== undefined && options.label.length > 200) a.refuse("--label must be at most 200 characters");
      return () => signInCommands().createLink(options);
    },
  },
  "sign-in-links list": {
    help: HELP.signInLinksList,
    options: SHOWING,
    prepare: (a) => {
      const [id, ref] = [a.teamId(), a.showing()];
      return () => signInCommands().listLinks(id, ref);
    },
  },
  "sign-in-links revoke": {
    help: HELP.signInLinksRevoke,
    options: SHOWING,
    positionals: ["link id"],
    prepare: (a, [link]) => {
      const [id, ref] = [a.teamId(), a.showing()];
      if (!UUID.test(link)) a.refuse(`<link id> must be a sign-in link's id (a uuid), got '${link}'`);
      return () => signInCommands().revokeLink(id, ref, link);
    },
  },
  "documents register": {
    help: HELP.documentsRegister,
    options: TEAM,
    positionals: ["manifest.json"],
    prepare: (a, [file]) => {
      const id = a.teamId();
      return (c) => c.registerDocuments(id, file);
    },
  },
  "documents list": listOfTeam(HELP.documentsList, (c, id) => c.listDocuments(id)),
};

const GROUP_HELP: Record<string, string> = { team: HELP.team, key: HELP.key, documents: HELP.documents, attendees: HELP.attendees, keys: HELP.keys, "sign-in-links": HELP.signInLinks };
const isHelp = (arg: string | undefined) => arg === "--help" || arg === "-h";

/** What an invocation asks for: a help text to print, or work to run on the database. */
export type Invocation = { help: string } | { run: (commands: Commands) => Promise<string[]> };

/**
 * Finds the command and checks its arguments, without touching the database. Throws UsageError (exit code 2) for
 * a bad invocation.
 */
const VERSION = packageJson.version;

export function parseInvocation(argv: string[]): Invocation {
  const [group, action, ...rest] = argv;
  if (isHelp(group) || group === "help") return { help: HELP.main };
  if (group === "--version" || group === "-V" || group === "version") return { help: `prs ${VERSION}` };
  if (!group) throw new UsageError("Missing command", HELP.main);
  if (!GROUP_HELP[group]) throw new UsageError(`Unknown command '${group}'`, HELP.main);
  if (isHelp(action)) return { help: GROUP_HELP[group] };
  if (!action) throw new UsageError(`Missing ${group} command`, GROUP_HELP[group]);
  const spec = COMMANDS[`${group} ${action}`];
  if (!spec) throw new UsageError(`Unknown command '${group} ${action}'`, GROUP_HELP[group]);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { ...spec.options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message, spec.help);
  }
  if (parsed.values.help) return { help: spec.help };
  const expected = spec.positionals ?? [];
  if (parsed.positionals.length > expected.length) {
    throw new UsageError(`Unexpected argument '${parsed.positionals[expected.length]}'`, spec.help);
  }
  if (parsed.positionals.length < expected.length) throw new UsageError(`Missing argument <${expected[parsed.positionals.length]}>`, spec.help);
  return { run: spec.prepare(new Arguments(parsed.values, spec.help), parsed.positionals) };
}
