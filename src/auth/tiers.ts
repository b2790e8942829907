// Requests per clock hour for each rate-limit tier (docs/api.md "Rate limits"), overridable by configuration.
import { config } from "../config";

export const TIERS: Record<string, number> = {
  free: config.RATE_LIMIT_FREE,
  standard: config.RATE_LIMIT_STANDARD,
  pro: config.RATE_LIMIT_PRO,
  enterprise: config.RATE_LIMIT_ENTERPRISE,
};

export const DEFAULT_TIER = "standard";
export const tierLimit = (tier: string): number => TIERS[tier] ?? TIERS[DEFAULT_TIER];
