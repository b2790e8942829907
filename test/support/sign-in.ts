// A visitor signing in on the public form (/s/{token}), as test/sign-in.test.ts and the CRM tests need: the form's
// signed start time moved back past the minimum fill time (tests do not wait), each visitor from an address of its own.
import { hash } from "node:crypto";
import type { TestApp } from "./app";
import request from "supertest";
import { prisma } from "../../src/db";
import { signStart } from "../../src/schema/resources/sign-in/token";

/** The form's helpers for `app` (the server needs TRUST_PROXY=true: each visitor's address is X-Forwarded-For). */
export function visitorOf(app: TestApp["app"]) {
  let visitor = 0;
  /** A fresh client address (X-Forwarded-For), so the per-address bound of one test does not touch the next. */
  const nextAddress = () => `198.51.100.${(visitor++ % 250) + 1}`;

  /** The form's start time as the page wrote it, moved 3 s back (the minimum fill time is 2 s). */
  async function startedFor(token: string): Promise<string> {
    const page = await request(app).get(`/s/${token}`);
    expect(page.status).toBe(200);
    const value = /name="started" value="(\d+)\.[^"]+"/.exec(page.text);
    expect(value).not.toBeNull();
    const { formSecret } = await prisma.signInLink.findUniqueOrThrow({ where: { tokenHash: hash("sha256", token, "hex") }, select: { formSecret: true } });
    return signStart(formSecret, Number(value![1]) - 3000);
  }

  async function signIn(token: string, fields: Record<string, string>, options: { address?: string; started?: string; query?: string } = {}) {
    const started = options.started ?? (await startedFor(token));
    return request(app)
      .post(`/s/${token}${options.query ?? ""}`)
      .set("X-Forwarded-For", options.address ?? nextAddress())
      .set("User-Agent", "KioskBrowser/1.0")
      .type("form")
      .send({ working_with_agent: "unsaid", ...fields, started });
  }

  return { nextAddress, startedFor, signIn };
}
