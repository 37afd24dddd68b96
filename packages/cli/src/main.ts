#!/usr/bin/env -S node --conditions=tributary-source --no-warnings=ExperimentalWarning
import { run } from './program.ts';

process.exitCode = await run(process.argv.slice(2));
