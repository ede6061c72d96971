import { installFastSha256 } from "@tongate/ton";

installFastSha256();
