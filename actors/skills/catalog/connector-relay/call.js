/**
 * Calls a tool of one of the account's MCP connectors (`mcp.<server>.<tool>`) as the calling agent,
 * so the connector's permission scope and the agent's allowed tools apply and the connector
 * records this skill in its usedBy; then reshapes the answer: its structured content, or its text
 * parsed as JSON, narrowed to the dotted paths in select.
 */
function run(params) {
  const result = platform.call('mcp.' + params.server + '.' + params.tool, params.arguments || {});
  if (result.isError) {
    const text = (result.content || [])
      .filter((c) => c.type === 'text')
      .map((c) => c.text)
      .join('\n');
    throw new Error('The connector tool failed: ' + text.slice(0, 500));
  }
  let data = result.structuredContent;
  const text = (result.content || [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
  if (data === undefined) {
    try {
      data = JSON.parse(text);
    } catch (e) {
      data = text;
    }
  }
  const pick = (value, path) =>
    path
      .split('.')
      .reduce(
        (v, key) =>
          v === null || v === undefined
            ? undefined
            : Array.isArray(v) && /^\d+$/.test(key)
              ? v[Number(key)]
              : v[key],
        value,
      );
  if (params.select && params.select.length) {
    const fields = {};
    for (const p of params.select) {
      const v = pick(data, p);
      fields[p] = v === undefined ? null : v;
    }
    return { tool: 'mcp.' + params.server + '.' + params.tool, fields };
  }
  return { tool: 'mcp.' + params.server + '.' + params.tool, data, text: text || null };
}
