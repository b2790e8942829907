// The REST routes' runner of GraphQL operations: ../operations/run.ts, shared with the public pages of ../share/.
export * from "../operations/run";
