// The attendee's rights over REST (docs/api.md "The attendee's rights"; docs/data-protection.md): everything the team
// holds about one person, and its erasure. Names mapped to snake_case; the rules (exactly one of email and phone,
// permissions, audit) are behind the schema (src/schema/resources/attendee-rights.ts).
import { z } from "zod";
import { pathNaming } from "../schema/errors";
import { operation, runRoot } from "./graphql";
import { bodyObject, queryText } from "./input";
import { objectFragment, snakeCase } from "./object-shapes";
import type { RestRoute } from "./route";

const SIGN_IN = objectFragment("Attendee", "RestPersonSignIn");
const SHOWING = objectFragment("Showing", "RestPersonShowing", { omit: ["report"] });
const RECEIPT = objectFragment("ConsentReceipt", "RestPersonConsent");

const DATA = operation(`query RestAttendeeData($email: String, $phone: String) {
  attendeeData(email: $email, phone: $phone) { signIns { ...RestPersonSignIn } showings { ...RestPersonShowing } consents { ...RestPersonConsent } }
} ${SIGN_IN.fragment} ${SHOWING.fragment} ${RECEIPT.fragment}`);
const ERASE = operation(`mutation RestEraseAttendee($email: String, $phone: String) {
  eraseAttendee(email: $email, phone: $phone) { signIns showings consentsPseudonymised }
}`);

const nameOf = pathNaming(snakeCase);

const person = {
  email: z.string().optional().meta({ description: "The person's e-mail (matched trimmed and lower-cased)" }),
  phone: z.string().optional().meta({ description: "The person's phone number (matched as + and digits)" }),
};

const personData = z
  .object({
    sign_ins: z.array(SIGN_IN.schema).meta({ description: "The person's sign-ins to open houses (one attendee per open house)" }),
    showings: z.array(SHOWING.schema).meta({ description: "Showings whose attendee fields name the person" }),
    consents: z.array(RECEIPT.schema).meta({ description: "The person's consent receipts, withdrawn ones included" }),
  })
  .meta({ id: "AttendeeData" });
const erasure = z
  .object({
    erased: z.object({
      sign_ins: z.number().int().meta({ description: "Sign-ins whose contact fields were erased" }),
      showings: z.number().int().meta({ description: "Showings whose attendee fields were erased" }),
      consents_pseudonymised: z.number().int().meta({ description: "Consent receipts kept, address and browser replaced by keyed hashes" }),
    }),
  })
  .meta({ id: "AttendeeErasure" });

/** A text value of the body, or undefined (a value of another type is passed on for the schema to refuse by name). */
const bodyText = (body: Record<string, unknown>, name: string) => (body[name] === undefined || body[name] === null ? undefined : body[name]);

export const attendeeRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/v1/attendees",
    operationId: "getAttendeeData",
    tag: "Attendees",
    summary: (needs) => `Everything the team holds about one person, by email or phone (exactly one); recorded in the audit log (needs ${needs})`,
    operations: [DATA],
    query: z.object(person),
    answer: { data: personData },
    responseDescription: "The person's sign-ins, showings and consent receipts",
    errors: [400],
    run: async (req, res) => {
      const data = await runRoot<{ signIns: unknown[]; showings: unknown[]; consents: unknown[] }>(
        DATA,
        { email: queryText(req, "email"), phone: queryText(req, "phone") },
        res.locals.context,
        { nameOf },
      );
      return { sign_ins: data.signIns, showings: data.showings, consents: data.consents };
    },
  },
  {
    method: "post",
    path: "/v1/attendees/erase",
    operationId: "eraseAttendee",
    tag: "Attendees",
    summary: (needs) => `Erase one person's contact data, by email or phone (exactly one); the person is never sent to a CRM again (needs ${needs})`,
    operations: [ERASE],
    body: z.object(person).meta({ id: "EraseAttendeeBody" }),
    answer: { data: erasure },
    message: "Attendee erased",
    responseDescription: "What was erased",
    errors: [400],
    run: async (req, res) => {
      const body = bodyObject(req);
      const erased = await runRoot<{ signIns: number; showings: number; consentsPseudonymised: number }>(
        ERASE,
        { email: bodyText(body, "email"), phone: bodyText(body, "phone") },
        res.locals.context,
        { nameOf },
      );
      return { erased: { sign_ins: erased.signIns, showings: erased.showings, consents_pseudonymised: erased.consentsPseudonymised } };
    },
  },
];
