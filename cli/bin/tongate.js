#!/usr/bin/env node
// The tongate command. Sources are TypeScript, loaded through tsx.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
await main(process.argv.slice(2));
