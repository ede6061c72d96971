import { readFileSync } from "node:fs";
import { MessageDecoder } from "./decoder.js";

export { parseScheme } from "./parser.js";
export type { DeclarationAst, Expr, FieldAst } from "./ast.js";
export { compileScheme, type CompiledScheme, type Ctor, type TypeDef, type TV } from "./compile.js";
export { TlbReadError, TlbSchemeError } from "./errors.js";
export { DEFAULT_READ_LIMITS, type Json, type ReadLimits } from "./reader.js";
export { BODY_TYPES, MessageDecoder, messageDecoded, type DecodeResult } from "./decoder.js";
export { readType } from "./read-type.js";

/** toncenter's message-schemes.tlb, as bundled with this package (see schema/README.md). */
export const MESSAGE_SCHEMES_PATH = new URL("../schema/message-schemes.tlb", import.meta.url);

let shared: MessageDecoder | undefined;

/** The decoder of the bundled message schemes, compiled on first use and shared. */
export function messageDecoder(): MessageDecoder {
  shared ??= new MessageDecoder(readFileSync(MESSAGE_SCHEMES_PATH, "utf8"));
  return shared;
}
