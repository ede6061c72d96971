// TEP-64 token metadata.
export { parseTokenContent, type TokenContentJson } from "./content.js";
export { contentObject, contentUri, fieldsOf, saysEnough, tokenMetadata, TOKEN_TYPES, type FetchOutcome, type TokenFields, type TokenMetadata, type TokenType } from "./token-info.js";
