/** The topics the agent has memos for (mem_list over the memo: prefix). */
function run(params) {
  const listed = platform.call('mem_list', { prefix: 'memo:', limit: params.limit || 100 });
  return { topics: listed.keys.map((k) => k.slice('memo:'.length)), truncated: listed.truncated };
}
