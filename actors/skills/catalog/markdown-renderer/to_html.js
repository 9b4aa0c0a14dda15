/** Markdown to safe HTML, with the outline of its headings. */
function run(params) {
  const rendered = lib.toHtml(params.markdown, { headingIds: params.headingIds === true });
  return { html: rendered.html, headings: rendered.headings };
}
