import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CapabilityDocumentSchema } from '../../schemas/documents/skill';
import { checkSkillContent, SkillContentSchema, type SkillContent } from './skill-content';
import { dependencyOrder } from './skill-dependencies';

/**
 * The seed catalog: one directory per skill under `actors/skills/catalog/`, holding `skill.json`
 * (the skill, with each capability's `code` and the optional `library` naming a file of the same
 * directory) and the JavaScript files beside it. Loaded at boot (docs/skills.md, "The catalog").
 */

const CodeFileSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]*\.js$/, 'a code file name like parse.js');

const CatalogFileSchema = SkillContentSchema.extend({
  library: CodeFileSchema.optional(),
  capabilities: z
    .array(CapabilityDocumentSchema.extend({ code: CodeFileSchema }))
    .min(1)
    .max(20),
});

/**
 * Where the catalog is: next to this module (`actors/skills/catalog` under jest and in a
 * checkout; `dist/actors/skills/catalog` when the build copied it), else its twin in the source tree.
 */
export function catalogDirectory(dir: string = __dirname): string {
  const candidates = [path.join(dir, 'catalog')];
  const parts = dir.split(path.sep);
  const distIndex = parts.lastIndexOf('dist');
  if (distIndex >= 0) {
    candidates.push(
      path.join([...parts.slice(0, distIndex), ...parts.slice(distIndex + 1)].join(path.sep), 'catalog'),
    );
  }
  const found = candidates.find((c) => fs.existsSync(path.join(c, 'csv-toolkit', 'skill.json')));
  if (!found) throw new Error(`Skill catalog not found (looked at ${candidates.join(', ')})`);
  return found;
}

/** One skill directory: its `skill.json` with the code files read in. Throws naming the file. */
function loadSkill(dir: string): SkillContent {
  const file = path.join(dir, 'skill.json');
  const parsed = CatalogFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`${file}: ${issues}`);
  }
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  const data = parsed.data;
  const content = SkillContentSchema.parse({
    ...data,
    ...(data.library ? { library: read(data.library) } : {}),
    capabilities: data.capabilities.map((c) => ({ ...c, code: read(c.code) })),
  });
  if (content.slug !== path.basename(dir)) throw new Error(`${file}: the slug must be the directory's name`);
  try {
    checkSkillContent(content);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`, { cause: err });
  }
  return content;
}

/**
 * Every skill of the catalog, sorted by slug: checked one by one, then together (unique ids and
 * slugs, dependencies inside the catalog and without cycles). Throws on the first problem: a
 * broken catalog is a defect of the build, not something to serve half of.
 */
export function loadCatalog(dir: string = catalogDirectory()): SkillContent[] {
  const skills = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => loadSkill(path.join(dir, e.name)))
    .sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const bySlug = new Map(skills.map((s) => [s.slug, s]));
  const ids = new Set(skills.map((s) => s.skill_id));
  if (ids.size !== skills.length) throw new Error('skill catalog: two skills share a skill_id');
  for (const skill of skills) {
    for (const dep of [...skill.dependencies.required, ...skill.dependencies.optional]) {
      if (!bySlug.has(dep)) throw new Error(`skill catalog: ${skill.slug} depends on unknown ${dep}`);
    }
    dependencyOrder(skill.slug, (slug) => bySlug.get(slug)?.dependencies);
  }
  return skills;
}
