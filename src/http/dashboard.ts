// The team dashboard (dashboard/, built into dashboard/dist by scripts/build-dashboard.mjs): static files at
// /dashboard, served without a key like /docs (a browser cannot send one on navigation). The page asks for an
// admin key and calls /graphql with it, like any other client; nothing here sees the key.
import { existsSync } from "node:fs";
import path from "node:path";
import express, { Router } from "express";
import { sendError } from "./errors";
import { dashboardPolicy } from "./security";

export const DASHBOARD_DIR = path.resolve(__dirname, "../../dashboard/dist");

export function dashboardRouter(dir = DASHBOARD_DIR): Router {
  const router = Router();
  router.use("/dashboard", dashboardPolicy(), (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return sendError(res, 405, `Method not allowed: ${req.method} ${req.originalUrl}`);
    // Checked on each request: a build that finishes after the server started is served at once.
    if (!existsSync(path.join(dir, "index.html"))) return sendError(res, 503, "The dashboard is not built: run `npm run dashboard:build`");
    next();
  });
  // Assets have content hashes in their names: cached for a year. The page itself is revalidated every time.
  router.use("/dashboard/assets", express.static(path.join(dir, "assets"), { index: false, immutable: true, maxAge: "365d", fallthrough: true }));
  router.get(["/dashboard", "/dashboard/", "/dashboard/index.html"], (_req, res) => {
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(path.join(dir, "index.html"));
  });
  router.use("/dashboard", (req, res) => sendError(res, 404, `Not found: ${req.method} ${req.originalUrl}`));
  return router;
}
