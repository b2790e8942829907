// Webhook URLs on this machine's or a private network are refused (WEBHOOK_ALLOW_PRIVATE_URLS off, the default):
// when saved, and at connection time by the delivery client, which checks the very address it connects to.
import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { fetch } from "undici";
import { deliveryAgent, nonPublicRange } from "../src/webhooks/address";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
});
afterAll(() => t.close());

it("judges addresses by their range, IPv4-mapped IPv6 as IPv4", () => {
  expect(["8.8.8.8", "2606:4700::1111"].map(nonPublicRange)).toEqual([null, null]);
  expect(["127.0.0.1", "10.1.2.3", "192.168.0.1", "169.254.169.254", "0.0.0.0", "::1", "fe80::1", "fd00::1", "224.0.0.1", "::ffff:127.0.0.1", "100.64.0.1"].map(nonPublicRange)).toEqual([
    "loopback",
    "private",
    "private",
    "linkLocal",
    "unspecified",
    "loopback",
    "linkLocal",
    "uniqueLocal",
    "multicast",
    "loopback",
    "carrierGradeNat",
  ]);
});

it("refuses to save an endpoint whose host is not public, naming the address", async () => {
  for (const [url, address] of [
    ["http://127.0.0.1:8080/hook", "127.0.0.1, a loopback address"],
    ["http://localhost/hook", "a loopback address"],
    ["http://[::1]/hook", "::1, a loopback address"],
    ["https://169.254.169.254/latest/meta-data", "169.254.169.254, a linkLocal address"],
    ["http://10.0.0.7/hook", "10.0.0.7, a private address"],
  ]) {
    const res = await request(t.app).post("/v1/webhooks").set(team.auth).send({ url, events: ["*"] });
    expect([res.status, res.body.error.message]).toEqual([400, expect.stringContaining(address)]);
    expect(res.body.error.message).toMatch(/^url is refused: /);
  }
  expect((await request(t.app).get("/v1/webhooks").set(team.auth)).body.total).toBe(0);
});

it("the delivery client will not connect to a name that resolves to a private address (no DNS-rebinding gap)", async () => {
  const server = http.createServer((_req, res) => res.end("should not be reached"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const agent = deliveryAgent();
  try {
    const port = (server.address() as AddressInfo).port;
    const attempt = fetch(`http://localhost:${port}/`, { dispatcher: agent, method: "POST", body: "{}" });
    await expect(attempt).rejects.toThrow(expect.objectContaining({ cause: expect.objectContaining({ message: expect.stringContaining("a loopback address") }) }));
  } finally {
    await agent.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
