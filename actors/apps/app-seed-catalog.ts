import type { PublishAppBody } from '../../schemas/http/apps';

/**
 * The platform's own apps, seeded at start (app-seed.ts) so that the store is not empty on a
 * fresh install. Each is built on skills of the seed skill catalog (actors/skills/catalog); the
 * distribution URLs are placeholders under example.com until the apps are hosted. To change one,
 * raise its `manifest.version`: the seed records it as a new version (installs see an update).
 */
type SeedApp = Omit<PublishAppBody, 'manifest' | 'published' | 'slug'> & {
  slug: string;
  manifest: {
    version: string;
    runtime: 'web' | 'node';
    entrypoint: string;
    skills: string[];
    requiredSkills: string[];
    permissions: string[];
    requiredSecrets: string[];
    commands: { name: string; description: string }[];
    web?: boolean;
    mobile?: boolean;
  };
};

const app = (a: SeedApp) => a;

export const SEED_APPS: readonly SeedApp[] = [
  app({
    slug: 'citation-desk',
    name: 'Citation Desk',
    category: 'Research',
    description:
      'Collects sources and formats a bibliography in APA, MLA or Chicago style, with a summary of each source.',
    deviceTargets: ['desktop', 'cloud', 'pwa'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['citation-formatter', 'text-summarizer'],
      requiredSkills: ['citation-formatter'],
      permissions: ['files:read'],
      requiredSecrets: [],
      commands: [
        { name: 'cite', description: 'Formats one source in the chosen style.' },
        { name: 'bibliography', description: 'Formats and orders every collected source.' },
      ],
      web: true,
    },
    defaultConfig: { style: 'apa', sortBy: 'author' },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'research-brief',
    name: 'Research Brief',
    category: 'Research',
    description:
      'Turns long documents into a one-page brief: a summary, the key terms and the reading statistics.',
    deviceTargets: ['desktop', 'cloud', 'android', 'ios'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['text-summarizer', 'keyword-extractor', 'text-stats'],
      requiredSkills: ['text-summarizer', 'keyword-extractor'],
      permissions: ['files:read'],
      requiredSecrets: [],
      commands: [{ name: 'brief', description: 'Summarizes a document and lists its key terms.' }],
      web: true,
      mobile: true,
    },
    defaultConfig: { sentences: 5, keywords: 10 },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'seo-inspector',
    name: 'SEO Inspector',
    category: 'Research',
    description: 'Audits a page for titles, headings, links and keywords, and explains what to fix first.',
    deviceTargets: ['desktop', 'cloud'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['seo-audit', 'keyword-extractor'],
      requiredSkills: ['seo-audit'],
      permissions: [],
      requiredSecrets: [],
      commands: [{ name: 'audit', description: 'Audits the HTML of a page.' }],
      web: true,
    },
    defaultConfig: { minWords: 300 },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'invoice-studio',
    name: 'Invoice Studio',
    category: 'Finance',
    description:
      'Builds invoices with line items, discounts and taxes, and converts their totals between currencies.',
    deviceTargets: ['desktop', 'cloud', 'android', 'ios'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['invoice-calculator', 'currency-converter'],
      requiredSkills: ['invoice-calculator'],
      permissions: ['files:write'],
      requiredSecrets: [],
      commands: [
        { name: 'total', description: 'Computes the totals of an invoice.' },
        { name: 'convert', description: 'Shows the totals in another currency.' },
      ],
      web: true,
      mobile: true,
    },
    defaultConfig: { currency: 'EUR', taxRate: 0.2 },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'iban-checker',
    name: 'IBAN Checker',
    category: 'Finance',
    description: 'Checks IBANs in bulk: country, length and checksum, with the reason for each refusal.',
    deviceTargets: ['desktop', 'cloud', 'pwa'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['iban-validator'],
      requiredSkills: ['iban-validator'],
      permissions: [],
      requiredSecrets: [],
      commands: [{ name: 'check', description: 'Validates a list of IBANs.' }],
      web: true,
    },
    defaultConfig: { format: 'grouped' },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'fx-board',
    name: 'FX Board',
    category: 'Finance',
    description:
      'Converts amounts between currencies and summarizes a series of rates: mean, spread and extremes.',
    deviceTargets: ['desktop', 'cloud'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['currency-converter', 'stats-calculator'],
      requiredSkills: ['currency-converter', 'stats-calculator'],
      permissions: [],
      requiredSecrets: [],
      commands: [{ name: 'convert', description: 'Converts an amount.' }],
      web: true,
    },
    defaultConfig: { base: 'USD', decimals: 2 },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'csv-explorer',
    name: 'CSV Explorer',
    category: 'Data',
    description: 'Opens CSV files, filters and groups their rows, and describes each column with statistics.',
    deviceTargets: ['desktop', 'cloud', 'pwa'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['csv-toolkit', 'stats-calculator'],
      requiredSkills: ['csv-toolkit'],
      permissions: ['files:read'],
      requiredSecrets: [],
      commands: [
        { name: 'open', description: 'Parses a CSV file into typed rows.' },
        { name: 'describe', description: 'Statistics of each numeric column.' },
      ],
      web: true,
    },
    defaultConfig: { delimiter: ',', typed: true },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'json-workbench',
    name: 'JSON Workbench',
    category: 'Data',
    description: 'Queries JSON documents with paths and checks them against a JSON Schema.',
    deviceTargets: ['desktop', 'cloud'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['json-query', 'json-schema-validator'],
      requiredSkills: ['json-query', 'json-schema-validator'],
      permissions: [],
      requiredSecrets: [],
      commands: [
        { name: 'query', description: 'Evaluates a path on a document.' },
        { name: 'validate', description: 'Checks a document against a schema.' },
      ],
      web: true,
    },
    defaultConfig: { indent: 2 },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'report-studio',
    name: 'Report Studio',
    category: 'Data',
    description: 'Writes Markdown reports from tables of data, with sections, totals and rendered HTML.',
    deviceTargets: ['desktop', 'cloud'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['report-builder', 'csv-toolkit'],
      requiredSkills: ['report-builder'],
      permissions: ['files:write'],
      requiredSecrets: [],
      commands: [{ name: 'build', description: 'Builds a report from rows.' }],
      web: true,
    },
    defaultConfig: { format: 'markdown' },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'ticket-desk',
    name: 'Ticket Desk',
    category: 'Operations',
    description: 'Triages support tickets by urgency and sentiment and drafts replies from canned responses.',
    deviceTargets: ['desktop', 'cloud', 'android', 'ios'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['ticket-triage', 'sentiment-analyzer', 'canned-responses'],
      requiredSkills: ['ticket-triage'],
      permissions: ['memory:write'],
      requiredSecrets: [],
      commands: [
        { name: 'triage', description: 'Classifies a ticket and sets its priority.' },
        { name: 'reply', description: 'Drafts a reply from the canned responses.' },
      ],
      web: true,
      mobile: true,
    },
    defaultConfig: { queue: 'support', autoAssign: false },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'webhook-relay',
    name: 'Webhook Relay',
    category: 'Operations',
    description:
      'Signs outgoing webhooks and verifies incoming ones with your signing secret from the vault.',
    deviceTargets: ['cloud', 'desktop'],
    manifest: {
      version: '1.0.0',
      runtime: 'node',
      entrypoint: 'relay.js',
      skills: ['webhook-signer'],
      requiredSkills: ['webhook-signer'],
      permissions: ['net'],
      requiredSecrets: ['WEBHOOK_SIGNING_SECRET'],
      commands: [
        { name: 'sign', description: 'Signs a payload.' },
        { name: 'verify', description: 'Verifies a signature.' },
      ],
      web: true,
    },
    defaultConfig: { algorithm: 'sha256', toleranceSeconds: 300 },
    releaseNotes: 'First release.',
  }),
  app({
    slug: 'ops-scheduler',
    name: 'Ops Scheduler',
    category: 'Operations',
    description:
      'Plans recurring jobs: explains cron expressions and lists their next runs in any time zone.',
    deviceTargets: ['desktop', 'cloud', 'pwa'],
    manifest: {
      version: '1.0.0',
      runtime: 'web',
      entrypoint: 'index.html',
      skills: ['cron-scheduler', 'date-toolkit'],
      requiredSkills: ['cron-scheduler'],
      permissions: [],
      requiredSecrets: [],
      commands: [{ name: 'next', description: 'Lists the next runs of an expression.' }],
      web: true,
    },
    defaultConfig: { timeZone: 'UTC', runs: 5 },
    releaseNotes: 'First release.',
  }),
];
