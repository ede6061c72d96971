import type { Cell } from "@ton/core";
import type { CompiledScheme, TV } from "./compile.js";
import { TlbReadError, TlbSchemeError } from "./errors.js";
import { DEFAULT_READ_LIMITS, ReadFail, STACK_EXHAUSTED, readApp, type Json, type ReadLimits } from "./reader.js";

/**
 * Reads a whole cell as one type of a compiled scheme (`nats` its numeric parameters), leaving
 * untyped cells (`Any`, `Cell`, `^Cell`) as their BoC. Trailing data is allowed, as toncenter allows it.
 */
export function readType(
  scheme: CompiledScheme,
  typeName: string,
  cell: Cell,
  nats: number[] = [],
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): { ok: true; value: Json } | { ok: false; error: TlbReadError } {
  const def = scheme.types.get(typeName);
  if (!def) throw new TlbSchemeError(`the scheme has no type ${typeName}`);
  const tv: TV & { k: "app" } = { k: "app", def, nats, types: nats.map(() => null) };
  try {
    if (cell.isExotic) throw new ReadFail("an exotic cell");
    const value = readApp(tv, cell.beginParse(), {
      limits,
      depth: 0,
      refs: 0,
      work: { n: 0 },
      untyped: (c) => c.toBoc({ idx: false, crc32: false }).toString("base64"),
      untypedRest: (rest) => rest.asCell().toBoc({ idx: false, crc32: false }).toString("base64"),
    }, null);
    return { ok: true, value };
  } catch (e) {
    if (e instanceof ReadFail) return { ok: false, error: new TlbReadError(e.reason, e.path) };
    if (e instanceof RangeError) return { ok: false, error: new TlbReadError(STACK_EXHAUSTED, []) };
    throw e;
  }
}
