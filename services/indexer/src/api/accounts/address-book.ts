// /addressBook: the address book itself, keyed by each address as it was asked.
import { create } from "@bufbuild/protobuf";
import {
  type AddressBookRequest,
  type AddressBookResponse,
  AddressBookResponseSchema,
  AddressBookRowSchema,
} from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { addressBook } from "../book.js";
import { rawAddress } from "../params.js";
import type { Store } from "../sql.js";

/** Keyed by each address as it was asked; an address that does not parse gets user_friendly null. */
export async function addressBookOf(store: Store, req: AddressBookRequest): Promise<AddressBookResponse> {
  const raw = new Map<string, string | undefined>();
  for (const a of req.address) {
    try {
      raw.set(a, rawAddress(a));
    } catch {
      raw.set(a, undefined);
    }
  }
  const book = await addressBook(store, raw.values());
  const out: AddressBookResponse["addressBook"] = {};
  for (const [given, r] of raw) out[given] = r ? book[r]! : create(AddressBookRowSchema, {});
  return create(AddressBookResponseSchema, { addressBook: out });
}
