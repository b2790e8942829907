// ESLint rule `layers/one-way` (used by eslint.config.mjs over src/): the service's folders form layers that import
// one way, and no module imports itself back through others.
//
// - Direction: a module may import at run time (import, export … from, require(), import()) only from its own folder
//   and from layers listed below its own in ARCHITECTURE.md "Layers". `import type` (and `import { type A }`) is
//   exempt from direction: it is gone once compiled and fixes no load order (the request context's type names the key
//   row, the auth layer's functions take the context).
// - Cycles: no file imports a file that imports it back, directly or through others, types included.
// - A folder or top-level file missing from the list is an error: a new folder says where it stands.
//
// The list and its named exceptions are read from ARCHITECTURE.md by `layersFrom` and passed as the rule's options,
// so a change to the list changes the configuration (and ESLint's cache lints again).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const BEGIN = "<!-- layers:begin -->";
const END = "<!-- layers:end -->";

/**
 * Reads the layer list between the markers of ARCHITECTURE.md: each numbered line is one layer, lowest first, naming
 * its folders (`src/db/`) or top-level files (`src/config.ts`) in backticks; each "- `from` → `to`" line is an
 * exception (a file or folder that still imports upward, with the reason beside it).
 */
export function layersFrom(markdownFile) {
  const text = fs.readFileSync(markdownFile, "utf8");
  const block = text.slice(text.indexOf(BEGIN), text.indexOf(END));
  if (!block.startsWith(BEGIN)) throw new Error(`${markdownFile}: no ${BEGIN} … ${END} block`);
  const layers = [];
  const exceptions = [];
  for (const line of block.split("\n")) {
    const names = [...line.matchAll(/`(src\/[^`]*)`/g)].map((m) => m[1]);
    if (/^\d+\.\s/.test(line)) layers.push(names);
    else if (/^- `src\/[^`]*` → `src\/[^`]*`/.test(line)) exceptions.push([names[0], names[1]]);
  }
  return { layers, exceptions };
}

const importsCache = new Map();

/** Every relative import of a file on disk: { target, runtime }. */
function importsOnDisk(file) {
  const mtime = fs.statSync(file).mtimeMs;
  const cached = importsCache.get(file);
  if (cached && cached.mtime === mtime) return cached.imports;
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const imports = [];
  const add = (specifier, runtime) => {
    const target = resolve(file, specifier);
    if (target) imports.push({ target, runtime });
  };
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, !typeOnlyTs(node));
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require"))) {
      add(node.arguments[0].text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  importsCache.set(file, { mtime, imports });
  return imports;
}

function typeOnlyTs(node) {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly || (node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.length > 0 && node.exportClause.elements.every((e) => e.isTypeOnly));
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

function typeOnlyEs(node) {
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === "type" || s.exportKind === "type");
}

function resolve(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, "");
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) if (fs.existsSync(candidate)) return candidate;
  return undefined;
}

/** The layer unit of a file below src/: its first folder (`src/db/`) or, at the top, the file (`src/config.ts`). */
function unitOf(root, file) {
  const parts = path.relative(root, file).split(path.sep);
  return parts.length === 1 ? `src/${parts[0]}` : `src/${parts[0]}/`;
}

/** A path from `start` back to `goal` over every import, or undefined. */
function pathBack(start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    for (const { target } of importsOnDisk(file)) {
      if (previous.has(target)) continue;
      previous.set(target, file);
      if (target === goal) {
        const chain = [];
        for (let at = target; at; at = previous.get(at)) chain.unshift(at);
        return chain;
      }
      queue.push(target);
    }
  }
  return undefined;
}

const oneWay = {
  meta: {
    type: "problem",
    docs: { description: "src/ layers import one way (ARCHITECTURE.md \"Layers\") and no import cycle" },
    schema: [{ type: "object", properties: { root: { type: "string" }, layers: { type: "array" }, exceptions: { type: "array" } }, additionalProperties: false }],
  },
  create(context) {
    const { root: rootOption, layers, exceptions } = context.options[0];
    const root = path.resolve(context.cwd, rootOption);
    const file = path.resolve(context.filename);
    if (path.relative(root, file).startsWith("..")) return {};
    const rank = new Map(layers.flatMap((units, index) => units.map((unit) => [unit, index])));
    const here = unitOf(root, file);
    const name = (f) => path.relative(context.cwd, f);
    const excepted = (to) => exceptions.some(([from, target]) => (from === here || from === name(file)) && target === to);

    const check = (node, specifier, runtime) => {
      const target = resolve(file, specifier);
      if (!target || path.relative(root, target).startsWith("..")) return;
      if (!rank.has(here)) {
        context.report({ node, message: `${here} is not in ARCHITECTURE.md "Layers": list it in the layer it belongs to` });
        return;
      }
      const there = unitOf(root, target);
      if (runtime && there !== here && !excepted(there)) {
        if (!rank.has(there)) context.report({ node, message: `${there} is not in ARCHITECTURE.md "Layers": list it in the layer it belongs to` });
        else if (rank.get(there) >= rank.get(here)) context.report({ node, message: `${here} may not import ${there} (ARCHITECTURE.md "Layers": ${there} is ${rank.get(there) === rank.get(here) ? "in the same layer" : "above"}); move what both need below both` });
      }
      const back = pathBack(target, file);
      if (back) context.report({ node, message: `Import cycle: ${[file, ...back].map(name).join(" → ")}` });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value, !typeOnlyEs(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, !typeOnlyEs(node)),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind !== "type"),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value, true),
      CallExpression: (node) => {
        if (node.callee.type === "Identifier" && node.callee.name === "require" && node.arguments.length === 1 && node.arguments[0].type === "Literal") check(node, node.arguments[0].value, true);
      },
    };
  },
};

export const layersPlugin = { meta: { name: "layers" }, rules: { "one-way": oneWay } };
