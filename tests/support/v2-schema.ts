// Validates responses against the response schemas of toncenter's own v2 OpenAPI.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";

export const v2Spec = JSON.parse(readFileSync(fileURLToPath(new URL("../../../shared/reference/toncenter-docs/v2.json", import.meta.url)), "utf8"));

const ajv = new Ajv2020({ strict: false, allErrors: true });
// OpenAPI's numeric and byte formats: the types already say what matters; accept them without noise.
for (const f of ["int32", "int64", "uint32", "uint64", "double", "float", "byte"]) ajv.addFormat(f, true);
// The document uses x-usrv-* vendor keys and a few non-standard "type" strings; strict mode off ignores them.
ajv.addSchema({ ...v2Spec, $id: "v2.json" });

/** The errors of `body` against the 200 response schema of `path` (GET or POST), or null when valid. */
export function v2ResponseErrors(path: string, body: unknown): string | null {
  const item = v2Spec.paths[path];
  const op = item.get ?? item.post;
  const schema = op.responses["200"].content["application/json"].schema;
  const ref = schema.$ref ? `v2.json${schema.$ref}` : undefined;
  const validate = ref ? ajv.getSchema(ref) : ajv.compile(schema);
  if (!validate) throw new Error(`no schema for ${path}`);
  return validate(body) ? null : ajv.errorsText(validate.errors);
}

/** The errors of an error body against v2.json's generic error schema. */
export function v2ErrorErrors(body: unknown): string | null {
  const validate = ajv.getSchema("v2.json#/components/schemas/TonlibErrorResponse")!;
  return validate(body) ? null : ajv.errorsText(validate.errors);
}
