/**
 * Markdown to HTML: ATX and setext headings, paragraphs, emphasis and strong, inline code, fenced
 * and indented code blocks, blockquotes, ordered and unordered lists (nested by indentation),
 * links, images, horizontal rules and hard breaks. Raw HTML is escaped, and link targets other
 * than http(s), mailto, relative paths and anchors are dropped: the output is safe to embed.
 */
function library() {
  const escape = (s) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const safeUrl = (url) =>
    /^(https?:|mailto:|\/|\.{0,2}\/|#)/i.test(url) || !/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : '';
  const slug = (text) =>
    text
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^a-z0-9\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-');

  function inline(text) {
    const codes = [];
    let s = text.replace(/`([^`]+)`/g, (_, code) => {
      codes.push('<code>' + escape(code) + '</code>');
      return '\uE000' + (codes.length - 1) + '\uE001';
    });
    s = escape(s);
    s = s.replace(/!\[([^\]]*)\]\(([^)\s]+)(?:\s+&quot;([^&]*)&quot;)?\)/g, (_, alt, url, title) => {
      const href = safeUrl(url);
      return href
        ? '<img src="' + href + '" alt="' + alt + '"' + (title ? ' title="' + title + '"' : '') + '>'
        : alt;
    });
    s = s.replace(/\[([^\]]+)\]\(([^)\s]+)(?:\s+&quot;([^&]*)&quot;)?\)/g, (_, label, url, title) => {
      const href = safeUrl(url);
      return href
        ? '<a href="' + href + '"' + (title ? ' title="' + title + '"' : '') + '>' + label + '</a>'
        : label;
    });
    s = s.replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '<strong>$2</strong>');
    s = s.replace(/(\*|_)(?=\S)([\s\S]*?\S)\1/g, '<em>$2</em>');
    s = s.replace(/~~(?=\S)([\s\S]*?\S)~~/g, '<del>$1</del>');
    s = s.replace(/ {2,}\n/g, '<br>\n');
    return s.replace(/\uE000(\d+)\uE001/g, (_, i) => codes[Number(i)]);
  }

  function list(lines, start) {
    const ordered = /^\s*\d+[.)]\s/.test(lines[start]);
    const indent = lines[start].match(/^\s*/)[0].length;
    const items = [];
    let i = start;
    while (i < lines.length) {
      const line = lines[i];
      const m = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
      if (m && m[1].length === indent && /^\d/.test(m[2]) === ordered) {
        items.push({ text: m[3], children: [] });
        i++;
      } else if (m && m[1].length > indent && items.length > 0) {
        const nested = list(lines, i);
        items[items.length - 1].children.push(nested.html);
        i = nested.next;
      } else if (line.trim() !== '' && !m && items.length > 0 && /^\s+/.test(line)) {
        items[items.length - 1].text += ' ' + line.trim();
        i++;
      } else {
        break;
      }
    }
    const tag = ordered ? 'ol' : 'ul';
    const html =
      '<' +
      tag +
      '>' +
      items.map((it) => '<li>' + inline(it.text) + it.children.join('') + '</li>').join('') +
      '</' +
      tag +
      '>';
    return { html, next: i };
  }

  function toHtml(markdown, options) {
    const lines = markdown.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
    const out = [];
    const headings = [];
    const anchors = options && options.headingIds;
    let i = 0;
    const heading = (level, text) => {
      const html = inline(text.trim());
      const id = slug(html);
      headings.push({ level, text: text.trim(), id });
      out.push('<h' + level + (anchors ? ' id="' + id + '"' : '') + '>' + html + '</h' + level + '>');
    };
    while (i < lines.length) {
      const line = lines[i];
      let m;
      if (line.trim() === '') {
        i++;
      } else if ((m = /^(`{3,}|~{3,})\s*([\w-]*)\s*$/.exec(line))) {
        const fence = m[1];
        const code = [];
        i++;
        while (i < lines.length && !lines[i].startsWith(fence)) code.push(lines[i++]);
        i++;
        out.push(
          '<pre><code' +
            (m[2] ? ' class="language-' + m[2] + '"' : '') +
            '>' +
            escape(code.join('\n')) +
            '</code></pre>',
        );
      } else if ((m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
        heading(m[1].length, m[2]);
        i++;
      } else if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
        out.push('<hr>');
        i++;
      } else if (/^ {4}/.test(line)) {
        const code = [];
        while (i < lines.length && (/^ {4}/.test(lines[i]) || lines[i].trim() === ''))
          code.push(lines[i++].slice(4));
        while (code.length && code[code.length - 1].trim() === '') code.pop();
        out.push('<pre><code>' + escape(code.join('\n')) + '</code></pre>');
      } else if (/^\s*>/.test(line)) {
        const quote = [];
        while (i < lines.length && /^\s*>/.test(lines[i])) quote.push(lines[i++].replace(/^\s*>\s?/, ''));
        out.push('<blockquote>' + toHtml(quote.join('\n'), options).html + '</blockquote>');
      } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
        const l = list(lines, i);
        out.push(l.html);
        i = l.next;
      } else {
        const para = [];
        while (
          i < lines.length &&
          lines[i].trim() !== '' &&
          !/^(#{1,6}\s|`{3,}|~{3,}|\s*>|\s*([-*+]|\d+[.)])\s+)/.test(lines[i])
        ) {
          if (para.length > 0 && /^(=+|-+)\s*$/.test(lines[i])) break;
          para.push(lines[i++]);
        }
        if (i < lines.length && para.length > 0 && /^(=+|-+)\s*$/.test(lines[i])) {
          heading(lines[i][0] === '=' ? 1 : 2, para.join(' '));
          i++;
        } else {
          out.push('<p>' + inline(para.join('\n')) + '</p>');
        }
      }
    }
    return { html: out.join('\n'), headings };
  }

  return { toHtml, inline, escape };
}
