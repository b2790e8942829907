// The prelude most test files share: the app on the suite's database and a new team with its REST client (answers
// checked against the OpenAPI document). A file writes
//   let t: TestApp, team: TestTeam, api: RestClient;
//   beforeAll(async () => ({ t, team, api } = await teamApp()));
//   afterAll(() => t.close());
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./app";
import { restClient } from "./openapi";

export type RestClient = ReturnType<typeof restClient>;

export async function teamApp(options: Parameters<typeof createTeam>[0] = {}): Promise<{ t: TestApp; team: TestTeam; api: RestClient }> {
  const t = await startTestApp();
  const team = await createTeam(options);
  return { t, team, api: restClient(t.app, team.auth) };
}
