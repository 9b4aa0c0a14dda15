/**
 * Adds a note to a memo kept in the calling agent's own cache (mem_get then mem_set under
 * `memo:<topic>`), so the agent finds it again in later runs. Keeps the newest 200 notes.
 */
function run(params) {
  const key = 'memo:' + params.topic;
  const current = platform.call('mem_get', { key });
  const memo =
    current.found && current.value && Array.isArray(current.value.notes)
      ? current.value
      : { topic: params.topic, notes: [] };
  const at = params.at || new Date().toISOString();
  memo.notes.push({ text: params.note, tags: params.tags || [], at });
  if (memo.notes.length > 200) memo.notes = memo.notes.slice(-200);
  memo.updatedAt = at;
  platform.call('mem_set', { key, value: memo, ttl: params.ttlSeconds || 30 * 24 * 3600 });
  return {
    topic: params.topic,
    notes: memo.notes.length,
    saved: { text: params.note, tags: params.tags || [], at },
  };
}
