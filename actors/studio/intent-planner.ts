/**
 * The deterministic intent planner of the Studio intent stream (docs/studio.md): maps a chat
 * message to a Studio command, or to a plain reply. No model is involved: the same message always
 * gives the same plan.
 */
export type IntentPlan = { kind: 'command'; command: string } | { kind: 'reply'; text: string };

export const INTENT_HELP_TEXT = [
  'I map messages to Studio commands. Try:',
  '- "list tools" (tools list)',
  '- "list connectors" (mcp list)',
  '- "status"',
  '- "search skills <query>" (skills search)',
  '- "run <tool> {json}" (tool run <tool> --json {json}; a tool that changes state asks for approval first)',
  '- or any Studio command itself, e.g. "tool run mem_get --json {\\"key\\":\\"k\\"}".',
].join('\n');

const DIRECT = /^(help|status|tools list|mcp list|skills search .+|tool run .+|mcp call .+)$/s;

/** The plan of one message. */
export function planIntent(message: string): IntentPlan {
  const text = message.trim();
  const lower = text.toLowerCase().replace(/[.!?]+$/, '');
  if (/^(please )?(list|show)( me)?( the| my| all)? tools$/.test(lower) || lower === 'what tools do i have') {
    return { kind: 'command', command: 'tools list' };
  }
  if (/^(please )?(list|show)( me)?( the| my| all)? (connectors|mcp servers|mcp)$/.test(lower)) {
    return { kind: 'command', command: 'mcp list' };
  }
  if (lower === 'status' || lower === 'show status' || lower === "what's my status") {
    return { kind: 'command', command: 'status' };
  }
  const search = /^(?:search|find) skills? (?:for )?(.+)$/i.exec(text);
  if (search) return { kind: 'command', command: `skills search ${search[1].trim()}` };
  const run =
    /^(?:please )?(?:run|call) ([A-Za-z0-9][A-Za-z0-9_.-]*)(?:\s+(?:with\s+)?(\{[\s\S]*\}))?$/i.exec(text);
  if (run) return { kind: 'command', command: `tool run ${run[1]}${run[2] ? ` --json ${run[2]}` : ''}` };
  // The strict Studio syntax itself (skills install/use and advanced commands are not taken from chat).
  if (DIRECT.test(text) && text !== 'help') return { kind: 'command', command: text };
  return { kind: 'reply', text: INTENT_HELP_TEXT };
}
