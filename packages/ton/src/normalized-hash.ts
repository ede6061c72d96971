// TEP-467's normalized hash of an inbound external message: the hash of the same message with no
// source, no import fee, no StateInit and the body in a reference, so that re-serializations and
// the fields a sender may vary do not change it. The send service returns it (sendBocReturnHash's
// hash_norm, v3 /message) and the indexer stores it (messages' hash_norm): one definition for both.
import { createHash } from "node:crypto";
import { beginCell, type Message } from "@ton/core";

/**
 * The normalized hash of `message`, which must be an inbound external one (TypeError otherwise).
 * The common case (an ordinary body, a workchain that fits int8) hashes the cell's representation
 * directly, without building the cell: the indexer computes one per external message it stores.
 */
export function normalizedHash(message: Message): Buffer {
  if (message.info.type !== "external-in") throw new TypeError(`TEP-467's normalized hash is of an inbound external message, this is ${message.info.type}`);
  const dest = message.info.dest;
  const body = message.body;
  if (body.level() !== 0 || dest.workChain < -128 || dest.workChain > 127) {
    return beginCell()
      .storeUint(0b10, 2) // ext_in_msg_info$10
      .storeUint(0, 2) // src: addr_none$00
      .storeAddress(dest)
      .storeCoins(0) // import_fee
      .storeBit(false) // init: nothing
      .storeBit(true) // body: in a reference
      .storeRef(body)
      .endCell()
      .hash();
  }
  // The representation: d1 (one ref) d2 (277 bits), then the data
  // 10 00 | 10 0 workchain:int8 address:bits256 | 0000 (coins 0) | 0 (no init) | 1 (body ref) + the
  // completion tag, then the body's depth and hash.
  const repr = Buffer.alloc(2 + 35 + 2 + 32);
  repr[0] = 1;
  repr[1] = 69;
  let pos = 0;
  const put = (v: number, n: number): void => {
    for (let i = n - 1; i >= 0; i--, pos++) if ((v >> i) & 1) repr[2 + (pos >> 3)]! |= 0x80 >> (pos & 7);
  };
  put(0b1000, 4); // ext_in_msg_info$10, src addr_none$00
  put(0b100, 3); // addr_std$10, no anycast
  put(dest.workChain & 0xff, 8);
  for (const byte of dest.hash) put(byte, 8);
  put(0, 4);
  put(0b01, 2);
  put(1, 1); // completion tag: 277 bits
  const d = body.depth();
  repr[37] = d >> 8;
  repr[38] = d & 0xff;
  body.hash().copy(repr, 39);
  return createHash("sha256").update(repr).digest();
}
