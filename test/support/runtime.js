// Jest's module runtime (jest-runtime) with V8's code cache: Jest compiles every module of every test file from
// source again (each test file has its own module registry, and vm.Script with Jest's dynamic-import hook misses
// V8's in-process compilation cache), which is a good part of the ~2 s each test file spends loading the service.
// Here each compiled script's code cache is kept on disk (node_modules/.cache/prs/v8, written once a module has run,
// so it holds the functions its loading compiled too) and handed to V8 the next time the same source is compiled.
// V8 checks the source and its own version and flags, and ignores a cache that does not match. Plain JavaScript:
// Jest loads this file itself (jest.config.js moduleLoader), without a transform.
const { createHash } = require("node:crypto");
const { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const Runtime = require("jest-runtime").default;
const { handlePotentialSyntaxError } = require("@jest/transform");

const DIR = path.join(__dirname, "..", "..", "node_modules", ".cache", "prs", "v8", `${process.version}-${process.arch}`);
mkdirSync(DIR, { recursive: true });
// Caches of sources since edited are never read again: past this many files the directory starts over.
if (readdirSync(DIR).length > 20_000) {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
}

/** Scripts compiled without a usable cache, by file name: their cache is written once the module has run. */
const pending = new Map();

const keyOf = (filename, source) => createHash("sha1").update(filename).update("\0").update(source).digest("hex");

/** Caches read or written by this worker, kept for its next test files (one read of each from disk). */
const held = new Map();

function read(key) {
  let data = held.get(key);
  if (data === undefined) {
    try {
      data = readFileSync(path.join(DIR, key));
    } catch {
      data = null;
    }
    held.set(key, data);
  }
  return data ?? undefined;
}

class CachingRuntime extends Runtime {
  createScriptFromCode(scriptSource, filename) {
    // A script compiled from a cache loses its dynamic-import hook (Node 20: "A dynamic import callback was not
    // specified"), so a module that may call import() is compiled from source.
    const mayImport = scriptSource.includes("import(");
    const key = mayImport ? undefined : keyOf(filename, scriptSource);
    const cachedData = key && read(key);
    const scriptFilename = this._resolver.isCoreModule(filename) ? `jest-nodejs-core-${filename}` : filename;
    // Jest's own hook (jest-runtime's createScriptFromCode) holds the runtime, and through it the test file's whole
    // realm: its app, its schema, every module it loaded. Node 20 keeps a script's hook alive through an ordinary
    // garbage collection (only a heap snapshot's collection frees it; nodejs/node#48510 is not in Node 20), so every
    // finished test file stayed in its worker's heap (~50 MB a file) and each collection took longer. This hook
    // reaches the runtime only through a WeakRef.
    const runtime = new WeakRef(this);
    let script;
    try {
      script = new vm.Script(this.wrapCodeInModuleWrapper(scriptSource), {
        columnOffset: this._fileTransforms.get(filename)?.wrapperLength,
        displayErrors: true,
        filename: scriptFilename,
        cachedData,
        importModuleDynamically: (specifier) => runtime.deref()?.importDynamically(specifier, scriptFilename) ?? Promise.reject(new Error("Test environment has been torn down")),
      });
    } catch (e) {
      throw handlePotentialSyntaxError(e);
    }
    if (key && (!cachedData || script.cachedDataRejected)) pending.set(filename, { script, key });
    return script;
  }

  /** What jest-runtime's own hook does: an import() from a test file's module, in that file's context. */
  async importDynamically(specifier, scriptFilename) {
    const context = this._environment.getVmContext?.();
    if (!context) throw new Error("Test environment has been torn down");
    return this.linkAndEvaluateModule(await this.resolveModule(specifier, scriptFilename, context));
  }

  _execModule(localModule, options, moduleRegistry, from, moduleName) {
    try {
      return super._execModule(localModule, options, moduleRegistry, from, moduleName);
    } finally {
      const entry = pending.get(localModule.filename);
      if (entry) {
        pending.delete(localModule.filename);
        try {
          const file = path.join(DIR, entry.key);
          const data = entry.script.createCachedData();
          held.set(entry.key, data);
          writeFileSync(`${file}.${process.pid}`, data);
          renameSync(`${file}.${process.pid}`, file);
        } catch {
          // A cache is an optimisation: a failure to write one changes nothing else.
        }
      }
    }
  }
}

module.exports = CachingRuntime;
module.exports.default = CachingRuntime;
