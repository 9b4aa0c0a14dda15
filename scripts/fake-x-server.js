#!/usr/bin/env node
// Runs the project's fake X server (test/support/fake-x-server.ts) for trying the social
// connector locally: docs/social.md, "Running against the fake X server".
require('../test/support/ts-register.js');
require('../test/support/fake-x-server.ts')
  .main()
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
