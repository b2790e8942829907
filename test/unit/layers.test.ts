// Lint keeps the layers one-way and functions short: ESLint, with the repository's own eslint.config.mjs, refuses an
// import the wrong way across ARCHITECTURE.md "Layers", an import cycle, a folder the list does not name and a
// 121-line function, and lets the same files through without them. Runs ESLint in a child process (its API is
// ES modules) over texts given the paths they would have.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.join(__dirname, "..", "..");

interface Message {
  ruleId: string | null;
  message: string;
}

/** ESLint's messages for each text, linted as if it were the file at its path (relative to the repository). */
function lint(cases: Array<{ file: string; text: string }>): Message[][] {
  const script = `
    import { ESLint } from "eslint";
    const eslint = new ESLint({ cwd: process.cwd() });
    const cases = JSON.parse(process.argv[1]);
    const out = [];
    for (const { file, text } of cases) {
      const [result] = await eslint.lintText(text, { filePath: file });
      out.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
    }
    process.stdout.write(JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(cases)], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** A function of `lines` lines in all, its braces included. */
const functionOf = (lines: number): string =>
  ["export function long(): number {", "  let n = 0;", ...Array.from({ length: lines - 4 }, () => "  n += 1;"), "  return n;", "}"].join("\n") + "\n";

const layerMessages = (messages: Message[]) => messages.filter((m) => m.ruleId === "layers/one-way").map((m) => m.message);

describe("lint", () => {
  let results: Message[][];
  beforeAll(() => {
    results = lint([
      // 0: the database layer reaching up into the schema
      { file: "src/db/added.ts", text: 'import { execute } from "../schema/engine";\nexport const run = execute;\n' },
      // 1: the same file importing only below it, and a type from above (types are exempt from the direction)
      { file: "src/db/added.ts", text: 'import type { Permission } from "../auth/permissions";\nimport { logger } from "../logger";\nexport const log = (p: Permission) => logger.info(p);\n' },
      // 2: a new cycle: shapes.ts importing schemas.ts, which imports shapes.ts
      { file: "src/rest/shapes.ts", text: 'import type { report } from "./schemas";\nexport type Body = typeof report;\n' },
      // 3: a folder the list does not name
      { file: "src/widgets/added.ts", text: 'import { logger } from "../logger";\nexport const log = () => logger.info("x");\n' },
      // 4, 5: a function of 121 lines, and one of 120
      { file: "src/db/long.ts", text: functionOf(121) },
      { file: "src/db/long.ts", text: functionOf(120) },
    ]);
  }, 60_000);

  it("refuses an import from a layer above", () => {
    expect(layerMessages(results[0])).toEqual([expect.stringContaining("src/db/ may not import src/schema/")]);
    expect(layerMessages(results[1])).toEqual([]);
  });

  it("refuses an import cycle, naming its files", () => {
    expect(layerMessages(results[2])).toContain("Import cycle: src/rest/shapes.ts → src/rest/schemas.ts → src/rest/shapes.ts");
  });

  it("refuses a folder ARCHITECTURE.md does not place", () => {
    expect(layerMessages(results[3])).toEqual([expect.stringContaining("src/widgets/ is not in ARCHITECTURE.md")]);
  });

  it("refuses a function of 121 lines and takes one of 120", () => {
    expect(results[4].map((m) => m.ruleId)).toEqual(["max-lines-per-function"]);
    expect(results[4][0].message).toContain("(121). Maximum allowed is 120");
    expect(results[5]).toEqual([]);
  });
});
