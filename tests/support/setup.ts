// What `tongate` does at startup (cli/src/main.ts): native SHA-256 for @ton/core's cell hashes and
// byte-wise BitReader reads. No module installs them when imported.
import { installSpeedShims } from "@tongate/ton";

installSpeedShims();
