// Per-key permissions: parsing `resource:action` lists and checking a request against what a key holds.
import { ACTIONS, actionsOf, ALL_PERMISSIONS, can, firstMissing, listPermissions, parsePermissions, RESOURCES, TEAM_FULL_ACCESS } from "../../src/auth/permissions";

describe("parsePermissions", () => {
  it("reads a comma-separated list, or an array, into resource → actions in a fixed order", () => {
    expect(parsePermissions("reports:update,reports:read,showings:delete")).toEqual({ reports: ["read", "update"], showings: ["delete"] });
    expect(parsePermissions(["reports:read", " team:read "])).toEqual({ reports: ["read"], team: ["read"] });
  });

  it("grants every action for resource:*", () => {
    expect(parsePermissions("showings:*")).toEqual({ showings: [...ACTIONS] });
    expect(parsePermissions("showings:read,showings:*")).toEqual({ showings: [...ACTIONS] });
    expect(parsePermissions("reports:*")).toEqual({ reports: [...ACTIONS, "share"] });
  });

  it("knows reports:share (share links), an action of reports only", () => {
    expect(parsePermissions("reports:share,reports:read")).toEqual({ reports: ["read", "share"] });
    expect(() => parsePermissions("comparables:share")).toThrow("Unknown permission 'comparables:share': actions are read, create, update, delete, publish or *");
  });

  it("ignores blanks and repeats", () => {
    expect(parsePermissions(" reports:read, ,reports:read,")).toEqual({ reports: ["read"] });
    expect(parsePermissions("")).toEqual({});
  });

  it.each([
    ["houses:read", "Unknown permission 'houses:read': resources are"],
    ["reports:fly", "Unknown permission 'reports:fly': actions are read, create, update, delete, publish, share or *"],
    ["reports", "Unknown permission 'reports': actions are"],
    ["reports:read:extra", "Unknown permission 'reports:read:extra': resources are"],
    ["Reports:read", "Unknown permission 'Reports:read'"],
    ["reports:read,houses:read", "Unknown permission 'houses:read'"],
  ])("refuses %j naming the entry", (list, message) => {
    expect(() => parsePermissions(list)).toThrow(message);
  });

  it("round-trips through listPermissions", () => {
    const permissions = parsePermissions("reports:read,reports:publish,api_keys:*");
    expect(parsePermissions(listPermissions(permissions))).toEqual(permissions);
    expect(listPermissions(permissions)).toEqual([
      "reports:read",
      "reports:publish",
      ...ACTIONS.map((a) => `api_keys:${a}`),
    ]);
  });
});

describe("can and firstMissing", () => {
  const held = parsePermissions("reports:read,reports:create,showings:*");

  it("allows exactly the actions held", () => {
    expect(can(held, "reports:read")).toBe(true);
    expect(can(held, "reports:create")).toBe(true);
    expect(can(held, "reports:delete")).toBe(false);
    expect(can(held, "showings:publish")).toBe(true);
    expect(can(held, "team:read")).toBe(false);
    expect(can({}, "reports:read")).toBe(false);
  });

  it("names the first requested permission that is not held", () => {
    expect(firstMissing(parsePermissions("reports:read,showings:delete"), held)).toBeNull();
    expect(firstMissing(parsePermissions("reports:read,reports:update,team:read"), held)).toBe("reports:update");
    expect(firstMissing({}, {})).toBeNull();
  });
});

describe("the standard grants", () => {
  it("a team key gets everything but key management; the first-start key gets everything", () => {
    expect(Object.keys(ALL_PERMISSIONS).sort()).toEqual([...RESOURCES].sort());
    expect(Object.keys(TEAM_FULL_ACCESS).sort()).toEqual(RESOURCES.filter((r) => r !== "api_keys").sort());
    for (const [resource, actions] of Object.entries(ALL_PERMISSIONS)) expect(actions).toEqual(actionsOf(resource as never));
    expect(TEAM_FULL_ACCESS.reports).toContain("share");
    expect(firstMissing(TEAM_FULL_ACCESS, ALL_PERMISSIONS)).toBeNull();
    expect(firstMissing(ALL_PERMISSIONS, TEAM_FULL_ACCESS)).toBe("api_keys:read");
  });
});
