// An action's lossless JSON, as the `actions` table's `row` keeps it: API v3 reads it back with
// @tongate/actions' actionFromJson.
import { type ActionRow, actionToJson } from "@tongate/actions";

export const storedAction = (a: ActionRow): string => JSON.stringify(actionToJson(a));
