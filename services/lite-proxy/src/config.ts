// API v2: getConfigParam, getConfigAll, getLibraries.
// The configuration comes with the masterchain state's Merkle proof (verifyConfig); a library is
// addressed by its hash, so each returned library cell is checked to hash to what was asked.
import { create } from "@bufbuild/protobuf";
import { beginCell, Cell } from "@ton/core";
import type { ConfigRequest } from "@tongate/proof";
import {
  GetConfigAllResponseSchema,
  GetConfigParamResponseSchema,
  GetLibrariesResponseSchema,
  LibraryEntrySchema,
  type GetConfigAllRequest,
  type GetConfigParamRequest,
  type GetLibrariesRequest,
} from "@tongate/proto/gen/tongate/v2/config_pb.js";
import { TvmCellSchema } from "@tongate/proto/gen/tongate/v2/types_pb.js";
import { apiError } from "@tongate/runtime";
import { parseHash } from "@tongate/ton";
import { masterchainBlock } from "./block-lookup.js";
import type { ChainReader } from "./chain.js";
import { getConfig, type PoolSession } from "@tongate/liteclient";
import { boc } from "./transaction-view.js";
import { withInput } from "./utils.js";

/** A liteserver answers at most 16 libraries per getLibraries. */
const LIBRARIES_PER_QUERY = 16;

/** The proven configuration at masterchain block `seqno` (the latest when omitted); a failed proof is a LiteserverProofError (502). */
async function config(s: PoolSession, method: string, seqno: number | undefined, request: ConfigRequest) {
  return getConfig(s, await masterchainBlock(s, method, seqno), request);
}

const tvmCell = (cell: Cell) => create(TvmCellSchema, { bytes: boc(cell) });

export function configMethods(chain: ChainReader) {
  return {
    getConfigParam(req: GetConfigParamRequest) {
      const method = "getConfigParam";
      return chain.withSession(method, async (s) => {
        const c = await config(s, method, req.seqno, { params: [req.param] });
        const value = c.params.get(req.param);
        if (!value) throw apiError(404, `param: config param ${req.param} is not set at masterchain block ${c.id.seqno}`);
        return create(GetConfigParamResponseSchema, { config: tvmCell(value) });
      });
    },

    /** The ConfigParams dictionary (Hashmap 32 ^Cell), rebuilt from the proven parameters: its hash is the proven root's. */
    getConfigAll(req: GetConfigAllRequest) {
      const method = "getConfigAll";
      return chain.withSession(method, async (s) => {
        const c = await config(s, method, req.seqno, { all: true });
        return create(GetConfigAllResponseSchema, { config: tvmCell(beginCell().storeDictDirect(c.params).endCell()) });
      });
    },

    /** The libraries found among those asked for (missing ones are left out, as tonlib does). */
    getLibraries(req: GetLibrariesRequest) {
      const method = "getLibraries";
      const hashes = req.libraries.map((h, i) => withInput(`libraries[${i}]`, h, () => parseHash(h)));
      return chain.withSession(method, async (s) => {
        const result = [];
        for (let i = 0; i < hashes.length; i += LIBRARIES_PER_QUERY) {
          const asked = hashes.slice(i, i + LIBRARIES_PER_QUERY);
          const answer = await s.query({ kind: "liteServer.getLibraries", library_list: asked });
          for (const lib of answer.result) {
            let cell: Cell | undefined;
            try {
              cell = Cell.fromBoc(lib.data)[0];
            } catch {
              // not a BoC: reported below
            }
            if (!cell || !cell.hash().equals(lib.hash) || !asked.some((h) => h.equals(lib.hash))) {
              throw apiError(502, `${method}: the liteserver returned library ${lib.hash.toString("hex")} whose data is not a cell with that hash, or that was not asked for`);
            }
            result.push(create(LibraryEntrySchema, { hash: lib.hash, data: lib.data }));
          }
        }
        return create(GetLibrariesResponseSchema, { result });
      });
    },
  };
}
