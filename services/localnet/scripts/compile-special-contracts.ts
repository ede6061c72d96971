// Compiles localnet's special-account contracts (assets/special/*.fc) with
// @ton-community/func-js and writes their code BoCs beside them. localnet reads the
// committed BoCs (no compiler at runtime); test/special-accounts.test.ts checks that
// they are what the sources compile to. Run after changing a source:
//   npx tsx services/localnet/scripts/compile-special-contracts.ts
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { compileFunc } from "@ton-community/func-js";
import { Cell } from "@ton/core";
import { SPECIAL_CONTRACTS, specialContractBocUrl, type SpecialContractName } from "../src/special-accounts.js";

const sourceDir = new URL("../assets/special/", import.meta.url);

export async function compileSpecialContract(name: SpecialContractName): Promise<Cell> {
  const r = await compileFunc({ targets: [`${name}.fc`], sources: (path) => readFileSync(new URL(path, sourceDir), "utf8") });
  if (r.status === "error") throw new Error(`${name}.fc: ${r.message}`);
  return Cell.fromBase64(r.codeBoc);
}

/** The BoC as committed: no index, no CRC (byte-stable for a given cell). */
export const codeBoc = (code: Cell): Buffer => code.toBoc({ idx: false, crc32: false });

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const name of Object.keys(SPECIAL_CONTRACTS) as SpecialContractName[]) {
    const code = await compileSpecialContract(name);
    writeFileSync(specialContractBocUrl(name), codeBoc(code));
    console.log(`${name}.boc: code hash ${code.hash().toString("hex")}`);
  }
}
