// Open-house sign-in links and consent receipts over REST (docs/api.md "Open-house sign-in"): names mapped to
// snake_case, every rule behind the schema (src/schema/resources/sign-in). The public form the links open is
// src/share/sign-in-router.ts.
import type { Request, Response } from "express";
import { z } from "zod";
import { pathNaming } from "../schema/errors";
import { operation, runRoot } from "./graphql";
import { optionalBodyObject, pageVariables, queryText } from "./input";
import { bodyToInput, inputNames, inputShape, objectFragment, snakeCase } from "./object-shapes";
import type { RestRoute } from "./route";
import { listRoute } from "./route-kinds";
import * as s from "./schemas";

const LINK = objectFragment("SignInLink", "RestSignInLink");
const RECEIPT = objectFragment("ConsentReceipt", "RestConsentReceipt");

const LIST = operation(`query RestSignInLinks($showingId: String!, $limit: Int!, $offset: Int!) {
  signInLinks(showingId: $showingId, limit: $limit, offset: $offset) { total limit offset items { ...RestSignInLink } }
} ${LINK.fragment}`);
const CREATE = operation(`mutation RestCreateSignInLink($showingId: String!, $input: CreateSignInLinkInput!) {
  createSignInLink(showingId: $showingId, input: $input) { link { ...RestSignInLink } token path }
} ${LINK.fragment}`);
const REVOKE = operation(`mutation RestRevokeSignInLink($showingId: String!, $id: ID!) { revokeSignInLink(showingId: $showingId, id: $id) { ...RestSignInLink } } ${LINK.fragment}`);
const QR = operation(`query RestSignInLinkQrCode($showingId: String!, $id: ID!, $format: QrFormat!, $baseUrl: String!) {
  signInLinkQrCode(showingId: $showingId, id: $id, format: $format, baseUrl: $baseUrl) { mediaType content }
}`);
const CONSENTS = operation(`query RestAttendeeConsents($showingId: String, $email: String, $phone: String, $limit: Int!, $offset: Int!) {
  attendeeConsents(showingId: $showingId, email: $email, phone: $phone, limit: $limit, offset: $offset) { total limit offset items { ...RestConsentReceipt } }
} ${RECEIPT.fragment}`);
const WITHDRAW = operation(`mutation RestWithdrawConsent($id: ID!) { withdrawConsent(id: $id) { ...RestConsentReceipt } } ${RECEIPT.fragment}`);

const nameOf = pathNaming(snakeCase);
const CREATE_INPUT = inputNames("CreateSignInLinkInput");

const origin = (req: Request) => `${req.protocol}://${req.get("host")}`;
const links = "/v1/showings/{showingId}/sign-in-links";
const qrPath = (showingId: string, linkId: string, ext: "svg" | "png") =>
  `/v1/showings/${encodeURIComponent(showingId)}/sign-in-links/${encodeURIComponent(linkId)}/qr.${ext}`;

/** A link as REST answers it: with the addresses of its QR codes (they need the key, like this answer). */
const withQr = (req: Request, link: { id: string }) => ({
  ...link,
  qr_svg_url: `${origin(req)}${qrPath(String(req.params.showingId), link.id, "svg")}`,
  qr_png_url: `${origin(req)}${qrPath(String(req.params.showingId), link.id, "png")}`,
});

const signInLink = LINK.schema
  .extend({
    qr_svg_url: z.string().meta({ description: "The QR code of the link's URL as SVG (GET with a key holding showings:update)" }),
    qr_png_url: z.string().meta({ description: "The same QR code as a 512-pixel PNG" }),
  })
  .meta({ id: "SignInLink" });
const signInLinkWithToken = signInLink
  .extend({
    url: z.string().meta({ description: "The public form: <this server>/s/<token> (add ?kiosk=1 for a tablet at the door). Shown only now" }),
    token: z.string().meta({ description: "43 characters of base64url. Shown only now" }),
  })
  .meta({ id: "SignInLinkWithToken" });
const createBody = inputShape("CreateSignInLinkInput", {
  types: { label: z.string().min(1).max(200).nullable(), expires_at: z.iso.datetime(), questions: z.array(z.string().min(1).max(200)).max(5) },
  examples: { label: "Front door tablet", questions: ["How did you hear about this open house?"] },
}).meta({ id: "CreateSignInLinkBody" });
const linkParams = s.showingIdParams.extend({ signInLinkId: z.string().meta({ description: "The sign-in link's uuid" }) });
const consentReceipt = RECEIPT.schema.meta({ id: "ConsentReceipt" });
const consentQuery = s.pageQuery.extend({
  showing_id: z.string().optional().meta({ description: "The receipts of one showing (its id or unique_showing_key)" }),
  email: z.string().optional().meta({ description: "The receipts of one e-mail (matched trimmed and lower-cased)" }),
  phone: z.string().optional().meta({ description: "The receipts of one phone number (matched as + and digits)" }),
});

function qrRoute(format: "svg" | "png"): RestRoute {
  return {
    method: "get",
    path: `${links}/{signInLinkId}/qr.${format}`,
    operationId: format === "svg" ? "getSignInLinkQrSvg" : "getSignInLinkQrPng",
    tag: "Showings",
    summary: (needs) => `The QR code of a sign-in link's URL as ${format.toUpperCase()}, for a door sign or a flyer (needs ${needs}: it holds the token)`,
    operations: [QR],
    params: linkParams,
    answer: "message",
    binary: format === "svg" ? "image/svg+xml" : "image/png",
    responseDescription: `The QR code (${format === "svg" ? "image/svg+xml" : "image/png"})`,
    run: async (req: Request, res: Response) => {
      const variables = { showingId: req.params.showingId, id: req.params.signInLinkId, format: format.toUpperCase(), baseUrl: origin(req) };
      const code = await runRoot<{ mediaType: string; content: string }>(QR, variables, res.locals.context);
      res.setHeader("Cache-Control", "no-store");
      res.type(code.mediaType).send(format === "svg" ? code.content : Buffer.from(code.content, "base64"));
    },
  };
}

export const signInLinkRoutes: RestRoute[] = [
  {
    method: "get",
    path: links,
    operationId: "listSignInLinks",
    tag: "Showings",
    summary: (needs) => `A showing's sign-in links, newest first, revoked and expired ones too; never their tokens (needs ${needs})`,
    operations: [LIST],
    params: s.showingIdParams,
    query: s.pageQuery,
    answer: { page: signInLink },
    responseDescription: "A page of sign-in links",
    errors: [400],
    run: async (req, res) => {
      const page = await runRoot<{ items: { id: string }[]; total: number; limit: number; offset: number }>(LIST, { showingId: req.params.showingId, ...pageVariables(req) }, res.locals.context);
      return { ...page, items: page.items.map((link) => withQr(req, link)) };
    },
  },
  {
    method: "post",
    path: links,
    operationId: "createSignInLink",
    tag: "Showings",
    summary: (needs) => `Make a link to a public sign-in form of an open house (needs ${needs})`,
    description:
      "The form (HTML, no key, no script) asks a visitor's name, e-mail and/or phone, whether they work with an agent, your questions, and consent per channel (unticked). Each sign-in makes or updates the showing's attendee and a consent receipt, and records visitor.signed_in. Unknown, expired or revoked: the same 404 page. token and url are in this answer only.",
    operations: [CREATE],
    params: s.showingIdParams,
    body: createBody,
    bodyOptional: true,
    status: 201,
    answer: { data: signInLinkWithToken },
    message: "Sign-in link created; copy its url now: it is not shown again",
    responseDescription: "The link with its token and url (shown only now)",
    run: async (req, res) => {
      const variables = { showingId: req.params.showingId, input: bodyToInput(CREATE_INPUT, optionalBodyObject(req)) };
      const made = await runRoot<{ link: { id: string }; token: string; path: string }>(CREATE, variables, res.locals.context, { nameOf });
      return { ...withQr(req, made.link), url: `${origin(req)}${made.path}`, token: made.token };
    },
  },
  {
    method: "delete",
    path: `${links}/{signInLinkId}`,
    operationId: "revokeSignInLink",
    tag: "Showings",
    summary: (needs) => `Revoke a sign-in link: its form answers 404 from now on, on every server (needs ${needs})`,
    operations: [REVOKE],
    params: linkParams,
    answer: { data: signInLink },
    message: "Sign-in link revoked",
    responseDescription: "The revoked link",
    run: async (req, res) => withQr(req, await runRoot<{ id: string }>(REVOKE, { showingId: req.params.showingId, id: req.params.signInLinkId }, res.locals.context)),
  },
  qrRoute("svg"),
  qrRoute("png"),
  listRoute({
    path: "/v1/attendees/consents",
    operationId: "listConsentReceipts",
    tag: "Attendees",
    summary: (needs) => `Consent receipts of one showing, e-mail or phone (exactly one of showing_id, email, phone), newest first (needs ${needs})`,
    operation: CONSENTS,
    query: consentQuery,
    variables: (req) => ({ showingId: queryText(req, "showing_id"), email: queryText(req, "email"), phone: queryText(req, "phone"), ...pageVariables(req) }),
    options: { nameOf },
    item: consentReceipt,
    responseDescription: "A page of consent receipts",
  }),
  {
    method: "post",
    path: "/v1/attendees/consents/{consentId}/withdraw",
    operationId: "withdrawConsent",
    tag: "Attendees",
    summary: (needs) => `Record that a visitor withdrew a consent (needs ${needs}); withdrawing again changes nothing`,
    operations: [WITHDRAW],
    params: z.object({ consentId: z.string().meta({ description: "The consent receipt's uuid" }) }),
    bodyOptional: true,
    answer: { data: consentReceipt },
    message: "Consent withdrawn",
    responseDescription: "The withdrawn receipt",
    run: (req, res) => runRoot(WITHDRAW, { id: req.params.consentId }, res.locals.context),
  },
];
