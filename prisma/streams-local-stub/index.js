"use strict";
// See package.json: only `prisma dev` would call this, and this project does not use it.
exports.startLocalDurableStreamsServer = async () => {
  throw new Error("`prisma dev` is not available in this project (its @prisma/streams-local is a stub; see README, Node versions)");
};
