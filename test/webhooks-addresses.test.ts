// Webhook URLs on this machine's or a private network are refused (WEBHOOK_ALLOW_PRIVATE_URLS off, the default):
// when saved, and at connection time by the delivery client, which checks the very address it connects to.
import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { fetch } from "undici";
import { deliveryAgent, nonPublicAddress } from "../src/webhooks/address";
import { type TestApp, type TestTeam } from "./support/app";
import { teamApp } from "./support/team-app";

let t: TestApp, team: TestTeam;
beforeAll(async () => ({ t, team } = await teamApp()));
afterAll(() => t.close());

it("judges addresses by their range, IPv4-mapped IPv6 as IPv4", () => {
  expect(["8.8.8.8", "2606:4700::1111"].map(nonPublicAddress)).toEqual([null, null]);
  expect(["127.0.0.1", "10.1.2.3", "192.168.0.1", "169.254.169.254", "0.0.0.0", "::1", "::", "fe80::1", "fd00::1", "224.0.0.1", "100.64.0.1"].map(nonPublicAddress)).toEqual([
    "a loopback address",
    "a private address",
    "a private address",
    "a linkLocal address",
    "an unspecified address",
    "a loopback address",
    "an unspecified address",
    "a linkLocal address",
    "a uniqueLocal address",
    "a multicast address",
    "a carrierGradeNat address",
  ]);
});

// IPv6 forms that carry a private IPv4 address passed as public.
const CARRYING: Array<[string, string]> = [
  ["::ffff:127.0.0.1", "the IPv4-mapped form of 127.0.0.1, a loopback address"],
  ["::ffff:a00:1", "the IPv4-mapped form of 10.0.0.1, a private address"],
  ["::127.0.0.1", "the IPv4-compatible form of 127.0.0.1, a loopback address"], // as glibc writes it
  ["::7f00:1", "the IPv4-compatible form of 127.0.0.1, a loopback address"], // as a URL writes it
  ["::a9fe:a9fe", "the IPv4-compatible form of 169.254.169.254, a linkLocal address"],
  ["::ffff:0:a00:1", "the IPv4-translated form of 10.0.0.1, a private address"],
  ["64:ff9b::a00:1", "the NAT64 form of 10.0.0.1, a private address"],
  ["64:ff9b::7f00:1", "the NAT64 form of 127.0.0.1, a loopback address"],
  ["64:ff9b:1::a9fe:a9fe", "the local-use NAT64 form of 169.254.169.254, a linkLocal address"],
  ["2002:7f00:1::", "the 6to4 form of 127.0.0.1, a loopback address"],
  ["2002:c0a8:101::1", "the 6to4 form of 192.168.1.1, a private address"],
  ["2001:0:4136:e378:8000:63bf:80ff:fffe", "the Teredo form of 127.0.0.1, a loopback address"], // client, bits inverted
  ["2001:0:a00:1:8000:63bf:3fff:fdd2", "the Teredo form of 10.0.0.1, a private address"], // server
];

it.each(CARRYING)("judges %s by the IPv4 address it carries", (address, why) => {
  expect(nonPublicAddress(address)).toBe(why);
});

it("lets the spellings of a public IPv4 address through (IPv4-mapped, DNS64's NAT64), refuses the tunnels whatever they carry", () => {
  expect(["::ffff:808:808", "64:ff9b::808:808", "64:ff9b::8.8.8.8"].map(nonPublicAddress)).toEqual([null, null, null]);
  expect(["::808:808", "::ffff:0:808:808", "64:ff9b:1::808:808", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"].map(nonPublicAddress)).toEqual([
    "an IPv4-compatible address",
    "an IPv4-translated address",
    "a local-use NAT64 address",
    "a 6to4 address",
    "a Teredo address",
  ]);
});

it("refuses to save an endpoint whose IPv6 host carries a private IPv4 address, in REST and GraphQL", async () => {
  for (const [url, why] of [
    ["http://[::127.0.0.1]:8080/hook", "the IPv4-compatible form of 127.0.0.1, a loopback address"],
    ["http://[::ffff:10.0.0.1]/hook", "the IPv4-mapped form of 10.0.0.1, a private address"],
    ["http://[64:ff9b::10.0.0.1]/hook", "the NAT64 form of 10.0.0.1, a private address"],
    ["http://[64:ff9b:1::169.254.169.254]/latest/meta-data", "the local-use NAT64 form of 169.254.169.254, a linkLocal address"],
    ["http://[2002:7f00:1::]/hook", "the 6to4 form of 127.0.0.1, a loopback address"],
    ["http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook", "the Teredo form of 127.0.0.1, a loopback address"],
  ]) {
    const res = await request(t.app).post("/v1/webhooks").set(team.auth).send({ url, events: ["*"] });
    const host = new URL(url).hostname.slice(1, -1); // as the URL writes it: [::127.0.0.1] is [::7f00:1]
    expect([url, res.status, res.body.error?.message]).toEqual([url, 400, `url is refused: ${host} resolves to ${host}, ${why}; webhooks are sent only to public addresses (for local development, start the server with WEBHOOK_ALLOW_PRIVATE_URLS=true)`]);
  }
  const gql = await request(t.app)
    .post("/graphql")
    .set(team.auth)
    .send({ query: `mutation { createWebhookEndpoint(input: { url: "http://[2002:a00:1::]/hook", events: ["*"] }) { endpoint { id } } }` });
  expect(gql.body.errors?.[0]).toMatchObject({ message: expect.stringContaining("the 6to4 form of 10.0.0.1, a private address"), extensions: { code: "BAD_USER_INPUT" } });
  expect((await request(t.app).get("/v1/webhooks").set(team.auth)).body.total).toBe(0);
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
