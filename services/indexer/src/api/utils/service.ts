// API v3 "Utils": tongate.v3.Utils, decoding that needs no store.
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { DecodeResponseSchema, type Utils } from "@tongate/proto/gen/tongate/v3/utils_pb.js";
import { decode } from "./decode.js";

export function utilsImpl(): Partial<ServiceImpl<typeof Utils>> {
  return {
    decode: async (req) => create(DecodeResponseSchema, await decode(req)),
  };
}
