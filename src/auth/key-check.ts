// The key check as a rider of the statement (ARCHITECTURE.md "The key check"): a request the auth middleware admitted
// with the key row this process read last carries a KeyRider, which asks the statement answering the request whether
// that row is still the stored one and valid (`keyRowHolds`, one more column of the same snapshot). A row that holds
// counts the call; one that does not (or a request the statement does not answer) settles the rider by reading the
// key as the middleware does: the request then goes on for the key as it is now (its context updated in place), or
// is refused (401, 429). Nothing is answered with the old row, and no handler runs twice.
import type { Context, Refusal, Rider } from "../context";
import { keyRowHolds, keyRowParams, type KeyRow } from "./key-lookup";

/** A key row that lets a request through at `now`: found, not revoked, not expired. */
export const isValidKey = (key: KeyRow | undefined, now: number): key is KeyRow =>
  Boolean(key && !key.revoked_at && !(key.expires_at && new Date(key.expires_at).getTime() <= now));

/** What the middleware gives the rider: the key read again as the auth step reads it (counting the call), and the count. */
export interface KeyRiderSteps {
  /** The auth step's answer for the key as it is now: a fresh context (the call counted), or its refusal. */
  recheck(): Promise<Context | Refusal>;
  /** Counts the call of a request whose row held (usage, last use). */
  count(): void;
  /** A refused request names no key in the access log. */
  forget(): void;
}

export class KeyRider implements Rider {
  readonly name = "key";
  readonly primaryOnly = true;
  readonly params: readonly unknown[];
  private settling?: Promise<Refusal | undefined>;

  constructor(
    keyHash: string,
    row: KeyRow,
    /** The request's context, made of `row`: brought up to date in place when the key changed but still admits it. */
    private readonly context: Context,
    private readonly steps: KeyRiderSteps,
  ) {
    this.params = keyRowParams(keyHash, row);
  }

  get settled(): boolean {
    return this.settling !== undefined;
  }

  column(first: number): string {
    return keyRowHolds(first);
  }

  holds(value: unknown): boolean {
    return value === true;
  }

  read(): void {
    this.settling = Promise.resolve(undefined);
    this.steps.count();
  }

  settle(): Promise<Refusal | undefined> {
    this.settling ??= this.steps.recheck().then(
      (now) => {
        if ("status" in now) {
          this.steps.forget();
          return now;
        }
        const { viewer, rateLimit, rateKey } = now;
        Object.assign(this.context, { viewer, rateLimit, rateKey });
        return undefined;
      },
      (err: unknown) => {
        this.settling = undefined; // not settled: the statement that answers still carries the column
        throw err;
      },
    );
    return this.settling;
  }
}
