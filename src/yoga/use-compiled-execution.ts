// /graphql executes on the engine REST runs on (src/schema/engine.ts: graphql-jit, or one SQL statement), a Yoga
// (envelop) plugin.
import { useEngine, type Plugin } from "@envelop/core";
import { execute } from "../schema/engine";

/** Yoga plugin: /graphql executes on the service's engine. */
export const useCompiledExecution = (): Plugin => useEngine({ execute: execute as NonNullable<Parameters<typeof useEngine>[0]["execute"]> });
