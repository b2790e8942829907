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

interface CommandSpec {
  help: string;
  options: Record<string, { type: "string" | "boolean" }>;
  positionals?: [name: string];
  /** Checks the arguments (throwing UsageError) and returns the work to do on the database. */
  prepare(values: Values, positionals: string[]): (commands: Commands) => Promise<string[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const TIER_NAMES = Object.keys(TIERS);

function text(values: Values, name: string, help: string, required: true): string;
function text(values: Values, name: string, help: string, required?: false): string | undefined;
function text(values: Values, name: string, help: string, required = false): string | undefined {
  const value = values[name];
  if (value === undefined) {
    if (required) throw new UsageError(`Missing required option --${name}`, help);
    return undefined;
  }
  const trimmed = String(value).trim();
  if (!trimmed) throw new UsageError(`--${name} must not be empty`, help);
  if (trimmed.length > 1000) throw new UsageError(`--${name} must be at most 1000 characters`, help);
  return trimmed;
}

function teamId(values: Values, help: string): string {
  const id = text(values, "team", help, true);
  if (!UUID.test(id)) throw new UsageError(`--team must be a team id (a uuid), got '${id}'`, help);
  return id;
}

function expiry(values: Values, help: string): Date | undefined {
  const value = text(values, "expires", help);
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!ISO_DATE.test(value) || Number.isNaN(date.getTime())) {
    throw new UsageError(`--expires must be an ISO 8601 date or date-time (e.g. 2027-01-01), got '${value}'`, help);
  }
  if (date.getTime() <= Date.now()) throw new UsageError(`--expires must be in the future, got '${value}'`, help);
  return date;
}

/** --email or --phone of the attendee commands: exactly one. */
function person(values: Values, help: string): { email?: string; phone?: string } {
  const email = text(values, "email", help);
  const phone = text(values, "phone", help);
  if ((email === undefined) === (phone === undefined)) throw new UsageError("Give exactly one of --email or --phone", help);
  return email !== undefined ? { email } : { phone };
}

/** The attendee commands' module, loaded with the database (as ./commands is). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, as prs.ts loads ./commands
const attendeeCommands = () => require("./attendee-commands") as typeof import("./attendee-commands");
/** The sign-in link commands' module, loaded with the database (as ./commands is). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, as prs.ts loads ./commands
const signInCommands = () => require("./sign-in-commands") as typeof import("./sign-in-commands");

/** --showing: a showing's id or its unique_showing_key. */
const showing = (values: Values, help: string): string => text(values, "showing", help, true);

/** --base-url and --qr of `sign-in-links create`. */
function formAddress(values: Values, help: string): { baseUrl?: string; qr?: string } {
  const baseUrl = text(values, "base-url", help);
  const qr = text(values, "qr", help);
  if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) address, got '${baseUrl}'`, help);
  if (qr !== undefined && !/\.(svg|png)$/i.test(qr)) throw new UsageError(`--qr must name a .svg or .png file, got '${qr}'`, help);
  if (qr !== undefined && baseUrl === undefined) throw new UsageError("--qr needs --base-url (the QR code holds the form's full URL)", help);
  return { baseUrl, qr };
}

function permissions(values: Values, help: string): Permissions | undefined {
  const value = text(values, "permissions", help);
  if (value === undefined) return undefined;
  try {
    return parsePermissions(value);
  } catch (err) {
    throw new UsageError(`--permissions: ${(err as Error).message}`, help);
  }
}

function tier(values: Values, help: string): string | undefined {
  const value = text(values, "tier", help);
  if (value !== undefined && !TIER_NAMES.includes(value)) {
    throw new UsageError(`Unknown tier '${value}': tiers are ${TIER_NAMES.join(", ")}`, help);
  }
  return value;
}

/** --overlap of `key roll`: the GraphQL overlaps (docs/api.md "Key roll") in hours or days. */
const OVERLAPS: Record<string, RollOverlap> = { "0": "NONE", "0h": "NONE", none: "NONE", "1h": "HOUR", "24h": "DAY", "1d": "DAY", "7d": "WEEK", "168h": "WEEK" };

function overlap(values: Values, help: string): RollOverlap {
  const value = text(values, "overlap", help);
  if (value === undefined) return "NONE";
  const known = OVERLAPS[value.toLowerCase()];
  if (!known) throw new UsageError(`--overlap must be 0, 1h, 24h or 7d, got '${value}'`, help);
  return known;
}

const COMMANDS: Record<string, CommandSpec> = {
  "team create": {
    help: HELP.teamCreate,
    options: { name: { type: "string" }, admin: { type: "string" }, plan: { type: "string" } },
    prepare: (v) => {
      const h = HELP.teamCreate;
      const options = { name: text(v, "name", h, true), admin: text(v, "admin", h, true), plan: text(v, "plan", h) };
      return (c) => c.createTeam(options);
    },
  },
  "team list": { help: HELP.teamList, options: {}, prepare: () => (c) => c.listTeams() },
  "key create": {
    help: HELP.keyCreate,
    options: {
      team: { type: "string" },
      name: { type: "string" },
      description: { type: "string" },
      expires: { type: "string" },
      permissions: { type: "string" },
      tier: { type: "string" },
      "trusted-documents-only": { type: "boolean" },
    },
    prepare: (v) => {
      const h = HELP.keyCreate;
      const options = {
        teamId: teamId(v, h),
        name: text(v, "name", h, true),
        description: text(v, "description", h),
        expiresAt: expiry(v, h),
        permissions: permissions(v, h),
        tier: tier(v, h),
        trustedDocumentsOnly: v["trusted-documents-only"] === true,
      };
      return (c) => c.createKey(options);
    },
  },
  "key list": {
    help: HELP.keyList,
    options: { team: { type: "string" } },
    prepare: (v) => {
      const id = teamId(v, HELP.keyList);
      return (c) => c.listKeys(id);
    },
  },
  "key revoke": { help: HELP.keyRevoke, options: {}, positionals: ["key"], prepare: (_v, [ref]) => (c) => c.revokeKey(ref) },
  "key roll": {
    help: HELP.keyRoll,
    options: { overlap: { type: "string" } },
    positionals: ["key"],
    prepare: (v, [ref]) => {
      const value = overlap(v, HELP.keyRoll);
      return (c) => c.rollKey(ref, value);
    },
  },
  "attendees show": {
    help: HELP.attendeesShow,
    options: { team: { type: "string" }, email: { type: "string" }, phone: { type: "string" } },
    prepare: (v) => {
      const [id, who] = [teamId(v, HELP.attendeesShow), person(v, HELP.attendeesShow)];
      return () => attendeeCommands().showAttendee(id, who);
    },
  },
  "attendees erase": {
    help: HELP.attendeesErase,
    options: { team: { type: "string" }, email: { type: "string" }, phone: { type: "string" } },
    prepare: (v) => {
      const [id, who] = [teamId(v, HELP.attendeesErase), person(v, HELP.attendeesErase)];
      return () => attendeeCommands().eraseAttendee(id, who);
    },
  },
  "keys rotate-data-key": {
    help: HELP.keysRotateDataKey,
    options: { batch: { type: "string" } },
    prepare: (v) => {
      const value = text(v, "batch", HELP.keysRotateDataKey) ?? "500";
      if (!/^\d{1,5}$/.test(value) || Number(value) < 1) throw new UsageError(`--batch must be a whole number of rows from 1 to 99999, got '${value}'`, HELP.keysRotateDataKey);
      return () => attendeeCommands().rotateDataKey(Number(value));
    },
  },
  "sign-in-links create": {
    help: HELP.signInLinksCreate,
    options: { team: { type: "string" }, showing: { type: "string" }, label: { type: "string" }, expires: { type: "string" }, "base-url": { type: "string" }, qr: { type: "string" } },
    prepare: (v) => {
      const help = HELP.signInLinksCreate;
      const options = { teamId: teamId(v, help), showing: showing(v, help), label: text(v, "label", help), expiresAt: expiry(v, help), ...formAddress(v, help) };
      if (options.label !== undefined && options.label.length > 200) throw new UsageError("--label must be at most 200 characters", help);
      return () => signInCommands().createLink(options);
    },
  },
  "sign-in-links list": {
    help: HELP.signInLinksList,
    options: { team: { type: "string" }, showing: { type: "string" } },
    prepare: (v) => {
      const [id, ref] = [teamId(v, HELP.signInLinksList), showing(v, HELP.signInLinksList)];
      return () => signInCommands().listLinks(id, ref);
    },
  },
  "sign-in-links revoke": {
    help: HELP.signInLinksRevoke,
    options: { team: { type: "string" }, showing: { type: "string" } },
    positionals: ["link id"],
    prepare: (v, [link]) => {
      const [id, ref] = [teamId(v, HELP.signInLinksRevoke), showing(v, HELP.signInLinksRevoke)];
      if (!UUID.test(link)) throw new UsageError(`<link id> must be a sign-in link's id (a uuid), got '${link}'`, HELP.signInLinksRevoke);
      return () => signInCommands().revokeLink(id, ref, link);
    },
  },
  "documents register": {
    help: HELP.documentsRegister,
    options: { team: { type: "string" } },
    positionals: ["manifest.json"],
    prepare: (v, [file]) => {
      const id = teamId(v, HELP.documentsRegister);
      return (c) => c.registerDocuments(id, file);
    },
  },
  "documents list": {
    help: HELP.documentsList,
    options: { team: { type: "string" } },
    prepare: (v) => {
      const id = teamId(v, HELP.documentsList);
      return (c) => c.listDocuments(id);
    },
  },
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
  return { run: spec.prepare(parsed.values, parsed.positionals) };
}
