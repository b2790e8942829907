// Node 20 lacks Promise.withResolvers (ES2024), which PostGraphile 5 uses (it declares Node >= 22); loaded with
// `node --import ./polyfill.mjs`. Spec-equivalent: resolvers of a new promise of `this` constructor.
if (typeof Promise.withResolvers !== "function") {
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    value: function withResolvers() {
      let resolve;
      let reject;
      const promise = new this((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}
