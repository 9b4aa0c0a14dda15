import { errors } from '../../schemas/errors';

type DependenciesOf = (
  slug: string,
) => { required: readonly string[]; optional: readonly string[] } | undefined;

/**
 * The skills to install for `root`, dependencies first (a depth-first post-order over the
 * required dependencies, plus the optional ones of the root named in `optional`), each once.
 * A cycle is CONFLICT naming it (`a → b → a`); an unknown slug is NOT_FOUND.
 */
export function dependencyOrder(
  root: string,
  dependenciesOf: DependenciesOf,
  optional: readonly string[] = [],
): string[] {
  const order: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (slug: string, extra: readonly string[]) => {
    if (done.has(slug)) return;
    const at = path.indexOf(slug);
    if (at >= 0) {
      throw errors.conflict(`Dependency cycle: ${[...path.slice(at), slug].join(' → ')}`, {
        cycle: [...path.slice(at), slug],
      });
    }
    const deps = dependenciesOf(slug);
    if (!deps) throw errors.notFound(`Skill not found: ${slug}`, { slug });
    path.push(slug);
    for (const dep of [...deps.required, ...extra]) visit(dep, []);
    path.pop();
    done.add(slug);
    order.push(slug);
  };
  visit(root, optional);
  return order;
}
