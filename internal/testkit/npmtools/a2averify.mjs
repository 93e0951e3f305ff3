// Verifies signed A2A Agent Cards with the A2A project's JavaScript SDK
// (@a2a-js/sdk), as an agent that reads charter's cards would: offline,
// the public key given as a JWK.
//
//   node a2averify.mjs KEY.jwk.json CARD.json...
//
// It prints "ok CARD" for each card whose signature verifies, "FAIL CARD:
// why" for the others, and exits 1 when one failed.
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { readFileSync } from 'node:fs';

const [keyFile, ...cards] = process.argv.slice(2);
const jwk = JSON.parse(readFileSync(keyFile, 'utf8'));
const verify = verifyAgentCardSignature(async () => jwk);
let failed = false;
for (const file of cards) {
  try {
    await verify(JSON.parse(readFileSync(file, 'utf8')));
    console.log(`ok ${file}`);
  } catch (e) {
    failed = true;
    console.log(`FAIL ${file}: ${e.message}`);
  }
}
process.exit(failed ? 1 : 0);
