/**
 * The client's markdown, rendered to elements (never to HTML text, so nothing an app sends can
 * become markup): code blocks and inline code, bold, italics, underline, strike-through, spoilers,
 * quotes, headings, links, and mentions of users, roles and channels by their names.
 */
import type { ComponentChildren } from 'preact';

/** How mentions read: names from the message's `mentions`, the guild's roles and channels. */
export interface MentionNames {
  user: (id: string) => string | undefined;
  role: (id: string) => string | undefined;
  channel: (id: string) => string | undefined;
}

interface InlineRule {
  pattern: RegExp;
  render: (match: RegExpExecArray, names: MentionNames, key: number) => ComponentChildren;
}

const INLINE: InlineRule[] = [
  { pattern: /`([^`]+)`/y, render: (m, _n, k) => <code key={k}>{m[1]}</code> },
  { pattern: /\*\*([\s\S]+?)\*\*/y, render: (m, n, k) => <strong key={k}>{inline(m[1]!, n)}</strong> },
  { pattern: /__([\s\S]+?)__/y, render: (m, n, k) => <u key={k}>{inline(m[1]!, n)}</u> },
  { pattern: /\*([^*\s][^*]*?)\*/y, render: (m, n, k) => <em key={k}>{inline(m[1]!, n)}</em> },
  { pattern: /_([^_\s][^_]*?)_/y, render: (m, n, k) => <em key={k}>{inline(m[1]!, n)}</em> },
  { pattern: /~~([\s\S]+?)~~/y, render: (m, n, k) => <s key={k}>{inline(m[1]!, n)}</s> },
  {
    pattern: /\|\|([\s\S]+?)\|\|/y,
    render: (m, n, k) => (
      <span key={k} class="spoiler" tabIndex={0} title="Spoiler">
        {inline(m[1]!, n)}
      </span>
    ),
  },
  {
    pattern: /\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/y,
    render: (m, n, k) => (
      <a key={k} href={m[2]} target="_blank" rel="noopener noreferrer">
        {inline(m[1]!, n)}
      </a>
    ),
  },
  {
    pattern: /https?:\/\/[^\s<]+[^\s<.,:;"')\]]/y,
    render: (m, _n, k) => (
      <a key={k} href={m[0]} target="_blank" rel="noopener noreferrer">
        {m[0]}
      </a>
    ),
  },
  {
    pattern: /<@!?(\d+)>/y,
    render: (m, n, k) => (
      <span key={k} class="mention">
        @{n.user(m[1]!) ?? 'unknown-user'}
      </span>
    ),
  },
  {
    pattern: /<@&(\d+)>/y,
    render: (m, n, k) => (
      <span key={k} class="mention">
        @{n.role(m[1]!) ?? 'unknown-role'}
      </span>
    ),
  },
  {
    pattern: /<#(\d+)>/y,
    render: (m, n, k) => (
      <span key={k} class="mention">
        #{n.channel(m[1]!) ?? 'unknown'}
      </span>
    ),
  },
  {
    pattern: /<\/([^:>]+):(\d+)>/y,
    render: (m, _n, k) => (
      <span key={k} class="mention">
        /{m[1]}
      </span>
    ),
  },
];

/** Characters where an inline rule may start; text up to the next of them is plain. */
const SPECIAL = /[`*_~|[<h]/g;

function inline(text: string, names: MentionNames): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let plain = '';
  let at = 0;
  while (at < text.length) {
    let matched = false;
    for (const rule of INLINE) {
      rule.pattern.lastIndex = at;
      const match = rule.pattern.exec(text);
      if (!match) continue;
      if (plain) out.push(plain);
      plain = '';
      // Read before rendering: the nested call reuses the same sticky patterns.
      at = match.index + match[0].length;
      out.push(rule.render(match, names, out.length));
      matched = true;
      break;
    }
    if (matched) continue;
    SPECIAL.lastIndex = at + 1;
    const next = SPECIAL.exec(text);
    const end = next ? next.index : text.length;
    plain += text.slice(at, end);
    at = end;
  }
  if (plain) out.push(plain);
  return out;
}

/** Lines into blocks: fenced code, quotes, headings, and paragraphs with their line breaks. */
export function Markdown({ text, names }: { text: string; names: MentionNames }) {
  const blocks: ComponentChildren[] = [];
  const lines = text.split('\n');
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const parts: ComponentChildren[] = [];
    paragraph.forEach((line, i) => {
      if (i > 0) parts.push(<br key={`b${i}`} />);
      parts.push(...inline(line, names));
    });
    blocks.push(<p key={blocks.length}>{parts}</p>);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.startsWith('```')) code.push(lines[i++]!);
      blocks.push(
        <pre key={blocks.length}>
          <code>{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading) {
      flush();
      const Tag = (['h3', 'h4', 'h5'] as const)[heading[1]!.length - 1]!;
      blocks.push(<Tag key={blocks.length}>{inline(heading[2]!, names)}</Tag>);
      continue;
    }
    if (line.startsWith('> ')) {
      flush();
      blocks.push(<blockquote key={blocks.length}>{inline(line.slice(2), names)}</blockquote>);
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return <div class="markdown">{blocks}</div>;
}
