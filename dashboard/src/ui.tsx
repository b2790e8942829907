// Small pieces every page uses: loading a query, showing an error, formatting dates.
import type { ComponentChildren, JSX } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./graphql";

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  reload: () => void;
}

/**
 * Runs `load` on mount and whenever `deps` change; `reload` runs it again. What was loaded for other `deps` (another
 * search, page or report) is never returned, not even for the moment before the new answer comes.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const key = JSON.stringify(deps);
  const [state, setState] = useState<{ key: string; data: T | null; error: string | null }>({ key, data: null, error: null });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ key, data, error: null }),
      (e) => live && setState({ key, data: null, error: messageOf(e) }),
    );
    return () => void (live = false);
  }, [key, tick]);
  const current = state.key === key;
  return { data: current ? state.data : null, error: current ? state.error : null, reload: useCallback(() => setTick((n) => n + 1), []) };
}

/**
 * A dialog's close handler that runs only while the dialog stays closed. The close event is queued, not sent at once:
 * a dialog closed and opened again at once (Cancel, then the next row's Revoke) gets the first close after it opened
 * again, and clearing what it asks about then would empty the open dialog.
 */
export const whenClosed =
  (onClose: () => void) =>
  (e: Event): void => {
    if (!(e.currentTarget as HTMLDialogElement).open) onClose();
  };

export const messageOf = (err: unknown): string => (err instanceof ApiError || err instanceof Error ? err.message : String(err));

/** An error as a person reads it; with `onRetry`, a "Try again" button beside it (a failed load, a lost network). */
export function ErrorMessage({ error, onRetry }: { error: string | null; onRetry?: () => void }) {
  if (!error) return null;
  return (
    <div class="error-box row">
      <p class="error" role="alert">
        {error}
      </p>
      {onRetry && (
        <button type="button" class="secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return <p aria-live="polite">Loading {what}…</p>;
}

export const date = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC" : "—");

/** A time to the second, in UTC ("May 1, 2026, 2:00:05 PM UTC"). */
export const seconds = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }) + " UTC" : "—";

/** A time in the viewer's own zone ("Dec 2, 2026, 9:04:25 AM GMT+1"), to the second when `precise`. */
export const local = (iso: string, precise = false): string =>
  new Date(iso).toLocaleString("en-US", { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", ...(precise ? { second: "2-digit" } : {}), timeZoneName: "short" });

/** A time as the viewer reads it (their zone), with the UTC time on hover and for machines (`datetime`). */
export function When({ iso, precise = false }: { iso: string | null | undefined; precise?: boolean }) {
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={precise ? seconds(iso) : date(iso)}>
      {local(iso, precise)}
    </time>
  );
}

/** "51–72 of 72" with Previous and Next: a list that has more than one page says so. */
export function Pager({ offset, size, total, onPage, label }: { offset: number; size: number; total: number; onPage: (offset: number) => void; label: string }) {
  return (
    <nav class="row pager" aria-label={label}>
      <button type="button" class="secondary" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - size))}>
        Previous
      </button>
      <span>
        {total === 0 ? 0 : offset + 1}–{Math.min(offset + size, total)} of {total}
      </span>
      <button type="button" class="secondary" disabled={offset + size >= total} onClick={() => onPage(offset + size)}>
        Next
      </button>
    </nav>
  );
}

/** A number as a person reads it: 2,000; 0.25; "—" when there is none. */
export const num = (n: number | null | undefined): string => (n == null ? "—" : n.toLocaleString("en-US", { maximumFractionDigits: 2 }));

/** "1 post", "3 posts", "2,000 posts". */
export const plural = (n: number, noun: string): string => `${num(n)} ${noun}${n === 1 ? "" : "s"}`;

export const money = (n: number | null | undefined): string => (n == null ? "—" : n.toLocaleString("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 }));

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section aria-labelledby={id ?? undefined} class="card">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A secret shown once, with a copy button that takes the focus when it appears (where the user's next step is). */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = useRef<HTMLButtonElement>(null);
  useEffect(() => copy.current?.focus(), [value]);
  return (
    <div class="once" role="status">
      <p>
        <strong>{label}</strong> It is shown only this once: copy it now.
      </p>
      <div class="row">
        <input readOnly aria-label={label} value={value} data-testid="secret" onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button
          type="button"
          ref={copy}
          onClick={() => navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false))}
        >
          Copy
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      {copied && <p aria-live="polite">Copied.</p>}
    </div>
  );
}

/**
 * A table in a region that scrolls sideways on a narrow screen and takes the keyboard's focus (so it can be scrolled
 * without a mouse). A column named "" holds the rows' buttons: its heading is for screen readers only.
 */
export function Table({ label, columns, children }: { label: string; columns: string[]; children: ComponentChildren }) {
  // Each cell carries its column's name (data-label): on a phone the rows stack as cards, each value under its name.
  const table = useRef<HTMLTableElement>(null);
  const [scrolls, setScrolls] = useState(false);
  const [, setWidth] = useState(0);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  useEffect(() => {
    // The region takes the focus only when it scrolls sideways (a keyboard user scrolls it): else it is no tab stop.
    const wrap = table.current?.parentElement;
    const now = !!wrap && wrap.scrollWidth > wrap.clientWidth + 1;
    if (now !== scrolls) setScrolls(now);
    for (const row of Array.from(table.current?.tBodies[0]?.rows ?? []))
      Array.from(row.cells).forEach((cell, i) => {
        if (!cell.hasAttribute("data-label") && columns[i]) cell.setAttribute("data-label", columns[i]);
      });
  });
  return (
    <div class="table-wrap" tabIndex={scrolls ? 0 : undefined} role="region" aria-label={label}>
      <table ref={table}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column || <span class="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A form that changes something: `action` gets the form's data; while it runs `busy` is true; when it succeeds the
 * form is cleared, and when it fails `error` holds the message.
 */
export function useFormAction(action: (data: FormData) => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: JSX.TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setBusy(true);
    try {
      await action(new FormData(form));
      setError(null);
      form.reset();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { onSubmit, error, busy };
}
