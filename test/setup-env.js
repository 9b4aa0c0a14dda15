// Tests must never read a developer's ./data; each suite that needs a data dir makes its own.
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
