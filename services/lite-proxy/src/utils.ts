// API v2 utilities (detectAddress, detectHash, packAddress, unpackAddress):
// pure conversions, answered without a liteserver.
import { create } from "@bufbuild/protobuf";
import { apiError } from "@tongate/runtime";
import * as ton from "@tongate/ton";
import {
  DetectAddressResponseSchema,
  DetectedAddressVariantSchema,
  DetectHashResponseSchema,
  PackAddressResponseSchema,
  UnpackAddressResponseSchema,
  type DetectAddressRequest,
  type DetectHashRequest,
  type PackAddressRequest,
  type UnpackAddressRequest,
} from "@tongate/proto/gen/tongate/v2/utils_pb.js";

/** Runs a conversion; a malformed input becomes a 422 that names the parameter. */
export function withInput<T>(param: string, value: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ton.TonFormatError) throw apiError(422, ton.describeInputError(param, value, e));
    throw e;
  }
}

export const utils = {
  detectAddress(req: DetectAddressRequest) {
    const d = withInput("address", req.address, () => ton.detectAddress(req.address));
    return create(DetectAddressResponseSchema, {
      rawForm: d.raw_form,
      bounceable: create(DetectedAddressVariantSchema, d.bounceable),
      nonBounceable: create(DetectedAddressVariantSchema, d.non_bounceable),
      givenType: d.given_type,
      testOnly: d.test_only,
    });
  },
  detectHash(req: DetectHashRequest) {
    return create(DetectHashResponseSchema, withInput("hash", req.hash, () => ton.detectHash(req.hash)));
  },
  packAddress(req: PackAddressRequest) {
    return create(PackAddressResponseSchema, { result: withInput("address", req.address, () => ton.packAddress(req.address)) });
  },
  unpackAddress(req: UnpackAddressRequest) {
    const u = withInput("address", req.address, () => ton.unpackAddress(req.address));
    return create(UnpackAddressResponseSchema, { workchain: u.workchain, bounceable: u.bounceable, testnet: u.testnet, addrHex: u.addr_hex });
  },
};
