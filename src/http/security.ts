// Security headers (helmet). The API answers JSON, which needs no content at all: its policy allows nothing. The
// HTML pages (and the dashboard's files) get a policy each that allows exactly what they load: everything from this server, plus
// - /docs (Swagger UI, swagger-ui-dist): inline styles (its React components set style attributes) and data: images;
// - GET /graphql (GraphiQL, @graphql-yoga/render-graphiql): the page is one inline script of ~8 MB and one inline
//   stylesheet. The script is allowed by its SHA-256 (the page is rendered once, so the hash is of what is served);
//   the editor starts its web workers from blob: URLs and adds <style> elements at run time, so styles need
//   'unsafe-inline' and workers blob:.
import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";

const common = {
  defaultSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

/** Every response: helmet's defaults with a content security policy that allows nothing (JSON needs nothing). */
export const securityHeaders = (): RequestHandler =>
  helmet({ contentSecurityPolicy: { useDefaults: false, directives: common }, crossOriginEmbedderPolicy: false });

/** The Swagger UI page at /docs and its assets. */
export const docsPolicy = (): RequestHandler =>
  helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      ...common,
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
    },
  });

/**
 * The team dashboard at /dashboard: its own scripts and stylesheet only (no inline script or style), and /graphql;
 * images from blob: URLs too (a report's photos, read with the key and never addressed by a URL that holds it).
 */
export const dashboardPolicy = (): RequestHandler =>
  helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      ...common,
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:", "blob:"],
      connectSrc: ["'self'"],
    },
  });

/** The GraphiQL page, whose inline scripts are allowed by hash. */
export function graphiqlPolicy(page: string): RequestHandler {
  const hashes = [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`,
  );
  return helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      ...common,
      scriptSrc: ["'self'", ...hashes],
      workerSrc: ["'self'", "blob:"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
    },
  });
}
