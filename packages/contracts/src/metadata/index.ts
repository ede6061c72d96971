// TEP-64 token metadata.
export { parseTokenContent, type TokenContentJson } from "./content.js";
