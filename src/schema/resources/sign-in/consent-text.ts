// The consent wording a sign-in form shows (docs/open-house-sign-in.md "Consent"): one sentence per channel naming
// the team that will contact the visitor. A receipt records the wording's version and the SHA-256 of the exact text
// shown (the three sentences, with the team's name), so what a visitor agreed to can be proven later. A change of
// the wording is a new version.
import { hash } from "node:crypto";

export const CONSENT_TEXT_VERSION = "2026-12-01";

export type Channel = "email" | "phone" | "sms";
export const CHANNELS: readonly Channel[] = ["email", "phone", "sms"];

export interface ConsentText {
  version: string;
  sha256: string;
  channels: Record<Channel, string>;
}

export function consentText(team: string): ConsentText {
  const channels: Record<Channel, string> = {
    email: `I agree that ${team} may e-mail me about this property and others like it.`,
    phone: `I agree that ${team} may call me at the phone number I gave about this property and others like it.`,
    sms: `I agree that ${team} may send me text messages at the phone number I gave about this property and others like it. Message and data rates may apply. Consent is not a condition of any purchase.`,
  };
  const shown = `version ${CONSENT_TEXT_VERSION}\n${CHANNELS.map((c) => `${c}: ${channels[c]}`).join("\n")}\nI can withdraw my consent at any time.`;
  return { version: CONSENT_TEXT_VERSION, sha256: hash("sha256", shown, "hex"), channels };
}
