// The admin key of this browser tab: kept in sessionStorage only (gone when the tab closes; never in
// localStorage, a cookie or a URL).
const STORAGE = "prs.dashboard.key";

export const storedKey = (): string | null => sessionStorage.getItem(STORAGE);
export const storeKey = (key: string): void => sessionStorage.setItem(STORAGE, key);
export const clearKey = (): void => sessionStorage.removeItem(STORAGE);

/** The permissions a key needs to be an admin key: managing the team's keys. */
export const ADMIN_PERMISSIONS = ["read", "create", "delete"].map((action) => `api_keys:${action}`);

export const missingAdminPermissions = (permissions: Record<string, string[]>): string[] =>
  ADMIN_PERMISSIONS.filter((p) => {
    const [resource, action] = p.split(":");
    return !(permissions[resource] ?? []).includes(action);
  });

/** Whether a key's permissions hold `permission` ("webhooks:read"). */
export const holds = (permissions: Record<string, string[]>, permission: string): boolean => {
  const [resource, action] = permission.split(":");
  return (permissions[resource] ?? []).includes(action);
};
