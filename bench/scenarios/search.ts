// Scenario 3: address search latency in a team of 100k reports vs a team of 1k reports. Each side has its own
// database and server process (started together, loaded alternately): the trigram index is per table, not per
// team, so a 1k team beside a 100k team in one database would search the same index and prove nothing.
import { bearer, call, cycle } from "../http";
import { compare, type Side } from "../load";
import type { SeededTeam } from "../seed";
import type { ScenarioContext, ScenarioResult } from "./types";

function search(port: number, team: SeededTeam): Side["target"] {
  const next = cycle(team.searchInputs);
  return { port, headers: bearer(team.key), next: () => ({ path: `/v1/reports/search?address=${encodeURIComponent(next())}` }) };
}

export async function addressSearch({ seed, ports, plan, small }: ScenarioContext): Promise<ScenarioResult> {
  if (!small) throw new Error("scenario 3 needs the small database's server");
  const notes: string[] = [];
  // Every input must find a report, or the latencies would be of 404s.
  for (const [team, port] of [[small.team, small.ports.stack], [seed.large, ports.stack]] as const) {
    for (const input of team.searchInputs.slice(0, 5)) {
      const res = await call(port, `/v1/reports/search?address=${encodeURIComponent(input)}`, { key: team.key });
      if (res.status !== 200) notes.push(`search '${input}' answered ${res.status}`);
    }
  }
  const large = `${plan.largeTeamReports / 1000}k reports`;
  const c = await compare(
    { name: `search, team of ${large}`, target: search(ports.stack, seed.large) },
    { name: "search, team of 1k reports", target: search(small.ports.stack, small.team) },
    { ...plan, connections: plan.searchConnections },
    "p50",
  );
  notes.push(`${seed.large.searchInputs.length} / ${small.team.searchInputs.length} different inputs, spelled unlike the stored address (long forms, case, punctuation)`);
  return {
    id: 3,
    title: `Address search p50: ${large} vs 1k in one team`,
    target: "≤ 2.00× p50 at 1k",
    measured: `${Math.round(c.ratio * 100) / 100}×`,
    pass: c.ratio <= 2 && c.a.errors + c.b.errors === 0 && notes.length === 1,
    rows: [c.a, c.b].map((s) => ({ label: s.name, rps: s.rps, p50: s.p50, p99: s.p99, errors: s.errors })),
    notes,
  };
}
