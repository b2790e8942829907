// The dashboard's build (npm run dashboard:build; npm install and npm start run it too): static files in
// dashboard/dist that the service serves at /dashboard. No inline script (the page's content security policy
// forbids them), no request to anywhere but the service.
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/dashboard/",
  build: { outDir: "dist", emptyOutDir: true, modulePreload: { polyfill: false }, assetsInlineLimit: 0, chunkSizeWarningLimit: 600 },
  logLevel: "warn",
});
