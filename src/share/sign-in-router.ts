// The public pages of open-house sign-in links (docs/open-house-sign-in.md), answered without a key:
//   GET  /s/<token>            the form (?kiosk=1: a tablet at the door)
//   POST /s/<token>            a sign-in (application/x-www-form-urlencoded), answered 303 to the thank-you page
//   GET  /s/<token>/thanks     a thank-you above a fresh form (POST-redirect-GET: history holds no visitor's data)
//   GET  /s/<token>/withdraw   a consent receipt's withdrawal page (its own token); POST withdraws
// An unknown, expired or revoked token gets the same 404 page whatever the path (no oracle). Abuse bounds:
// SIGN_INS_PER_MINUTE per address and link and SIGN_INS_PER_HOUR per link (429 page), PAGE_REQUESTS_PER_HOUR per
// address over every /s page (guessing tokens), a honeypot field, a minimum fill time proved by a start time signed
// with the link's secret, a body bound and each field's bound.
import express, { Router, type NextFunction, type Request, type Response } from "express";
import { setRateLimitHeaders } from "../auth/middleware";
import { applyLimit, type RateLimiter } from "../auth/rate-limit";
import { prisma } from "../db";
import { databaseFailure } from "../db/errors";
import { logger } from "../logger";
import { consentText } from "../schema/resources/sign-in/consent-text";
import { withdrawByToken } from "../schema/resources/sign-in/consents";
import { readSignInForm, recordSignIn } from "../schema/resources/sign-in/record";
import { activeSignInLink, hashSignInToken, isWellFormedSignInToken, signStart, startOf, type ActiveSignInLink } from "../schema/resources/sign-in/token";
import { themeOf } from "./view";
import { plainPage, signInPage, withdrawPage, type Branding, type FormState, type Page } from "./sign-in-page";

export const SIGN_INS_PER_MINUTE = 10;
export const SIGN_INS_PER_HOUR = 300;
export const PAGE_REQUESTS_PER_HOUR = 600;
/** The least time between the form being served and sent (a person needs longer), and the most. */
export const MIN_FILL_MS = 2_000;
export const MAX_FILL_MS = 12 * 60 * 60 * 1000;
/** The largest form body accepted (413 page past it): five answers of 1,000 characters fit several times over. */
export const FORM_BODY_LIMIT = "16kb";

const PLAIN = themeOf(null, null);
const NOT_FOUND = plainPage(PLAIN, "Sign-in form not found", "This link does not open a sign-in form. It may have expired or been withdrawn; please ask the agent at the door.");
const UNAVAILABLE = plainPage(PLAIN, "Please try again", "The sign-in could not be recorded just now. Please wait a moment and send the form again.");
const TOO_MANY = plainPage(PLAIN, "Too many sign-ins", "Too many sign-ins were sent from here just now. Please wait a minute and try again.");

function sendPage(res: Response, status: number, page: Page): void {
  res.status(status);
  res.setHeader("Content-Security-Policy", page.policy);
  res.type("html").send(page.html);
}

async function brandingOf(link: ActiveSignInLink): Promise<{ branding: Branding; team: string } | null> {
  const showing = await prisma.showing.findFirst({
    where: { id: link.showingId, teamId: link.teamId },
    select: {
      title: true,
      team: { select: { name: true } },
      report: { select: { address: true, city: true, state: true, zip: true, listingAgent: true, customAgentName: true, primaryColor: true, secondaryColor: true } },
    },
  });
  if (!showing) return null;
  const r = showing.report;
  return {
    team: showing.team.name,
    branding: {
      address: r.address,
      place: [r.city, [r.state, r.zip].filter(Boolean).join(" ")].filter(Boolean).join(", "),
      agent: r.customAgentName || r.listingAgent,
      title: showing.title,
      theme: themeOf(r.primaryColor, r.secondaryColor),
    },
  };
}

const isKiosk = (req: Request) => req.query.kiosk === "1";

export function signInPagesRouter(limiter: RateLimiter): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 30 });

  router.use("/s", (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("X-Robots-Tag", "noindex, nofollow");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Referrer-Policy", "no-referrer");
    guard(req, res)
      .then((go) => {
        if (!go) return;
        if (req.method === "POST") form(req, res, (err?: unknown) => (err ? bodyRefused(res, err) : answer(req, res).catch(failed)));
        else answer(req, res).catch(failed);
      })
      .catch(failed);
    /** The database unreachable or too slow: a page saying to try again (503, Retry-After), never the JSON envelope. */
    function failed(err: unknown): void {
      const failure = databaseFailure(err);
      if (!failure || res.headersSent) return next(err);
      if (failure.retryAfter) res.setHeader("Retry-After", String(failure.retryAfter));
      sendPage(res, 503, UNAVAILABLE);
    }
  });

  /** The per-address bound over every /s page, and the methods they answer. */
  async function guard(req: Request, res: Response): Promise<boolean> {
    const limit = applyLimit(await limiter.hit(`sign-in-ip:${req.ip ?? "unknown"}`), PAGE_REQUESTS_PER_HOUR);
    setRateLimitHeaders(res, limit);
    if (limit.exceeded) return sendPage(res, 429, TOO_MANY), false;
    if (!["GET", "HEAD", "POST"].includes(req.method)) {
      res.setHeader("Allow", "GET, HEAD, POST");
      return sendPage(res, 405, plainPage(PLAIN, "Method not allowed", "This page can only be read or its form sent.")), false;
    }
    return true;
  }

  function bodyRefused(res: Response, err: unknown): void {
    const status = (err as { status?: number }).status ?? 400;
    if (status >= 500) throw err;
    const tooLarge = status === 413;
    sendPage(res, tooLarge ? 413 : 400, plainPage(PLAIN, tooLarge ? "Form too large" : "Form not readable", tooLarge ? "The form sent was larger than it can be. Please shorten your answers." : "The form could not be read. Please go back and send it again."));
  }

  async function answer(req: Request, res: Response): Promise<void> {
    const match = /^\/([^/]+)(\/thanks|\/withdraw)?\/?$/.exec(req.path);
    if (!match) return sendPage(res, 404, NOT_FOUND);
    const [, token, sub] = match;
    if (sub === "/withdraw") return withdrawal(req, res, token);
    if (sub === "/thanks" && req.method === "POST") return sendPage(res, 404, NOT_FOUND);
    const link = await activeSignInLink(token);
    const brand = link && (await brandingOf(link));
    if (!link || !brand) return sendPage(res, 404, NOT_FOUND);
    const kiosk = isKiosk(req);
    const action = `/s/${token}${kiosk ? "?kiosk=1" : ""}`;
    const state = (extra: Partial<FormState> = {}): FormState => ({
      action,
      kiosk,
      started: signStart(link.formSecret, Date.now()),
      questions: link.questions,
      consent: consentText(brand.team),
      ...extra,
    });
    if (req.method !== "POST") {
      const withdrawToken = typeof req.query.r === "string" && isWellFormedSignInToken(req.query.r) ? req.query.r : null;
      const thanks = sub === "/thanks" ? { withdrawHref: !kiosk && withdrawToken ? `/s/${withdrawToken}/withdraw` : null } : undefined;
      return sendPage(res, 200, signInPage(brand.branding, state({ thanks })));
    }
    // A sign-in: the link's bounds first, counted whatever the form holds.
    const address = req.ip ?? "unknown";
    const minute = Math.floor(Date.now() / 60_000);
    const perAddress = await limiter.hit(`sign-in:${link.id}:${hashSignInToken(address).slice(0, 22)}:${minute}`);
    const perLink = await limiter.hit(`sign-in-link:${link.id}`);
    if (perAddress.count > SIGN_INS_PER_MINUTE || perLink.count > SIGN_INS_PER_HOUR) {
      res.setHeader("Retry-After", perAddress.count > SIGN_INS_PER_MINUTE ? "60" : String(Math.max(1, perLink.resetsAt - Math.floor(Date.now() / 1000))));
      return sendPage(res, 429, TOO_MANY);
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const thanksUrl = (withdrawToken: string | null) => `/s/${token}/thanks${kiosk ? "?kiosk=1" : withdrawToken ? `?r=${withdrawToken}` : ""}`;
    // The honeypot: a field people never see. A robot that fills it is thanked and nothing is kept.
    if (typeof body.website === "string" && body.website !== "") return void res.redirect(303, thanksUrl(null));
    const started = typeof body.started === "string" ? startOf(link.formSecret, body.started) : null;
    const elapsed = started === null ? null : Date.now() - started;
    const read = readSignInForm(body, link.questions);
    const values = "values" in read ? read.values : Object.fromEntries(["name", "email", "phone", "working_with_agent", ...link.questions.map((_q, i) => `q${i + 1}`)].map((k) => [k, typeof body[k] === "string" ? String(body[k]).slice(0, 1000) : ""]));
    for (const c of ["email", "phone", "sms"]) if (body[`consent_${c}`] === "yes") values[`consent_${c}`] = "yes";
    if (elapsed === null || elapsed < MIN_FILL_MS || elapsed > MAX_FILL_MS) {
      return sendPage(res, 400, signInPage(brand.branding, state({ values, notice: "This form was sent too quickly or is too old. Please check your details and send it again." })));
    }
    if ("errors" in read) return sendPage(res, 400, signInPage(brand.branding, state({ values, errors: read.errors })));
    const signedIn = await recordSignIn(link, read.form, { ip: req.ip ?? null, userAgent: req.get("user-agent") ?? null });
    if (!signedIn) return sendPage(res, 404, NOT_FOUND);
    logger.debug({ link: link.id, attendee: signedIn.attendeeId }, "visitor signed in");
    const consented = read.form.consent.email || read.form.consent.phone || read.form.consent.sms;
    res.redirect(303, thanksUrl(consented ? signedIn.withdrawToken : null));
  }

  async function withdrawal(req: Request, res: Response, token: string): Promise<void> {
    if (req.method !== "POST") {
      const known = isWellFormedSignInToken(token) && (await prisma.consentReceipt.count({ where: { withdrawTokenHash: hashSignInToken(token) } })) > 0;
      return known ? sendPage(res, 200, withdrawPage(PLAIN, `/s/${token}/withdraw`, false)) : sendPage(res, 404, NOT_FOUND);
    }
    return (await withdrawByToken(token)) ? sendPage(res, 200, withdrawPage(PLAIN, "", true)) : sendPage(res, 404, NOT_FOUND);
  }

  return router;
}
