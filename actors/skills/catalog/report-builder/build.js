/**
 * A report from a title and sections: the Markdown, its HTML through the markdown-renderer
 * skill's library (a required dependency) and, when the text-stats skill is installed (optional),
 * the statistics of the whole text.
 */
function run(params) {
  const parts = ['# ' + params.title];
  if (params.author || params.date)
    parts.push('_' + [params.author, params.date].filter(Boolean).join(' · ') + '_');
  if (params.toc !== false && params.sections.length > 1) {
    parts.push(params.sections.map((s, i) => i + 1 + '. ' + s.heading).join('\n'));
  }
  for (const s of params.sections) {
    parts.push('## ' + s.heading);
    parts.push(s.body);
    if (s.bullets && s.bullets.length) parts.push(s.bullets.map((b) => '- ' + b).join('\n'));
  }
  const markdown = parts.join('\n\n') + '\n';
  const rendered = deps['markdown-renderer'].toHtml(markdown, { headingIds: true });
  const stats = deps['text-stats']
    ? deps['text-stats'].analyze(markdown.replace(/[#_*`>-]/g, ' '), { top: 5 })
    : null;
  return {
    markdown,
    html: rendered.html,
    outline: rendered.headings.map((h) => ({ level: h.level, text: h.text, id: h.id })),
    stats: stats
      ? { words: stats.words, readingTimeSeconds: stats.readingTimeSeconds, topWords: stats.topWords }
      : null,
  };
}
