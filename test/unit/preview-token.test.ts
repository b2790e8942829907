// Preview tokens (src/schema/resources/share-link/preview.ts): what they open, until when, under which keys.
import { randomBytes, randomUUID } from "node:crypto";
import { createKeyring } from "../../src/attendees/crypto";
import { openPreviewToken, previewToken } from "../../src/schema/resources/share-link/preview";

const MINUTE = 60_000;

describe("preview tokens", () => {
  const [teamId, reportId] = [randomUUID(), randomUUID()];
  const oldKey = randomBytes(32);
  const ring = createKeyring(oldKey);

  it("open their team's report for 10 minutes, then nothing", () => {
    const now = new Date();
    const { token, expiresAt } = previewToken(teamId, reportId, now, ring);
    expect(expiresAt.getTime() - Math.floor(now.getTime() / 1000) * 1000).toBe(10 * MINUTE);
    expect(openPreviewToken(token, now, ring)).toEqual({ id: "preview", teamId, reportId, expiresAt });
    expect(openPreviewToken(token, new Date(now.getTime() + 9 * MINUTE), ring)).not.toBeNull();
    expect(openPreviewToken(token, new Date(now.getTime() + 10 * MINUTE + 1000), ring)).toBeNull();
  });

  it("hold across a rotation of the data key, and never under a key that did not sign them", () => {
    const { token } = previewToken(teamId, reportId, new Date(), ring);
    const rotated = createKeyring(randomBytes(32), [oldKey]);
    expect(openPreviewToken(token, new Date(), rotated)?.reportId).toBe(reportId);
    expect(openPreviewToken(token, new Date(), createKeyring(randomBytes(32)))).toBeNull();
  });

  it("refuse any changed byte, and what is not a preview token", () => {
    const { token } = previewToken(teamId, reportId, new Date(), ring);
    for (let i = 3; i < token.length; i += 7) {
      const changed = token.slice(0, i) + (token[i] === "A" ? "B" : "A") + token.slice(i + 1);
      expect(openPreviewToken(changed, new Date(), ring)).toBeNull();
    }
    for (const other of ["", "p1_", token.slice(0, -1), `${token}A`, randomBytes(32).toString("base64url")]) expect(openPreviewToken(other, new Date(), ring)).toBeNull();
  });
});
