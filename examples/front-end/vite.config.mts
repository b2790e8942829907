// The example's build: `npx vite examples/front-end` serves it while you edit (http://localhost:5173), `npx vite build
// examples/front-end` writes static files to examples/front-end/dist. VITE_PRS_API (the service's origin) and
// VITE_PRS_KEY (a key limited to trusted documents) are read at build time; see README.md.
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "./", // relative asset URLs: the files can be served from any path
  build: { outDir: "dist", emptyOutDir: true, modulePreload: { polyfill: false } },
  logLevel: "warn",
});
