/**
 * A reader for the block-style YAML subset docker-compose.yml is kept in: nested mappings, lists of
 * scalars, plain, 'single' and "double" quoted scalars, `{}`, `[]` and comments. Anything else
 * (anchors, flow collections with content, multi-line scalars, lists of mappings) is refused with
 * its line number, so that the file cannot drift outside what this test reads.
 */

export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  number: number;
  indent: number;
  text: string;
}

/** The line without its comment: a `#` at the start or after a space, outside quotes. */
function stripComment(raw: string): string {
  let quote: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || raw[i - 1] === ' ')) {
      return raw.slice(0, i);
    }
  }
  return raw;
}

function lines(text: string): Line[] {
  return text.split('\n').flatMap((raw, index) => {
    const content = stripComment(raw).trimEnd();
    if (content.trim() === '') return [];
    if (content.includes('\t')) throw new Error(`line ${index + 1}: tabs are outside the subset`);
    const indent = content.length - content.trimStart().length;
    return [{ number: index + 1, indent, text: content.trimStart() }];
  });
}

function scalar(text: string, line: number): YamlValue {
  if (text === '{}') return Object.create(null) as Record<string, YamlValue>;
  if (text === '[]') return [];
  if (text.startsWith('"')) return JSON.parse(text) as string;
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new Error(`line ${line}: unterminated quote`);
    return text.slice(1, -1).replaceAll("''", "'");
  }
  if (/^[&*!|>[{@`]/.test(text)) throw new Error(`line ${line}: '${text}' is outside the subset`);
  return text;
}

/** `key: rest` (rest may be empty); the key plain or quoted. */
function keyValue(text: string, line: number): [string, string] {
  const match = /^("[^"]*"|'[^']*'|[^\s'"#:][^:]*?):(?:\s+(.*))?$/.exec(text);
  if (!match) throw new Error(`line ${line}: expected 'key: value', got '${text}'`);
  const key = scalar(match[1]!, line) as string;
  return [key, match[2] ?? ''];
}

class Reader {
  private at = 0;

  constructor(private readonly all: Line[]) {}

  read(): YamlValue {
    const value = this.block(0);
    const left = this.all[this.at];
    if (left) throw new Error(`line ${left.number}: unexpected indentation`);
    return value;
  }

  private block(indent: number): YamlValue {
    const first = this.all[this.at];
    if (!first || first.indent !== indent) throw new Error(`line ${first?.number ?? 'end'}: expected a block`);
    return first.text.startsWith('- ') || first.text === '-' ? this.list(indent) : this.mapping(indent);
  }

  private list(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (let line = this.all[this.at]; line && line.indent === indent; line = this.all[this.at]) {
      if (!line.text.startsWith('- ')) throw new Error(`line ${line.number}: expected a list item`);
      const item = line.text.slice(2).trim();
      if (/^[^'"\s][^:]*:(\s|$)/.test(item))
        throw new Error(`line ${line.number}: lists of mappings are outside the subset`);
      items.push(scalar(item, line.number));
      this.at++;
    }
    return items;
  }

  private mapping(indent: number): Record<string, YamlValue> {
    const map = Object.create(null) as Record<string, YamlValue>;
    for (let line = this.all[this.at]; line && line.indent === indent; line = this.all[this.at]) {
      const [key, rest] = keyValue(line.text, line.number);
      if (Object.hasOwn(map, key)) throw new Error(`line ${line.number}: duplicate key '${key}'`);
      this.at++;
      if (rest !== '') {
        map[key] = scalar(rest, line.number);
        continue;
      }
      const next = this.all[this.at];
      // A list may sit at its key's own indentation, as YAML allows (and Prettier writes).
      if (next && next.indent > indent) map[key] = this.block(next.indent);
      else if (next && next.indent === indent && next.text.startsWith('- ')) map[key] = this.list(indent);
      else map[key] = '';
    }
    return map;
  }
}

export function readYamlSubset(text: string): YamlValue {
  return new Reader(lines(text)).read();
}
