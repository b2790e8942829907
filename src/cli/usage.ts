// Help texts of the `prs` CLI and the error type for bad invocations (exit code 2, help hint on stderr).
export class UsageError extends Error {
  constructor(
    message: string,
    readonly help: string,
  ) {
    super(message);
  }
}

/** A failure of a well-formed command (unknown team, key not found): exit code 1. */
export class CommandError extends Error {}

const ENV_NOTE = `Database: the server's configuration — DATABASE_URL (PostgreSQL) or else the embedded PGlite
database in PGLITE_DATA_DIR (default ./data/pglite; stop the server first, PGlite is single-process).
Pending migrations are applied first.`;

export const HELP = {
  main: `Usage: prs <command> [options]

Manage teams and API keys of the Property Report Service.

Commands:
  team create --name <name> --admin <admin name> [--plan <plan>]   create a team, print its id
  team list                                                        list teams
  key create --team <team id> --name <name> [options]              create a key, print it once
  key list --team <team id>                                        list a team's keys (never the keys)
  key revoke <key id | key prefix | full key>                      revoke a key at once
  key roll <key id | key prefix | full key> [--overlap <time>]     replace a key, print the new one once
  documents register --team <team id> <manifest.json>              register trusted GraphQL documents
  documents list --team <team id>                                  list a team's registered documents
  attendees show --team <team id> (--email <e> | --phone <p>)      everything held about one person
  attendees erase --team <team id> (--email <e> | --phone <p>)     erase one person's contact data
  keys rotate-data-key                                             re-encrypt attendee data with DATA_ENCRYPTION_KEY
  sign-in-links create --team <team id> --showing <showing> [...]  make an open house's sign-in form, print it once
  sign-in-links list --team <team id> --showing <showing>          list a showing's sign-in links (never tokens)
  sign-in-links revoke --team <team id> --showing <showing> <id>   revoke a sign-in link at once

Run 'prs <command> --help' for a command's options; 'prs --version' prints the version.
Exit codes: 0 success, 1 the command failed, 2 invalid arguments.

${ENV_NOTE}`,
  team: `Usage: prs team <create|list> [options]   ('prs team create --help' for details)`,
  key: `Usage: prs key <create|list|revoke|roll> [options]   ('prs key create --help' for details)`,
  attendees: `Usage: prs attendees <show|erase> --team <team id> (--email <e-mail> | --phone <phone>)   ('prs attendees erase --help' for details)`,
  attendeesShow: `Usage: prs attendees show --team <team id> (--email <e-mail> | --phone <phone>)

Prints, as JSON, everything the team holds about one person (docs/data-protection.md "Requests from a person"):
sign-ins, showings naming them, consent receipts. Recorded in the team's audit log (attendee.exported, actor: cli).`,
  attendeesErase: `Usage: prs attendees erase --team <team id> (--email <e-mail> | --phone <phone>)

Erases one person's contact data in the team: showings' attendee fields and sign-ins' contact fields cleared,
consent receipts kept with keyed hashes in place of address and browser, the person put on the suppression list
(never sent to a CRM again). Recorded in the team's audit log (attendee.erased, actor: cli).`,
  signInLinks: `Usage: prs sign-in-links <create|list|revoke> --team <team id> --showing <showing>   ('prs sign-in-links create --help' for details)`,
  signInLinksCreate: `Usage: prs sign-in-links create --team <team id> --showing <showing id or unique_showing_key> [options]

Makes a link to the public sign-in form of one open house (docs/open-house-sign-in.md) and prints the form's address
once: it holds the link's token, which is never shown again. Recorded in the team's audit log (sign_in_link.created,
actor: cli).
  --label      your name for it (at most 200 characters)
  --expires    when it stops answering: ISO 8601, in the future, at most 90 days ahead (default: in 7 days)
  --base-url   this service's public address (e.g. https://reports.example.com): the full URL is printed
  --qr <file>  also write a QR code of that URL for the door sign: a .svg or .png file (needs --base-url)`,
  signInLinksList: `Usage: prs sign-in-links list --team <team id> --showing <showing id or unique_showing_key>

Lists the showing's sign-in links, newest first: id, active, expired or revoked, until when, label. Never a token.`,
  signInLinksRevoke: `Usage: prs sign-in-links revoke --team <team id> --showing <showing id or unique_showing_key> <link id>

Revokes a sign-in link: its form answers 404 from now on, on every server. Recorded in the team's audit log
(sign_in_link.revoked, actor: cli).`,
  keys: `Usage: prs keys rotate-data-key   ('prs keys rotate-data-key --help' for details)`,
  keysRotateDataKey: `Usage: prs keys rotate-data-key [--batch <rows>]

Re-encrypts every attendee value (and the other secrets kept with the data key) not under DATA_ENCRYPTION_KEY, and
recomputes its keyed hashes, in batches (default 500 rows). Set the new key as DATA_ENCRYPTION_KEY and the old one in
DATA_ENCRYPTION_KEYS first (docs/data-protection.md "Rotating the key"). Safe to run again.`,
  documents: `Usage: prs documents <register|list> --team <team id>   ('prs documents register --help' for details)`,
  documentsRegister: `Usage: prs documents register --team <team id> <manifest.json>

Registers the GraphQL documents of a manifest as the team's trusted documents: the JSON file a GraphQL code
generator writes, { "<sha256 hex of the text>": "query …" } (keys written "sha256:<hex>" too). Each is checked against the schema and the GraphQL
limits; a hash that does not match its text, or a refused document, fails the whole manifest. Clients then send
documentId "sha256:<hash>" to /graphql.
  --team   the team's id (a uuid; see 'prs team list')`,
  documentsList: `Usage: prs documents list --team <team id>

Lists the team's registered documents: id (what clients send as documentId), registered, first line.`,
  teamCreate: `Usage: prs team create --name <name> --admin <admin name> [--plan <plan>]

Creates a team and prints its id (alone, on standard output).
  --name    the team's name (reports' created_by default)
  --admin   the team admin's name (reports' listing_agent default)
  --plan    subscription plan shown by GET /v1/users/me (default: standard)`,
  teamList: `Usage: prs team list

Lists every team: id, name, plan, created.`,
  keyCreate: `Usage: prs key create --team <team id> --name <name> [--description <text>] [--expires <ISO date>]
                      [--permissions <list>] [--tier <tier>] [--trusted-documents-only]

Creates an API key and prints it once, alone on the last line of standard output. Only its hash is stored.
  --team         the team's id (a uuid; see 'prs team list')
  --name         a name for the key
  --description  optional text
  --expires      optional expiry, an ISO 8601 date or date-time in the future, e.g. 2027-01-01 (midnight UTC)
                 or 2027-01-01T12:00:00Z; after it the key gets 401
  --permissions  comma-separated resource:action entries, resource:* for every action, e.g.
                 reports:read,reports:create,showings:*
                 resources: reports comparables showings social_media ai_insights team webhooks api_keys
                 audit_log (read only)
                 actions: read create update delete publish
                 default: every action on every resource except api_keys
  --tier         rate-limit tier: free, standard (default), pro, enterprise
  --trusted-documents-only
                 the key runs only the team's registered GraphQL documents (prs documents register): safe to
                 ship in a browser app`,
  keyList: `Usage: prs key list --team <team id>

Lists the team's keys: id, prefix, name, tier, status, dates and permissions. Never the keys themselves.`,
  keyRevoke: `Usage: prs key revoke <key id | key prefix | full key>

Revokes the key; its next request gets 401, on every server using the database.
The prefix is the 16 characters shown by 'prs key list' (prs_sk_live_ and 4 more).`,
  keyRoll: `Usage: prs key roll <key id | key prefix | full key> [--overlap <time>]

Creates a key with the same name, description, permissions, tier and expiry, and prints it once, alone on the
last line of standard output. The old key keeps working for the overlap, then gets 401 on every server; until then
both count against the new key's hourly budget. Recorded in the team's audit log (actor: cli).
  --overlap  how long the old key keeps working: 0 (default: it stops at once), 1h, 24h or 7d`,
};
