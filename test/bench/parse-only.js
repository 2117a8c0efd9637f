// The baseline process: read the capture and JSON.parse it, nothing else.
import { readFileSync } from 'node:fs';
const text = readFileSync(process.argv[2], 'utf8');
const value = JSON.parse(text);
if (!value) process.exitCode = 3;
