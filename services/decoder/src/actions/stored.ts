// An action's lossless JSON, as the `actions` table's `row` keeps it and API v3 reads it back.
import type { ActionRow } from "@tongate/actions";

/** bigints as decimal strings (the classifier's amounts and logical times). */
export function storedAction(a: ActionRow): string {
  return JSON.stringify(a, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}
