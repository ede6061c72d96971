// The liteserver schema: lite_api.tl plus the ADNL-TCP transport objects from ton_api.tl that a liteserver
// connection uses (keepalive ping/pong, client authentication, public keys).

import { readFileSync } from "node:fs";
import { TlSchema } from "./schema.js";

/** Declarations from ton_api.tl used on ADNL-TCP liteserver connections, which lite_api.tl does not contain. */
export const TCP_TRANSPORT_TL = `
pub.unenc data:bytes = PublicKey;
pub.ed25519 key:int256 = PublicKey;
pub.aes key:int256 = PublicKey;
pub.overlay name:bytes = PublicKey;

tcp.pong random_id:long = tcp.Pong;

tcp.authentificate nonce:bytes = tcp.Message;
tcp.authentificationNonce nonce:bytes = tcp.Message;
tcp.authentificationComplete key:PublicKey signature:bytes = tcp.Message;

---functions---

tcp.ping random_id:long = tcp.Pong;
`;

/** The text of lite_api.tl as shipped in this package. */
export const LITE_API_TL = readFileSync(new URL("../schema/lite_api.tl", import.meta.url), "utf8");

/** lite_api.tl + TCP_TRANSPORT_TL, compiled. */
export const liteApi: TlSchema = TlSchema.parse([LITE_API_TL, TCP_TRANSPORT_TL]);
