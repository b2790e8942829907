// Jest's Node environment, and after each test file a full garbage collection (`--expose-gc`, package.json) once
// the file's context is let go of. Each file opens its own embedded database (PGlite: ~230 MB of WebAssembly memory),
// and left to V8 a worker held several of them after its last file; returning gigabytes to the system outlasted the
// 500 ms Jest gives a worker to exit, so Jest killed it and warned that "a worker process has failed to exit
// gracefully". Plain JavaScript: Jest loads this file itself (jest.config.js testEnvironment), without a transform.
const { TestEnvironment } = require("jest-environment-node");

class CollectingEnvironment extends TestEnvironment {
  async teardown() {
    await super.teardown();
    // jest-environment-node lets go of the context but not of its global object, which reaches everything the file
    // made (its app, its database).
    this.global = null;
    globalThis.gc?.();
  }
}

module.exports = CollectingEnvironment;
module.exports.default = CollectingEnvironment;
