// limit/offset arguments shared by every list (DECISIONS: limit 1..100, offset ≥ 0; no silent clamping).
import { z } from "zod";
import type { ArgBuilder } from "../builder";

export const pageArgs = (t: { arg: ArgBuilder }) => ({
  limit: t.arg.int({ defaultValue: 50, required: true }),
  offset: t.arg.int({ defaultValue: 0, required: true }),
});

export const pageRule = z.looseObject({
  limit: z.number().int().min(1).max(100),
  offset: z.number().int().min(0),
});
