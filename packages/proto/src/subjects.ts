// The bus subjects of the events in ../../proto (NATS subjects: `tongate.<network>.<event>`), beside
// their messages: a publisher and its subscribers name them from here.
const token = (network: string): string => {
  if (!/^[A-Za-z0-9_-]+$/.test(network)) throw new Error(`"${network}" cannot be a subject token (letters, digits, '-' and '_' only)`);
  return network;
};

/** tongate.indexer.v1.BlocksIndexed, after each masterchain block the indexer stored. */
export const blocksIndexedSubject = (network: string): string => `tongate.${token(network)}.blocks.indexed`;
/** tongate.decoder.v1.BlocksDecoded, after each masterchain block the decoder decoded and classified. */
export const blocksDecodedSubject = (network: string): string => `tongate.${token(network)}.blocks.decoded`;
/** tongate.send.v1.PendingTraceChanged, when the send service's pending trace appears, is confirmed or invalidated. */
export const pendingTracesSubject = (network: string): string => `tongate.${token(network)}.pending.traces`;
/** tongate.streaming.v1.StreamEvent, what the Streaming API serves (rendered by the indexer). */
export const streamEventsSubject = (network: string): string => `tongate.${token(network)}.stream.events`;
