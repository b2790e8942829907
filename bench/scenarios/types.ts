// What a scenario gets and what it reports.
import type { RoundPlan } from "../load";
import type { Seed, SeededTeam } from "../seed";
import type { ServerPorts } from "../server";

export interface Plan extends RoundPlan {
  /** Connections for the latency scenario (search): low, so p50 measures work rather than queueing. */
  searchConnections: number;
  writeSeconds: number;
  writeConnections: number;
  largeTeamReports: number;
  /**
   * Rounds of a comparison whose target leaves a margin smaller than the spread of its rounds (scenario 4: a 10 %
   * margin, rounds spread 0.75–1.12 on this machine), so its median is steadier from run to run.
   */
  closeRounds: number;
}

export interface ScenarioContext {
  seed: Seed;
  ports: ServerPorts;
  plan: Plan;
  /** Scenario 3's small side: its own database and server process. */
  small?: { team: SeededTeam; ports: ServerPorts };
  /** Scenarios 8 and 9 on PostgreSQL: PostGraphile 5 and the one-statement reference server (bench/peers.ts). */
  peers?: { postgraphile: number; reference: number };
}

/** One line of the table: a side of a comparison, a request whose statements were counted, … */
export interface Row {
  label: string;
  rps?: number;
  p50?: number;
  p99?: number;
  errors?: number;
  /** A scenario-specific number, e.g. SQL statements or rows found. */
  value?: string;
}

export interface ScenarioResult {
  id: number;
  title: string;
  target: string;
  measured: string;
  pass: boolean;
  /** false: the target cannot be judged on this database (printed as n/a, not counted); the rows are still measured. */
  judged?: boolean;
  rows: Row[];
  notes: string[];
}
