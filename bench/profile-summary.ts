// Summarises a V8 CPU profile (node --cpu-prof; `npm run bench -- --cpu-prof <dir>` writes one of the server):
// self time per package / source file and the hottest functions.   tsx bench/profile-summary.ts <file.cpuprofile>
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const where = (url: string): string => {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes("/src/")) return `src/${url.split("/src/")[1]}`;
  if (url.includes("/dist/")) return `dist/${url.split("/dist/")[1]}`;
  if (url.includes("/bench/")) return `bench/${url.split("/bench/")[1]}`;
  return url ? (url.startsWith("node:") ? url : "other") : "(native/gc/idle)";
};

function summarise(file: string, top = 25): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of selfMs) {
    const node = byId.get(id)!;
    const f = node.callFrame;
    total += ms;
    const place = f.functionName === "(idle)" ? "(idle)" : where(f.url);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
    const name = `${f.functionName || "(anonymous)"} ${where(f.url)}:${f.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  const print = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * ms) / total).toFixed(1).padStart(6)}%  ${ms.toFixed(0).padStart(7)} ms  ${k}`);
  };
  console.log(`${file}: ${(total / 1000).toFixed(1)} s sampled`);
  print("self time by package / file", byPlace);
  print("hottest functions (self time)", byFunction);
}

for (const file of process.argv.slice(2)) summarise(file);
