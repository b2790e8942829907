// Reads a PDF's text back with pdfjs-dist (as a viewer would extract it), one string per page.

let pdfjsLoaded: Promise<typeof import("pdfjs-dist/legacy/build/pdf.mjs")> | undefined;

/**
 * pdfjs-dist and its worker (which it runs in this thread under Node), loaded once per test file. The bundled core-js
 * of each reads an Error's stack while loading; Jest's source-map support would parse the bundle's whole source map to
 * format it (1.7 s of a test file's time), so they load with a plain one. (Left undefined, Node would fall back to the
 * worker's own, which is that same source-map support.)
 */
function loadPdfjs() {
  pdfjsLoaded ??= (async () => {
    const formatStack = Error.prepareStackTrace;
    Error.prepareStackTrace = (error, frames) => `${error}${frames.map((frame) => `\n    at ${frame}`).join("")}`;
    try {
      const workerModule: string = "pdfjs-dist/legacy/build/pdf.worker.mjs";
      const [pdfjs, worker] = await Promise.all([import("pdfjs-dist/legacy/build/pdf.mjs"), import(workerModule) as Promise<unknown>]);
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
      return pdfjs;
    } finally {
      Error.prepareStackTrace = formatStack;
    }
  })();
  return pdfjsLoaded;
}

export async function pdfText(data: Buffer | Uint8Array): Promise<string[]> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : " ") : "")).join(""));
  }
  await doc.destroy();
  return pages;
}
