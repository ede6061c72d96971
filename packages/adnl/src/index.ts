// @tongate/adnl: ADNL over TCP (the liteserver transport): server, small client, key helpers.
export {
  AdnlServer,
  HANDSHAKE_SIZE,
  type AdnlCloseReason,
  type AdnlConnectionInfo,
  type AdnlQueryContext,
  type AdnlQueryHandler,
  type AdnlServerHooks,
  type AdnlServerOptions,
  type AdnlServerStats,
} from "./server.js";
export { AdnlClient, AdnlClientError, type AdnlClientOptions } from "./client.js";
export {
  adnlKeyId,
  ed25519KeyPairFromSeed,
  ed25519PublicKeyToX25519,
  x25519PrivateKeyFromEd25519Seed,
  x25519SharedSecret,
  handshakeCipherParams,
  type Ed25519KeyPair,
} from "./keys.js";
export { FRAME_MAX_SIZE, FRAME_MIN_SIZE, FRAME_OVERHEAD, FrameDecoder, FrameEncoder, FrameError } from "./frame.js";
export {
  readTlBytes,
  tlBytesSize,
  writeTlBytes,
  TL_ADNL_MESSAGE_ANSWER,
  TL_ADNL_MESSAGE_QUERY,
  TL_TCP_PING,
  TL_TCP_PONG,
} from "./tl.js";
