/** The notes of a topic from the agent's cache, optionally only those with a tag or containing a text. */
function run(params) {
  const current = platform.call('mem_get', { key: 'memo:' + params.topic });
  if (!current.found || !current.value) return { topic: params.topic, found: false, notes: [] };
  let notes = current.value.notes || [];
  if (params.tag) notes = notes.filter((n) => (n.tags || []).indexOf(params.tag) >= 0);
  if (params.contains) {
    const needle = params.contains.toLowerCase();
    notes = notes.filter((n) => n.text.toLowerCase().indexOf(needle) >= 0);
  }
  const limit = params.limit || 50;
  return { topic: params.topic, found: true, total: notes.length, notes: notes.slice(-limit) };
}
